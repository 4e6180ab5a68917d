// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconMaps
import BeaconProfiles
import BeaconScenarios

/// `walk --map`: the route, the walker where the walk ended, and the estimates a receiver with
/// the walk's distance model makes along it (four a second, at most 500), each with its error.
enum WalkMap {
    static func scene(fleet: BeaconFleet, walk: WalkModel, walked: Double, title: String) -> MapScene {
        var scene = MapScene.plan(of: fleet, title: title)
        let lap = walk.route.lapDuration
        // The route as walked: one lap, or as much of it as the walk covered.
        let shown = walk.route.loops ? min(walked, lap) : walked
        let points = min(500, Int((shown * 4).rounded(.down)) + 1)
        let route = walk.route.path.waypoints + (walk.route.loops ? [walk.route.path.waypoints[0]] : [])
        scene.addWalk(route: route, walker: walk.route.position(at: walked), estimates: walk.estimates(over: shown, count: points))
        return scene
    }
}
