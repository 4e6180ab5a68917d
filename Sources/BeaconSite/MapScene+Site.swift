// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconProfiles
import BeaconRadio
import BeaconMaps

extension MapScene {
    /// A site's plan: each radio (a square labelled `host/adapter` with how many beacons it
    /// carries of how many it may, or `unavailable` when the placement left it out), each placed
    /// beacon labelled with the radio that carries it (and the advertising set once known:
    /// `seat(name)`, as `AdvertiserSeat.text` words it, `set 2`) and a dotted line to that radio,
    /// and the beacons no radio can carry drawn in error.
    /// `radioOnline` and `beaconOnAir` give the live state (`site --web`); nil draws a plan (every
    /// radio as available, every placed beacon on air), whose note says the sets are the agents'
    /// choice. A radio's marker id is ``radioID(_:)``, a beacon's its name.
    public static func site(_ site: Site, placement: SitePlacement, title: String,
                            radioOnline: ((SiteRadio.ID) -> Bool)? = nil, beaconOnAir: ((String) -> Bool)? = nil,
                            seat: (String) -> String? = { _ in nil }) -> MapScene {
        var scene = MapScene(title: title)
        let radios = Dictionary(site.radios.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let byRadio = placement.assignmentsByRadio()
        for radio in site.radios {
            let carried = byRadio[radio.id]?.count ?? 0
            let online = radioOnline?(radio.id) ?? true
            let load = placement.capacities[radio.id].map { "\(carried)/\($0)" } ?? "unavailable"
            scene.markers.append(MapMarker(position: radio.position.onPlane, style: online ? .radio : .radioOffline,
                                           label: "\(radio.id) (\(load))", id: radioID(radio.id)))
        }
        for assignment in placement.assignments {
            guard let position = assignment.beacon.position?.onPlane else { continue }
            if let radio = radios[assignment.radio] {
                scene.polylines.append(MapPolyline(points: [position, radio.position.onPlane], style: .carrier))
            }
            let name = assignment.beacon.name
            let onAir = beaconOnAir?(name) ?? true
            let set = seat(name).map { " \($0)" } ?? ""
            scene.markers.append(MapMarker(position: position, style: onAir ? .onAir : .offAir,
                                           label: "\(name) · \(assignment.radio)\(set)", id: name))
        }
        for unplaced in placement.unplaced {
            guard let position = unplaced.beacon.position?.onPlane else { continue }
            scene.markers.append(MapMarker(position: position, style: .failed, label: "\(unplaced.beacon.name) · not placed", id: unplaced.beacon.name))
        }
        scene.notes.append("site \(site.name): \(site.radios.count) radios, \(placement.assignments.count) beacons placed, \(placement.unplaced.count) not placed")
        if beaconOnAir == nil, !placement.assignments.isEmpty {
            scene.notes.append("set chosen by the agent: each radio's agent picks the sets (the live page shows them)")
        }
        for unplaced in placement.unplaced.prefix(3) { scene.notes.append("\(unplaced.beacon.name) not placed: \(unplaced.reason)") }
        if placement.unplaced.count > 3 { scene.notes.append("… and \(placement.unplaced.count - 3) more not placed (the site's plan lists them)") }
        return scene
    }

    /// A radio's marker id on a site's map (`m-radio-HOST-ADAPTER`; the live page's state too).
    public static func radioID(_ radio: SiteRadio.ID) -> String { "radio-\(radio.host)-\(radio.adapter)" }
}
