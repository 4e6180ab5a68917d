// SPDX-License-Identifier: GPL-2.0-or-later

/// An advertising interval as HCI carries it: a count of 0.625 ms units (Core Vol 4 Part E
/// §7.8.5 and §7.8.53: Time = N × 0.625 ms).
///
/// People and profile files speak milliseconds; the controller speaks units. This type is the one
/// place that converts between them, so the interval a profile asks for and the interval that goes
/// on air can be told apart and never drift: ``init(milliseconds:)`` rounds to the nearest unit
/// (halves away from zero: 30.3 ms → 48 units → 30 ms on air), and ``milliseconds`` is exact.
/// (Bumble's `AdvertisingSet` keeps milliseconds in its API too and truncates; rounding instead
/// keeps 100.3 ms at 160 units, the 100 ms the user meant.)
@frozen
public struct AdvertisingInterval: RawRepresentable, Hashable, Comparable, Sendable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    /// Units of 0.625 ms. Legacy commands carry 2 octets, extended ones 3; the ranges below say
    /// which values each allows.
    public var rawValue: UInt32

    @inlinable public init(rawValue: UInt32) { self.rawValue = rawValue }
    @inlinable public init(units: UInt32) { self.rawValue = units }
    @inlinable public init(integerLiteral units: UInt32) { self.rawValue = units }

    /// One unit: 0.625 ms.
    public static let millisecondsPerUnit = 0.625

    /// The nearest whole number of units to `milliseconds` (halves away from zero); negative
    /// values and NaN give 0, values past the 3-octet field give its maximum, so that range
    /// checks see them as out of range instead of trapping.
    @inlinable
    public init(milliseconds: Double) {
        let units = (milliseconds / Self.millisecondsPerUnit).rounded(.toNearestOrAwayFromZero)
        guard !units.isNaN, units > 0 else { self.rawValue = 0; return }
        self.rawValue = units >= Double(UInt32.max) ? UInt32.max : UInt32(units)
    }

    /// The longest interval not longer than `duration`: whole units, rounded down (a cap, such as
    /// one advertising event per rotation turn, must not be exceeded); 0 for a duration of 0 or less.
    public init(atMost duration: Duration) {
        let units = (duration / Self.unit).rounded(.down)
        guard units > 0 else { self.rawValue = 0; return }
        self.rawValue = units >= Double(UInt32.max) ? UInt32.max : UInt32(units)
    }

    /// One unit as a duration: 625 µs.
    static let unit = Duration.microseconds(625)

    /// The longest advDelay the link layer adds to every advertising event: T_advEvent =
    /// advInterval + advDelay, advDelay pseudo-random in 0…10 ms (Core Vol 6 Part B §4.4.2.2.1),
    /// so that two advertisers at one interval do not collide for good. A schedule that promises
    /// a silence budgets it for every event.
    public static let maximumAdvertisingDelay = Duration.milliseconds(10)

    /// The interval on air, in milliseconds (exact: units × 0.625).
    @inlinable public var milliseconds: Double { Double(rawValue) * Self.millisecondsPerUnit }

    /// The interval on air as a duration (exact: units × 625 µs).
    @inlinable public var duration: Duration { .microseconds(Int64(rawValue) * 625) }

    @inlinable public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    /// `0x00A0 (100 ms)`: the units in hex as the spec writes them (4 digits for the legacy
    /// field, 6 past it), then the exact milliseconds without trailing zeros.
    public var description: String {
        let hex = String(rawValue, radix: 16, uppercase: true)
        let padded = String(repeating: "0", count: max(0, (rawValue > 0xFFFF ? 6 : 4) - hex.count)) + hex
        return "0x\(padded) (\(millisecondText) ms)"
    }

    /// Exact decimal milliseconds: 32 units → `20`, 1 → `0.625`.
    public var millisecondText: String {
        let micro = UInt64(rawValue) * 625
        let whole = micro / 1000
        var fraction = String(micro % 1000)
        if fraction == "0" { return String(whole) }
        fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(whole).\(fraction)"
    }
}

// The limits the specification sets, each written once.
extension AdvertisingInterval {
    /// LE Set Advertising Parameters (§7.8.5): 0x0020…0x4000, 20 ms … 10.24 s.
    public static let legacyRange: ClosedRange<AdvertisingInterval> = 0x0020...0x4000
    /// LE Set Extended Advertising Parameters' 3-octet field (§7.8.53): 0x000020…0xFFFFFF,
    /// 20 ms … ~10 486 s.
    public static let extendedRange: ClosedRange<AdvertisingInterval> = 0x00_0020...0xFF_FFFF
    /// Before Bluetooth 5.0, scannable and non-connectable advertising could not go below 100 ms
    /// (Core 4.2 Vol 2 Part E §7.8.5); 5.0 lowered it to the 20 ms of ``legacyRange``.
    public static let pre5NonConnectableMinimum: AdvertisingInterval = 0x00A0
    /// ``legacyRange`` in milliseconds (20…10240), for inputs given in milliseconds.
    public static let legacyMillisecondRange: ClosedRange<Double> = legacyRange.lowerBound.milliseconds...legacyRange.upperBound.milliseconds
}
