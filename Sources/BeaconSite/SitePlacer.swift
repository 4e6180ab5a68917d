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
    public func place(_ beacons: [BeaconProfile], on radios: [SiteRadio], keeping previous: [String: SiteRadio.ID] = [:]) -> SitePlacement {
        let capacities = Dictionary(radios.map { ($0.id, capacity(of: $0)) }, uniquingKeysWith: { a, _ in a })
        var load: [SiteRadio.ID: Int] = [:]
        var chosen: [Int: (SiteRadio.ID, Double)] = [:]
        var unplaced: [Int: String] = [:]
        let ids = beacons.map(SiteBeaconID.of)

        // Every beacon's radios in reach, nearest first.
        var reach: [[(radio: SiteRadio, distance: Double)]] = []
        for (index, beacon) in beacons.enumerated() {
            let all = radios.map { ($0, Self.distance(beacon, $0)) }.sorted { $0.1 < $1.1 }
            let within = all.filter { $0.1 <= maximumDistance }
            reach.append(within)
            if within.isEmpty {
                if let nearest = all.first {
                    unplaced[index] = "no radio within \(Self.metres(maximumDistance)) (max_distance); the nearest, \(nearest.0.id), is \(Self.metres(nearest.1)) away"
                } else {
                    unplaced[index] = "no radio is available"
                }
            }
        }
        func hasRoom(_ id: SiteRadio.ID) -> Bool { load[id, default: 0] < capacities[id, default: 0] }
        for index in beacons.indices where unplaced[index] == nil {
            guard let kept = previous[ids[index]], let place = reach[index].first(where: { $0.radio.id == kept }), hasRoom(kept) else { continue }
            chosen[index] = (kept, place.distance)
            load[kept, default: 0] += 1
        }
        let order = beacons.indices.filter { unplaced[$0] == nil && chosen[$0] == nil }.sorted { (reach[$0].count, $0) < (reach[$1].count, $1) }
        for index in order {
            let open = reach[index].filter { hasRoom($0.radio.id) }
            guard let nearest = open.first?.distance else {
                let full = reach[index].map { "\($0.radio.id) (\(capacities[$0.radio.id, default: 0]) beacons)" }.joined(separator: ", ")
                unplaced[index] = "every radio within \(Self.metres(maximumDistance)) is full: \(full)"
                continue
            }
            func share(_ id: SiteRadio.ID) -> Double { Double(load[id, default: 0]) / Double(max(1, capacities[id, default: 1])) }
            let best = open.filter { $0.distance <= nearest + Self.sameDistance }.min { share($0.radio.id) < share($1.radio.id) }!
            chosen[index] = (best.radio.id, best.distance)
            load[best.radio.id, default: 0] += 1
        }
        var assignments: [SitePlacement.Assignment] = []
        var left: [SitePlacement.Unplaced] = []
        for (index, beacon) in beacons.enumerated() {
            if let (radio, distance) = chosen[index] {
                assignments.append(.init(beacon: beacon, id: ids[index], radio: radio, distance: distance))
            } else {
                left.append(.init(beacon: beacon, id: ids[index], reason: unplaced[index] ?? "not placed"))
            }
        }
        return SitePlacement(radios: radios, capacities: capacities, assignments: assignments, unplaced: left)
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
