// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconEmulator

/// The whole site as its run's events show it: each radio online or not and since when, each
/// beacon on air, off air or in error (with why) and since when, and what the site's coverage
/// goals still miss. Fed by the controller's events (a site with a broker) or a local run's (a
/// site of one host); times are the caller's clock (seconds since the run began). The live view
/// of `beacon site` is drawn from it.
public struct SiteStatus: Sendable, Equatable {
    /// One radio as its host's status shows it.
    public struct Radio: Sendable, Equatable {
        public enum State: Sendable, Equatable {
            /// Nothing heard of its host yet.
            case waiting
            case online
            case offline
            /// A local run's radio that stopped (why).
            case failed(String)
        }

        public var id: SiteRadio.ID
        /// How many beacons it may carry (its `capacity:` or the planner's promise).
        public var capacity: Int
        public var state: State = .waiting
        /// When the state began (`nil`: since the start).
        public var since: Double?
    }

    /// One beacon of the site.
    public struct Beacon: Sendable, Equatable {
        public enum State: Sendable, Equatable {
            /// Not reported yet.
            case waiting
            case onAir
            /// Off air, and why (its host offline, switched off, its agent's reason).
            case off(String)
            /// Its agent reports an error (the reason).
            case error(String)
            /// No radio can carry it (why: none within reach, or all full).
            case unplaced(String)
        }

        /// Its identity on the site (``SiteBeaconID``).
        public var id: String
        public var name: String
        /// The radio that carries it (`nil`: none).
        public var radio: SiteRadio.ID?
        public var state: State = .waiting
        public var since: Double?
        /// On air: the set (or legacy advertiser) of its radio that carries it, as its agent (or
        /// the local run) reports it.
        public var seat: AdvertiserSeat?
    }

    /// In the site's order.
    public private(set) var radios: [Radio] = []
    /// In the site's order.
    public private(set) var beacons: [Beacon] = []
    /// Whether the controller is connected to the broker (`nil`: no broker, or not yet).
    public private(set) var brokerConnected: Bool?

    /// The site before any event: its beacons on the radios `placement` puts them on (its
    /// unplaced ones already so).
    public init(site: Site, placement: SitePlacement) {
        apply(site, placement: placement)
    }

    /// An edited site (SIGHUP), or the site placed again (``SiteController/Event/placed(site:placement:)``):
    /// what stays keeps its state, on the radio `placement` now gives it; new radios and beacons
    /// wait.
    public mutating func reload(_ site: Site, placement: SitePlacement) {
        apply(site, placement: placement)
    }

    private mutating func apply(_ site: Site, placement: SitePlacement) {
        let radiosBefore = Dictionary(radios.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        radios = site.radios.map { radio in
            var r = radiosBefore[radio.id] ?? Radio(id: radio.id, capacity: 0)
            r.capacity = placement.capacities[radio.id] ?? radio.capacity ?? 0
            return r
        }
        let beaconsBefore = Dictionary(beacons.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let carrier = placement.radioByBeacon
        let unplaced = Dictionary(placement.unplaced.map { ($0.id, $0.reason) }, uniquingKeysWith: { a, _ in a })
        beacons = site.beacons.map { profile in
            let id = SiteBeaconID.of(profile)
            if var kept = beaconsBefore[id] {
                kept.name = profile.name
                if kept.radio != carrier[id] {
                    // Moved: on no set of its new radio yet (its agent says when it is on air).
                    kept.radio = carrier[id]
                    kept.seat = nil
                }
                if let reason = unplaced[id] {
                    kept.state = .unplaced(reason)
                    kept.seat = nil
                } else if case .unplaced = kept.state {
                    kept.state = .waiting
                }
                return kept
            }
            var b = Beacon(id: id, name: profile.name, radio: carrier[id])
            if let reason = unplaced[id] { b.state = .unplaced(reason) }
            return b
        }
    }

    /// An event of the site's controller, at `time`.
    public mutating func record(_ event: SiteController.Event, at time: Double) {
        switch event {
        case .connected: brokerConnected = true
        case .disconnected: brokerConnected = false
        case .hostOnline(let host): setRadios(of: host, .online, at: time)
        case .hostOffline(let host): setRadios(of: host, .offline, at: time)
        case let .placed(site, placement): reload(site, placement: placement)
        case let .beacon(id, _, onAir, radio, reason, error, seat):
            let state: Beacon.State = onAir ? .onAir : error ? .error(reason ?? "error") : .off(reason ?? "off air")
            update(id, at: time) { b in
                b.radio = radio
                b.state = state
                b.seat = onAir ? seat : nil
            }
        case let .unplaced(id, _, reason):
            update(id, at: time) { b in
                b.radio = nil
                b.state = .unplaced(reason)
                b.seat = nil
            }
        case .adopted, .ready, .resynced, .desired, .rejected, .publishRefused, .ignored: break
        }
    }

    /// An event of a site run on this host (no broker), at `time`.
    public mutating func record(_ event: LocalSiteRun.Event, at time: Double) {
        switch event {
        case let .onAir(radio, _, seats):
            setRadio(radio, .online, at: time)
            for i in beacons.indices where beacons[i].radio == radio {
                set(i, .onAir, at: time)
                beacons[i].seat = seats[beacons[i].id]
            }
        case let .failed(radio, reason):
            setRadio(radio, .failed(reason), at: time)
            for i in beacons.indices where beacons[i].radio == radio {
                set(i, .error(reason), at: time)
                beacons[i].seat = nil
            }
        case let .unplaced(id, _, reason):
            update(id, at: time) { b in
                b.radio = nil
                b.state = .unplaced(reason)
                b.seat = nil
            }
        }
    }

    private mutating func setRadios(of host: String, _ state: Radio.State, at time: Double) {
        for radio in radios where radio.id.host == host { setRadio(radio.id, state, at: time) }
    }

    private mutating func setRadio(_ id: SiteRadio.ID, _ state: Radio.State, at time: Double) {
        guard let i = radios.firstIndex(where: { $0.id == id }), radios[i].state != state else { return }
        radios[i].state = state
        radios[i].since = time
    }

    private mutating func set(_ i: Int, _ state: Beacon.State, at time: Double) {
        guard beacons[i].state != state else { return }
        beacons[i].state = state
        beacons[i].since = time
    }

    /// Changes beacon `id`; its time only when its state changes (a new reason is a new state).
    private mutating func update(_ id: String, at time: Double, _ change: (inout Beacon) -> Void) {
        guard let i = beacons.firstIndex(where: { $0.id == id }) else { return }
        let before = beacons[i].state
        change(&beacons[i])
        if beacons[i].state != before { beacons[i].since = time }
    }

    // MARK: - What the view counts

    /// The beacons `radio` carries, and how many of them are on air.
    public func load(of radio: SiteRadio.ID) -> (carried: Int, onAir: Int) {
        let carried = beacons.filter { $0.radio == radio }
        return (carried.count, carried.filter { $0.state == .onAir }.count)
    }

    /// The coverage goals missed: the beacons no radio can carry, and those off air (or in
    /// error) grouped by why, the most common first.
    public var unmet: (unplaced: Int, offAir: [(reason: String, count: Int)]) {
        var unplaced = 0
        var counts: [String: Int] = [:]
        var order: [String] = []
        for beacon in beacons {
            let reason: String
            switch beacon.state {
            case .onAir, .waiting: continue
            case .unplaced: unplaced += 1; continue
            case .off(let why): reason = why
            case .error(let why): reason = "error: \(why)"
            }
            if counts[reason] == nil { order.append(reason) }
            counts[reason, default: 0] += 1
        }
        let groups = order.map { (reason: $0, count: counts[$0] ?? 0) }
        // A stable sort: equal counts stay in the site's order.
        return (unplaced, groups.enumerated().sorted { ($0.element.count, $1.offset) > ($1.element.count, $0.offset) }.map(\.element))
    }
}
