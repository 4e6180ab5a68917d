// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconProfiles

/// Which radio carries each beacon of a site, and which beacons no radio can carry, with why.
public struct SitePlacement: Sendable {
    /// A beacon and the radio that carries it.
    public struct Assignment: Sendable, Hashable {
        public var beacon: BeaconProfile
        /// The beacon's identity on the site (``SiteBeaconID``).
        public var id: String
        public var radio: SiteRadio.ID
        /// From the radio's position to the beacon's, in metres.
        public var distance: Double
    }

    /// A beacon no radio can carry.
    public struct Unplaced: Sendable, Hashable {
        public var beacon: BeaconProfile
        public var id: String
        /// Why: no radio within reach, or every radio within reach full (named).
        public var reason: String
    }

    /// The radios placed on (those available), in site order.
    public var radios: [SiteRadio]
    /// How many beacons each radio may carry.
    public var capacities: [SiteRadio.ID: Int]
    /// In the order the beacons were given.
    public var assignments: [Assignment]
    public var unplaced: [Unplaced]

    /// The beacons `radio` carries, in the order the beacons were given. A look at every
    /// assignment: for every radio, ``assignmentsByRadio()`` once.
    public func assignments(on radio: SiteRadio.ID) -> [Assignment] { assignments.filter { $0.radio == radio } }

    /// Each radio's beacons, in the order the beacons were given (a radio that carries none is
    /// absent): one pass over the assignments.
    public func assignmentsByRadio() -> [SiteRadio.ID: [Assignment]] { Dictionary(grouping: assignments, by: \.radio) }

    /// Beacon identity → the radio that carries it.
    public var radioByBeacon: [String: SiteRadio.ID] {
        Dictionary(assignments.map { ($0.id, $0.radio) }, uniquingKeysWith: { first, _ in first })
    }
}
