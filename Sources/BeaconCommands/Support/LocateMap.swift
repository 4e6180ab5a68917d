// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconRadio
import BeaconMaps
import BeaconPositioning
import BeaconProfiles

/// `locate --map`: the fleet's plan with what the run found (BeaconMaps draws it).
enum LocateMap {
    static func scene(fleet: BeaconFleet, anchors: [BeaconAnchor], fixes: [PositionFix], truth: ((Double) -> Point)?, title: String) -> MapScene {
        var scene = MapScene.plan(of: fleet, title: title)
        scene.addFixes(fixes, anchors: anchors, truth: truth)
        return scene
    }
}
