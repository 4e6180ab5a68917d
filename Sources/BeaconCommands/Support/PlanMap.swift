// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconEmulator
import BeaconMaps
import BeaconProfiles

/// `advertise --plan --map`: the fleet's floor plan with each positioned beacon labelled by the
/// adapter and advertising set (or legacy advertiser, and turn when rotating) that carries it.
enum PlanMap {
    static func scene(_ plan: FleetPlan, files: [String]) -> MapScene {
        // The rooms come from the files themselves (already read and checked once: a file that
        // no longer reads, or standard input, adds no walls).
        let areas = files.filter { $0 != "-" }.flatMap { (try? ProfileLoader.load(contentsOf: $0))?.areas ?? [] }
        let placements = Dictionary(plan.placements.map { ($0.beacon.name, $0) }, uniquingKeysWith: { first, _ in first })
        let adapters = Set(plan.placements.map(\.adapter))
        let fleet = BeaconFleet(file: files.joined(separator: " "), beacons: plan.placements.map(\.beacon), areas: areas)
        var scene = MapScene.plan(of: fleet, title: "beacon advertise \(files.joined(separator: " ")) --plan") { beacon in
            guard let p = placements[beacon.name] else { return beacon.name }
            return "\(beacon.name) · " + (adapters.count > 1 ? "\(p.adapter) " : "") + p.seat.text
        }
        // The plan's own summary under the legend.
        scene.notes = PlanReport.summary(plan).prefix(4).map { $0 }
        let unplaced = plan.placements.filter { $0.beacon.position == nil }.count
        if unplaced > 0 { scene.notes.append("\(unplaced) beacon(s) without a position are not drawn") }
        return scene
    }
}
