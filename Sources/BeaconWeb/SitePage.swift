// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconMaps
import BeaconRadio
import BeaconSite
import LiveView
import Synchronization

/// The live page of `beacon site`: the site's map (`MapScene/site(_:placement:title:radioOnline:beaconOnAir:)`:
/// radios, beacons, which radio carries each) coloured by what the run reports (radios online
/// or not, beacons on or off air: ``SiteStatus``, as the terminal's view follows it), and a
/// table of the radios. Fed by the site controller's events (a site with a broker) or a local
/// run's (a site of one host), from any thread.
public final class SitePage: Sendable {
    private struct State {
        var status: SiteStatus
        var connection: String?
        var messages: [String] = []
        var version = 0
        var drawn: (version: Int, svg: String)?
    }

    public let title: String
    private let site: Site
    private let placement: SitePlacement
    private let state: Mutex<State>

    public init(site: Site, placement: SitePlacement, title: String) {
        self.site = site
        self.placement = placement
        self.title = title
        state = Mutex(State(status: SiteStatus(site: site, placement: placement)))
    }

    /// An event of the site's controller (a site with a broker).
    public func record(_ event: SiteController.Event) {
        update { s in
            // The page shows no times: every event is at 0.
            s.status.record(event, at: 0)
            switch event {
            case .connected: s.connection = "connected to the broker"
            case .disconnected(let reason): s.connection = "disconnected from the broker: \(reason)"
            case let .beacon(_, name, onAir, _, reason, _):
                if let reason, !onAir { s.messages.append("\(name) off air: \(reason)") }
            case let .unplaced(_, name, reason): s.messages.append("\(name) not placed: \(reason)")
            case let .rejected(radio, rejection): s.messages.append("\(radio) refused its fleet: \(rejection)")
            case .adopted, .ready, .desired, .hostOnline, .hostOffline: break
            }
        }
    }

    /// An event of a site run on this host (no broker).
    public func record(_ event: LocalSiteRun.Event) {
        update { s in
            s.status.record(event, at: 0)
            switch event {
            case .onAir: break
            case let .failed(radio, reason): s.messages.append("\(radio) failed: \(reason)")
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
        let radioState = Dictionary(s.status.radios.map { ($0.id, $0.state) }, uniquingKeysWith: { a, _ in a })
        let beaconsByName = Dictionary(s.status.beacons.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        func isOnAir(_ name: String) -> Bool { beaconsByName[name]?.state == .onAir }
        let svg: String
        if let drawn = s.drawn, drawn.version == s.version {
            svg = drawn.svg
        } else {
            // Where each beacon is now (after a failover, not the placement's radio).
            var current = placement
            for i in current.assignments.indices {
                if let radio = beaconsByName[current.assignments[i].beacon.name]?.radio { current.assignments[i].radio = radio }
            }
            svg = SVGMap(MapScene.site(site, placement: current, title: title,
                                       radioOnline: { radioState[$0] == .online }, beaconOnAir: isOnAir)).render()
            state.withLock { if $0.version == s.version { $0.drawn = (s.version, svg) } }
        }
        var beacons: [LivePageSnapshot.Beacon] = []
        var rows: [LiveRow] = []
        for radio in site.radios {
            let (words, status): (String, LiveStatus) = switch radioState[radio.id] ?? .waiting {
            case .waiting: ("waiting", .idle)
            case .online: ("online", .active)
            case .offline: ("offline", .problem)
            case .failed(let reason): ("failed: \(reason)", .problem)
            }
            let load = s.status.load(of: radio.id)
            beacons.append(LivePageSnapshot.Beacon(id: MapScene.radioID(radio.id), state: words, status: status))
            rows.append(LiveRow([radio.id.description, words, "\(load.onAir) of \(load.carried)"], status: status))
        }
        for a in placement.assignments {
            let on = isOnAir(a.beacon.name)
            beacons.append(LivePageSnapshot.Beacon(id: a.beacon.name, state: on ? "on air" : "off air", status: on ? .active : .idle))
        }
        let online = s.status.radios.filter { $0.state == .online }.count
        let onAir = s.status.beacons.filter { $0.state == .onAir }.count
        var summary = "\(online) of \(site.radios.count) radios online, \(onAir) of \(placement.assignments.count) beacons on air"
        if let connection = s.connection { summary += "; \(connection)" }
        let screen = LiveScreen(title: title, columns: [LiveColumn("RADIO"), LiveColumn("STATE"), LiveColumn("BEACONS ON AIR", alignment: .right)],
                                rows: rows, messages: s.messages, summary: summary)
        let ids = site.radios.map { MapScene.radioID($0.id) }
        return LivePageSnapshot(screen: screen, beacons: beacons, beaconOfRow: { $0 < ids.count ? ids[$0] : nil }, svg: svg)
    }
}
