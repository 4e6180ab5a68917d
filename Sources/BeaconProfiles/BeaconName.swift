// SPDX-License-Identifier: GPL-2.0-or-later

/// Which beacon something happened to: its profile entry's name (``BeaconProfile/name``), unique
/// within a fleet.
///
/// Events, teardowns and outcomes name their beacons with this type (see
/// ``BeaconProfile/beaconName``). Its ``description`` is the name itself.
public struct BeaconName: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The name, as the profile gives it.
    public let text: String

    /// The beacon named `text`.
    public init(_ text: String) { self.text = text }

    public init(stringLiteral value: String) { self.init(value) }

    public var description: String { text }

    public static func < (lhs: BeaconName, rhs: BeaconName) -> Bool { lhs.text < rhs.text }
}

extension BeaconProfile {
    /// The beacon's identity in events and outcomes: its ``name``.
    public var beaconName: BeaconName { BeaconName(name) }
}
