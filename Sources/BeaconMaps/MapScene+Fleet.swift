// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconPositioning
import BeaconProfiles

extension MapScene {
    /// A point of the plan from a file's position (z dropped: the maps are 2-D).
    static func point(_ position: Position) -> PlanePoint { PlanePoint(x: position.x, y: position.y) }

    /// The floor plan of `fleet`: its rooms' walls and names, and a marker per positioned
    /// beacon in `style(beacon)` labelled `label(beacon)` (the name by default), with the
    /// beacon's name as its timeline id.
    public static func plan(of fleet: BeaconFleet, title: String, label: (BeaconProfile) -> String = { $0.name },
                            style: (BeaconProfile) -> MapStyle = { _ in .onAir }) -> MapScene {
        var scene = MapScene(title: title)
        for area in fleet.areas {
            scene.walls += area.walls
            // The name at the room's top-left corner, inside it.
            if let corner = area.corners.min(by: { ($0.x - $0.y) < ($1.x - $1.y) }) {
                scene.roomNames.append(MapText(position: point(corner), text: area.name))
            }
        }
        for beacon in fleet.beacons {
            guard let position = beacon.position else { continue }
            scene.markers.append(MapMarker(position: point(position), style: style(beacon), label: label(beacon), id: beacon.name))
        }
        return scene
    }
}
