// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconEmulator
import BeaconMaps
import BeaconProfiles

/// `advertise --plan --map`: the fleet's floor plan with each positioned beacon labelled by the
/// adapter and advertising set (or legacy advertiser, and turn when rotating) that carries it;
/// `offAir` (a scenario's beacons out of the plan) drawn too, in the off-air style.
enum PlanMap {
    static func scene(_ plan: FleetPlan, files: [String], offAir: [BeaconProfile] = []) -> MapScene {
        // The rooms come from the files themselves (already read and checked once: a file that
        // no longer reads, or standard input, adds no walls).
        let areas = files.filter { $0 != "-" }.flatMap { (try? ProfileLoader.load(contentsOf: $0))?.areas ?? [] }
        let placements = Dictionary(plan.placements.map { ($0.beacon.name, $0) }, uniquingKeysWith: { first, _ in first })
        let adapters = Set(plan.placements.map(\.adapter))
        let fleet = BeaconFleet(file: files.joined(separator: " "), beacons: plan.placements.map(\.beacon) + offAir.filter { placements[$0.name] == nil }, areas: areas)
        var scene = MapScene.plan(of: fleet, title: "beacon advertise \(files.joined(separator: " ")) --plan", label: { beacon in
            guard let p = placements[beacon.name] else { return beacon.name }
            return "\(beacon.name) · " + (adapters.count > 1 ? "\(p.adapter) " : "") + p.seat.text
        }, style: { placements[$0.name] == nil ? .offAir : .onAir })
        // The plan's own summary under the legend.
        scene.notes = PlanReport.summary(plan).prefix(4).map { $0 }
        let unplaced = plan.placements.filter { $0.beacon.position == nil }.count
        if unplaced > 0 { scene.notes.append("\(unplaced) beacon(s) without a position are not drawn") }
        return scene
    }
}
