// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconMaps
import BeaconRadio
import BeaconSite
import LiveView
import Synchronization

/// The live page of `beacon site`: the site's map (`MapScene/site(_:placement:title:radioOnline:beaconOnAir:seat:)`:
/// radios, beacons, which radio and advertising set carries each) coloured by what the run
/// reports (radios online or not, beacons on or off air), and a table of the radios, each
/// followed by the beacons it carries (with their sets), then the beacons no radio carries. Fed
/// by the site controller's events (a site with a broker: its re-placements after a host comes
/// or goes and after SIGHUP redraw both) or a local run's (a site of one host), from any thread.
public final class SitePage: Sendable {
    private enum RadioState: Equatable {
        case waiting, online, offline, failed(String)
    }

    private struct State {
        var site: Site
        var placement: SitePlacement
        var radios: [SiteRadio.ID: RadioState] = [:]
        /// By beacon name (the map's and the table's id).
        var onAir: [String: Bool] = [:]
        /// The advertising set carrying each beacon on air, as its agent reported it (`set 2`).
        var seats: [String: String] = [:]
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
        state = Mutex(State(site: site, placement: placement))
    }

    /// An event of the site's controller (a site with a broker).
    public func record(_ event: SiteController.Event) {
        update { s in
            switch event {
            case .connected: s.connection = "connected to the broker"
            case .disconnected(let reason): s.connection = "disconnected from the broker: \(reason)"
            case .hostOnline(let host):
                for radio in s.site.radios(of: host) { s.radios[radio.id] = .online }
            case .hostOffline(let host):
                for radio in s.site.radios(of: host) { s.radios[radio.id] = .offline }
            case let .placed(site, placement):
                // A beacon that moved is on no set of its new radio yet.
                let before = Dictionary(s.placement.assignments.map { ($0.beacon.name, $0.radio) }, uniquingKeysWith: { a, _ in a })
                for a in placement.assignments where before[a.beacon.name] != a.radio { s.seats[a.beacon.name] = nil }
                // And one the site no longer has is forgotten (it may come back, off air first).
                let names = Set(site.beacons.map(\.name))
                s.onAir = s.onAir.filter { names.contains($0.key) }
                s.seats = s.seats.filter { names.contains($0.key) }
                (s.site, s.placement) = (site, placement)
            case let .beacon(_, name, onAir, _, seat, reason):
                s.onAir[name] = onAir
                s.seats[name] = seat?.text
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
            case let .onAir(radio, _, seats):
                s.radios[radio] = .online
                for a in s.placement.assignments(on: radio) {
                    s.onAir[a.beacon.name] = true
                    s.seats[a.beacon.name] = seats[a.id]?.text
                }
            case let .failed(radio, reason):
                s.radios[radio] = .failed(reason)
                for a in s.placement.assignments(on: radio) {
                    s.onAir[a.beacon.name] = false
                    s.seats[a.beacon.name] = nil
                }
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
            svg = SVGMap(MapScene.site(s.site, placement: s.placement, title: title, radioOnline: { s.radios[$0] == .online },
                                       beaconOnAir: { s.onAir[$0] == true }, seat: { s.seats[$0] })).render()
            state.withLock { if $0.version == s.version { $0.drawn = (s.version, svg) } }
        }
        var beacons: [LivePageSnapshot.Beacon] = []
        var rows: [LiveRow] = []
        var rowIDs: [String] = []
        for radio in s.site.radios {
            let radioState = s.radios[radio.id] ?? .waiting
            let (words, status): (String, LiveStatus) = switch radioState {
            case .waiting: ("waiting", .idle)
            case .online: ("online", .active)
            case .offline: ("offline", .problem)
            case .failed(let reason): ("failed: \(reason)", .problem)
            }
            let carried = s.placement.assignments(on: radio.id)
            let onAir = carried.filter { s.onAir[$0.beacon.name] == true }.count
            beacons.append(LivePageSnapshot.Beacon(id: MapScene.radioID(radio.id), state: words, status: status))
            rows.append(LiveRow([radio.id.description, "\(onAir) of \(carried.count) on air", "", words], status: status))
            rowIDs.append(MapScene.radioID(radio.id))
            for a in carried {
                let name = a.beacon.name
                let on = s.onAir[name] == true
                let state = on ? "on air" : "off air"
                beacons.append(LivePageSnapshot.Beacon(id: name, state: state, status: on ? .active : .idle))
                rows.append(LiveRow([radio.id.description, name, s.seats[name] ?? "", state], status: on ? .active : .idle))
                rowIDs.append(name)
            }
        }
        for u in s.placement.unplaced {
            beacons.append(LivePageSnapshot.Beacon(id: u.beacon.name, state: "not placed", status: .problem))
            rows.append(LiveRow(["-", u.beacon.name, "", "not placed"], status: .problem))
            rowIDs.append(u.beacon.name)
        }
        let online = s.site.radios.filter { s.radios[$0.id] == .online }.count
        let onAir = s.placement.assignments.filter { s.onAir[$0.beacon.name] == true }.count
        var summary = "\(online) of \(s.site.radios.count) radios online, \(onAir) of \(s.placement.assignments.count) beacons on air"
        if let connection = s.connection { summary += "; \(connection)" }
        let screen = LiveScreen(title: title, columns: [LiveColumn("RADIO"), LiveColumn("BEACON"), LiveColumn("SET"), LiveColumn("STATE")],
                                rows: rows, messages: s.messages, summary: summary)
        return LivePageSnapshot(screen: screen, beacons: beacons, beaconOfRow: { $0 < rowIDs.count ? rowIDs[$0] : nil }, svg: svg)
    }
}
