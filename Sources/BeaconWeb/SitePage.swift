// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconMaps
import BeaconRadio
import BeaconSite
import LiveView
import Synchronization

/// The live page of `beacon site`: the site's map (`MapScene/site(_:placement:title:radioOnline:beaconOnAir:seat:)`:
/// radios, beacons, which radio and advertising set carries each) coloured by what the run
/// reports (radios online or not, beacons on or off air: `SiteStatus`, as the terminal's view
/// follows it), and a table of the radios, each followed by the beacons it carries (with their
/// sets), then the beacons no radio carries. Fed by the site controller's events (a site with a
/// broker: its re-placements, after a host comes or goes and after SIGHUP, redraw both) or a
/// local run's (a site of one host), from any thread.
public final class SitePage: Sendable {
    private struct State {
        var status: SiteStatus
        /// The site and its placement as the controller last reported them.
        var site: Site
        var placement: SitePlacement
        var connection: String?
        var messages: [String] = []
        var version = 0
        var drawn: (version: Int, svg: String)?
    }

    public let title: String
    private let state: Mutex<State>

    /// `site` and `placement`: what the page shows until the controller reports a placement.
    public init(site: Site, placement: SitePlacement, title: String) {
        self.title = title
        state = Mutex(State(status: SiteStatus(site: site, placement: placement), site: site, placement: placement))
    }

    /// An event of the site's controller (a site with a broker).
    public func record(_ event: SiteController.Event) {
        update { s in
            // The page shows no times: every event is at 0.
            s.status.record(event, at: 0)
            switch event {
            case .connected: s.connection = "connected to the broker"
            case .disconnected(let reason): s.connection = "disconnected from the broker: \(reason)"
            case let .placed(site, placement): (s.site, s.placement) = (site, placement)
            case let .beacon(_, name, onAir, _, reason, _, _):
                if let reason, !onAir { s.messages.append("\(name) off air: \(reason)") }
            case let .unplaced(_, name, reason): s.messages.append("\(name) not placed: \(reason)")
            case let .rejected(radio, rejection): s.messages.append("\(radio) refused its fleet: \(rejection)")
            case .publishRefused, .ignored: s.messages.append(event.text)
            case .adopted, .ready, .resynced, .desired, .hostOnline, .hostOffline: break
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

    /// A beacon's state as the page's table, its `data-state` and its colour class say it.
    private static func words(_ state: SiteStatus.Beacon.State) -> (String, LiveStatus) {
        switch state {
        case .onAir: ("on air", .active)
        case .waiting, .off: ("off air", .idle)
        case .error: ("error", .problem)
        case .unplaced: ("not placed", .problem)
        }
    }

    /// The page now: the map drawn again only when an event changed something.
    public func snapshot() -> LivePageSnapshot {
        let s = state.withLock { $0 }
        let radioState = Dictionary(s.status.radios.map { ($0.id, $0.state) }, uniquingKeysWith: { a, _ in a })
        let beaconsByName = Dictionary(s.status.beacons.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        // Where each beacon is now: the placement's radio, or the one its events name since.
        var current = s.placement
        for i in current.assignments.indices {
            if let radio = beaconsByName[current.assignments[i].beacon.name]?.radio { current.assignments[i].radio = radio }
        }
        let svg: String
        if let drawn = s.drawn, drawn.version == s.version {
            svg = drawn.svg
        } else {
            svg = SVGMap(forLivePage: MapScene.site(s.site, placement: current, title: title, radioOnline: { radioState[$0] == .online },
                                                    beaconOnAir: { beaconsByName[$0]?.state == .onAir },
                                                    seat: { beaconsByName[$0]?.seat?.text })).render()
            state.withLock { if $0.version == s.version { $0.drawn = (s.version, svg) } }
        }
        var beacons: [LivePageSnapshot.Beacon] = []
        var rows: [LiveRow] = []
        var rowIDs: [String] = []
        let byRadio = current.assignmentsByRadio()
        for radio in s.site.radios {
            let (words, status): (String, LiveStatus) = switch radioState[radio.id] ?? .waiting {
            case .waiting: ("waiting", .idle)
            case .online: ("online", .active)
            case .offline: ("offline", .problem)
            case .failed(let reason): ("failed: \(reason)", .problem)
            }
            let load = s.status.load(of: radio.id)
            beacons.append(LivePageSnapshot.Beacon(id: MapScene.radioID(radio.id), state: words, status: status))
            rows.append(LiveRow([radio.id.description, "\(load.onAir) of \(load.carried) on air", "", words], status: status))
            rowIDs.append(MapScene.radioID(radio.id))
            for a in byRadio[radio.id] ?? [] {
                let beacon = beaconsByName[a.beacon.name]
                let (state, status) = Self.words(beacon?.state ?? .waiting)
                beacons.append(LivePageSnapshot.Beacon(id: a.beacon.name, state: state, status: status))
                rows.append(LiveRow([radio.id.description, a.beacon.name, beacon?.seat?.text ?? "", state], status: status))
                rowIDs.append(a.beacon.name)
            }
        }
        for u in current.unplaced {
            beacons.append(LivePageSnapshot.Beacon(id: u.beacon.name, state: "not placed", status: .problem))
            rows.append(LiveRow(["-", u.beacon.name, "", "not placed"], status: .problem))
            rowIDs.append(u.beacon.name)
        }
        let online = s.status.radios.filter { $0.state == .online }.count
        let onAir = s.status.beacons.filter { $0.state == .onAir }.count
        var summary = "\(online) of \(s.site.radios.count) radios online, \(onAir) of \(current.assignments.count) beacons on air"
        if let connection = s.connection { summary += "; \(connection)" }
        let screen = LiveScreen(title: title, columns: [LiveColumn("RADIO"), LiveColumn("BEACON"), LiveColumn("SET"), LiveColumn("STATE")],
                                rows: rows, messages: s.messages, summary: summary)
        return LivePageSnapshot(screen: screen, beacons: beacons, beaconOfRow: { $0 < rowIDs.count ? rowIDs[$0] : nil }, svg: svg)
    }
}
