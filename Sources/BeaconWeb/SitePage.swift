// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconMaps
import BeaconRadio
import BeaconSite
import LiveView
import Synchronization

/// The live page of `beacon site`: the site's map (`MapScene/site(_:placement:title:radioOnline:beaconOnAir:)`:
/// radios, beacons, which radio carries each) coloured by what the run reports (radios online
/// or not, beacons on or off air), and a table of the radios. Fed by the site controller's
/// events (a site with a broker) or a local run's (a site of one host), from any thread.
public final class SitePage: Sendable {
    private enum RadioState: Equatable {
        case waiting, online, offline, failed(String)
    }

    private struct State {
        var radios: [SiteRadio.ID: RadioState] = [:]
        var onAir: [String: Bool] = [:]
        /// Where a beacon went after a failover (the placement's radio otherwise).
        var carrier: [String: SiteRadio.ID] = [:]
        var connection: String?
        var messages: [String] = []
        var version = 0
        var drawn: (version: Int, svg: String)?
    }

    public let title: String
    private let site: Site
    private let placement: SitePlacement
    private let state = Mutex(State())

    public init(site: Site, placement: SitePlacement, title: String) {
        self.site = site
        self.placement = placement
        self.title = title
    }

    /// An event of the site's controller (a site with a broker).
    public func record(_ event: SiteController.Event) {
        update { s in
            switch event {
            case .connected: s.connection = "connected to the broker"
            case .disconnected(let reason): s.connection = "disconnected from the broker: \(reason)"
            case .hostOnline(let host):
                for radio in site.radios(of: host) { s.radios[radio.id] = .online }
            case .hostOffline(let host):
                for radio in site.radios(of: host) { s.radios[radio.id] = .offline }
            case let .beacon(_, name, onAir, radio, reason, _):
                s.onAir[name] = onAir
                if let radio { s.carrier[name] = radio }
                if let reason, !onAir { s.messages.append("\(name) off air: \(reason)") }
            case let .unplaced(_, name, reason): s.messages.append("\(name) not placed: \(reason)")
            case let .rejected(radio, rejection): s.messages.append("\(radio) refused its fleet: \(rejection)")
            case .adopted, .ready, .desired: return
            }
        }
    }

    /// An event of a site run on this host (no broker).
    public func record(_ event: LocalSiteRun.Event) {
        update { s in
            switch event {
            case .onAir(let radio, _):
                s.radios[radio] = .online
                for a in placement.assignments(on: radio) { s.onAir[a.beacon.name] = true }
            case let .failed(radio, reason):
                s.radios[radio] = .failed(reason)
                for a in placement.assignments(on: radio) { s.onAir[a.beacon.name] = false }
                s.messages.append("\(radio) failed: \(reason)")
            case let .unplaced(_, name, reason): s.messages.append("\(name) not placed: \(reason)")
            }
        }
    }

    private func update(_ change: (inout State) -> Void) {
        state.withLock { s in
            change(&s)
            // The page shows the newest ten; a long run keeps no more than it may show.
            if s.messages.count > 50 { s.messages.removeFirst(s.messages.count - 50) }
            s.version += 1
        }
    }

    /// The page now: the map drawn again only when an event changed something.
    public func snapshot() -> LivePageSnapshot {
        let s = state.withLock { $0 }
        let svg: String
        if let drawn = s.drawn, drawn.version == s.version {
            svg = drawn.svg
        } else {
            var current = placement
            for i in current.assignments.indices {
                if let radio = s.carrier[current.assignments[i].beacon.name] { current.assignments[i].radio = radio }
            }
            svg = SVGMap(MapScene.site(site, placement: current, title: title,
                                       radioOnline: { s.radios[$0] == .online }, beaconOnAir: { s.onAir[$0] == true })).render()
            state.withLock { if $0.version == s.version { $0.drawn = (s.version, svg) } }
        }
        var beacons: [LivePageSnapshot.Beacon] = []
        var rows: [LiveRow] = []
        for radio in site.radios {
            let radioState = s.radios[radio.id] ?? .waiting
            let (words, status): (String, LiveStatus) = switch radioState {
            case .waiting: ("waiting", .idle)
            case .online: ("online", .active)
            case .offline: ("offline", .problem)
            case .failed(let reason): ("failed: \(reason)", .problem)
            }
            let carried = placement.assignments(on: radio.id).map(\.beacon.name)
            let onAir = carried.filter { s.onAir[$0] == true }.count
            beacons.append(LivePageSnapshot.Beacon(id: MapScene.radioID(radio.id), state: words, status: status))
            rows.append(LiveRow([radio.id.description, words, "\(onAir) of \(carried.count)"], status: status))
        }
        for a in placement.assignments {
            let on = s.onAir[a.beacon.name] == true
            beacons.append(LivePageSnapshot.Beacon(id: a.beacon.name, state: on ? "on air" : "off air", status: on ? .active : .idle))
        }
        let online = s.radios.values.filter { $0 == .online }.count
        let onAir = s.onAir.values.filter { $0 }.count
        var summary = "\(online) of \(site.radios.count) radios online, \(onAir) of \(placement.assignments.count) beacons on air"
        if let connection = s.connection { summary += "; \(connection)" }
        let screen = LiveScreen(title: title, columns: [LiveColumn("RADIO"), LiveColumn("STATE"), LiveColumn("BEACONS ON AIR", alignment: .right)],
                                rows: rows, messages: s.messages, summary: summary)
        let ids = site.radios.map { MapScene.radioID($0.id) }
        return LivePageSnapshot(screen: screen, beacons: beacons, beaconOfRow: { $0 < ids.count ? ids[$0] : nil }, svg: svg)
    }
}
