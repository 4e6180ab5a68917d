// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconRadio

/// The beacons one profile file declares, in file order (range entries expanded in place).
public struct BeaconFleet: Sendable {
    /// The file as it was named to the loader (or the `file:` label given to ``ProfileLoader/parse(_:file:)``).
    public var file: String
    /// The fleet's `name:`; `nil` for a single-beacon file or a fleet without one.
    public var name: String?
    public var beacons: [BeaconProfile]
    /// The fleet's `air:`: the channel a `-i virtual` receiver locating in it hears through
    /// (`nil`: not given; `--air` overrides it).
    public var air: AirChannel?
    /// The file's `areas:`: the rooms of its floor plan, in file order (empty: none declared).
    public var areas: [Area]
    /// The fleet's `receiver_height:`: how high above the positions' z = 0 the receiver is held,
    /// metres (default 0). Locating puts its fixes on that plane and the simulations walk it;
    /// the beacons' own `position.z` are their mounting heights.
    public var receiverHeight: Double

    public init(file: String, name: String? = nil, beacons: [BeaconProfile], air: AirChannel? = nil, areas: [Area] = [],
                receiverHeight: Double = 0) {
        self.receiverHeight = receiverHeight
        self.file = file
        self.name = name
        self.beacons = beacons
        self.air = air
        self.areas = areas
    }
}
