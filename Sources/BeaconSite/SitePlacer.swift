// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconRadio
import BeaconAdapters
import BeaconEmulator
import BeaconProfiles
import VirtualController

/// Places a site's beacons on its radios: each on the nearest radio within the maximum distance
/// that has room, where a radio's room is its `capacity:` or what the coverage planner promises
/// for it (sets × turns within the coverage goal, `FleetPlanner.beaconCapacity(of:)`).
public struct SitePlacer: Sendable {
    public var maximumDistance: Double
    /// The planner whose promise sets a radio's capacity when the site gives none.
    public var planner: FleetPlanner
    /// The advertising sets assumed of a radio nobody has probed: the virtual controller's and
    /// `--dry-run`'s 16.
    public static let assumedSets = 16

    public init(maximumDistance: Double, planner: FleetPlanner = FleetPlanner()) {
        self.maximumDistance = maximumDistance
        self.planner = planner
    }

    /// How many beacons `radio` carries: its own `capacity:`, else the planner's promise for an
    /// assumed Bluetooth 5 controller with ``assumedSets`` sets.
    public func capacity(of radio: SiteRadio) -> Int {
        radio.capacity ?? planner.beaconCapacity(of: .assumedExtended(adapter: radio.adapter, sets: Self.assumedSets))
    }

    /// Places `beacons` on `radios` (those available now).
    ///
    /// A beacon in `previous` stays on its radio while that radio is here, within reach and has
    /// room, so a re-placement (a radio lost, a site edited, a controller restarted) moves only the
    /// beacons it must. The others go, those with the fewest radios in reach first (so a beacon
    /// with a choice does not take the only room of one without), to the nearest radio in reach
    /// with room; at equal distance, to the least loaded for its capacity.
    ///
    /// The work grows with the beacons times the radios in reach of each (the radios are kept in
    /// squares of the floor as wide as the maximum distance), not with beacons times every radio;
    /// `stop` is asked every 64 beacons, and when it says so nothing is placed (the caller is
    /// stopping).
    public func place(_ beacons: [BeaconProfile], on radios: [SiteRadio], keeping previous: [String: SiteRadio.ID] = [:],
                      stop: () -> Bool = { false }) -> SitePlacement {
        let capacities = Dictionary(radios.map { ($0.id, capacity(of: $0)) }, uniquingKeysWith: { a, _ in a })
        let radioIndex = Dictionary(radios.indices.map { (radios[$0].id, $0) }, uniquingKeysWith: { a, _ in a })
        let grid = RadioGrid(radios, cell: maximumDistance)
        var load = [Int](repeating: 0, count: radios.count)
        let room = radios.map { capacities[$0.id, default: 0] }
        var chosen: [Int: (radio: Int, distance: Double)] = [:]
        var unplaced: [Int: String] = [:]
        let ids = beacons.map(SiteBeaconID.of)
        // A stop asked for midway leaves the rest unplaced: the caller is going away.
        let stopped = "not placed: the controller stopped"

        // How many radios each beacon has in reach (the reach itself is worked out again where
        // it is needed, so memory stays linear in beacons and radios).
        var reachCount = [Int](repeating: 0, count: beacons.count)
        for (index, beacon) in beacons.enumerated() {
            if index % Self.stopCheckInterval == 0, stop() { return Self.stoppedPlacement(beacons, ids: ids, radios: radios, capacities: capacities, reason: stopped) }
            reachCount[index] = grid.inReach(of: beacon.position, within: maximumDistance).count
            if reachCount[index] == 0 {
                if let nearest = grid.nearest(to: beacon.position) {
                    unplaced[index] = "no radio within \(Self.metres(maximumDistance)) (max_distance); the nearest, \(radios[nearest.radio].id), is \(Self.metres(nearest.distance)) away"
                } else {
                    unplaced[index] = "no radio is available"
                }
            }
        }
        for index in beacons.indices where unplaced[index] == nil {
            guard let kept = previous[ids[index]].flatMap({ radioIndex[$0] }), load[kept] < room[kept],
                  let p = beacons[index].position else { continue }
            let distance = p.distance(to: radios[kept].position)
            guard distance <= maximumDistance else { continue }
            chosen[index] = (kept, distance)
            load[kept] += 1
        }
        let order = beacons.indices.filter { unplaced[$0] == nil && chosen[$0] == nil }.sorted { (reachCount[$0], $0) < (reachCount[$1], $1) }
        for (n, index) in order.enumerated() {
            if n % Self.stopCheckInterval == 0, stop() { return Self.stoppedPlacement(beacons, ids: ids, radios: radios, capacities: capacities, reason: stopped) }
            let reach = grid.inReach(of: beacons[index].position, within: maximumDistance)
            let open = reach.filter { load[$0.radio] < room[$0.radio] }
            guard let nearest = open.first?.distance else {
                let full = reach.map { "\(radios[$0.radio].id) (\(room[$0.radio]) beacons)" }.joined(separator: ", ")
                unplaced[index] = "every radio within \(Self.metres(maximumDistance)) is full: \(full)"
                continue
            }
            func share(_ r: Int) -> Double { Double(load[r]) / Double(max(1, room[r])) }
            let best = open.filter { $0.distance <= nearest + Self.sameDistance }.min { share($0.radio) < share($1.radio) }!
            chosen[index] = best
            load[best.radio] += 1
        }
        var assignments: [SitePlacement.Assignment] = []
        var left: [SitePlacement.Unplaced] = []
        for (index, beacon) in beacons.enumerated() {
            if let (radio, distance) = chosen[index] {
                assignments.append(.init(beacon: beacon, id: ids[index], radio: radios[radio].id, distance: distance))
            } else {
                left.append(.init(beacon: beacon, id: ids[index], reason: unplaced[index] ?? "not placed"))
            }
        }
        return SitePlacement(radios: radios, capacities: capacities, assignments: assignments, unplaced: left)
    }

    /// Every how many beacons a placement asks whether to stop (about a millisecond of work).
    static let stopCheckInterval = 64

    /// Nothing placed: a placement cut short by a stop.
    private static func stoppedPlacement(_ beacons: [BeaconProfile], ids: [String], radios: [SiteRadio], capacities: [SiteRadio.ID: Int],
                                         reason: String) -> SitePlacement {
        SitePlacement(radios: radios, capacities: capacities, assignments: [],
                      unplaced: zip(beacons, ids).map { .init(beacon: $0, id: $1, reason: reason) })
    }

    /// Radios closer together than this (a millimetre) are at the same distance from a beacon.
    static let sameDistance = 0.001

    /// From the radio to the beacon, in metres, as the virtual air measures it (a missing z is 0).
    public static func distance(_ beacon: BeaconProfile, _ radio: SiteRadio) -> Double {
        guard let p = beacon.position else { return .infinity }
        return p.distance(to: radio.position)
    }

    /// `12.5 m`, `3 m`: two decimals at most.
    static func metres(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return (rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)) + " m"
    }
}
