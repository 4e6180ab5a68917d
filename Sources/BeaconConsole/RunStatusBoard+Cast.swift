// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import BeaconCodec
import BeaconProfiles
import BeaconScenarios

/// `play`: a scenario's beacons stay in the view while they are off air. The fleet's plan has
/// only the beacons on air, so without a cast a beacon a step hides would lose its row (as one
/// a reload of `advertise` removes for good still does); the scenario declares its whole fleet
/// (``ScenarioOffAir``), and a beacon of it out of the plan keeps a row `off air since 12 s`
/// until it comes back on air.
extension RunStatusBoard {
    /// From now on every beacon of `offAir`'s cast has a row: the plan's, or an off-air one
    /// (the adapter it was last on, its turns and last error; `-` for a beacon not yet on air).
    /// Rows follow the fleet's order. Feed the play's events to ``follow(_:)``.
    public func keep(_ offAir: ScenarioOffAir) {
        state.withLock { s in
            s.cast = offAir
            Self.placeCast(&s)
        }
        changed()
    }

    /// Takes one of the scenario player's events: the off-air rows' times follow its hides,
    /// shows and passes (the plan follows when the fleet has applied the step).
    public func follow(_ event: ScenarioPlayer.Event) {
        let changes = state.withLock { s in
            guard var cast = s.cast else { return false }
            let before = cast.since
            cast.record(event)
            s.cast = cast
            guard cast.since != before else { return false }
            Self.placeCast(&s)
            return true
        }
        if changes { changed() }
    }

    /// The cast's beacons whose rows are off air (out of the plan), in fleet order: a map draws
    /// them in the off-air style.
    public var offAirBeacons: [BeaconProfile] {
        state.withLock { s in
            guard let cast = s.cast?.cast else { return [] }
            let off = Set(s.rows.filter(\.isOffAir).map(\.beacon))
            return cast.filter { off.contains($0.beaconName) }
        }
    }

    /// The ADAPTER of an off-air row whose beacon has not been on air in this run.
    static let noAdapter: AdapterName = "-"

    /// The adapters the rows name (not ``noAdapter``).
    static func adapters(_ rows: [Row]) -> Set<AdapterName> { Set(rows.map(\.adapter)).subtracting([noAdapter]) }

    /// Puts the off-air rows right: one per beacon of the cast the other rows do not have,
    /// labelled with the time it went off air, every row in the fleet's order (rows of beacons
    /// outside the cast last). Without a cast, no off-air rows.
    static func placeCast(_ s: inout State) {
        var offAir: [BeaconName: Row] = [:]
        for r in s.rows where r.isOffAir && offAir[r.beacon] == nil { offAir[r.beacon] = r }
        s.rows.removeAll(where: \.isOffAir)
        guard let cast = s.cast else { return }
        let placed = Set(s.rows.map(\.beacon))
        for beacon in cast.cast where !placed.contains(beacon.beaconName) {
            var row = offAir[beacon.beaconName]
                ?? Row(beacon: beacon.beaconName, adapter: Self.noAdapter, advertiser: "-", address: beacon.address, nonConforming: beacon.rawData != nil)
            row.isOffAir = true
            row.advertiser = "-"
            row.state = cast.stateText(of: beacon.name)
            s.rows.append(row)
        }
        let order = Dictionary(cast.cast.enumerated().map { ($0.element.beaconName, $0.offset) }, uniquingKeysWith: { first, _ in first })
        s.rows = s.rows.enumerated().sorted { a, b in
            let (x, y) = (order[a.element.beacon] ?? .max, order[b.element.beacon] ?? .max)
            return x != y ? x < y : a.offset < b.offset
        }.map(\.element)
    }
}
