// SPDX-License-Identifier: GPL-2.0-or-later
import TextLayout
import BeaconCodec

/// A timeline played over a fleet: at given times (seconds from the start of a pass) beacons
/// appear and disappear, and their major, minor, measured power, TX power or interval change.
/// Read by ``ScenarioLoader``; expanded into timed changes by ``ScenarioTimeline``.
/// docs/SCENARIOS.md describes the file format.
public struct Scenario: Sendable {
    /// The most changes one pass may expand to (repeats multiplied out, aliases expanded); the
    /// reader stops at the first change past it.
    public static let maximumChanges = 100_000

    /// The scenario file as it was named to the loader.
    public var file: String
    public var name: String?
    /// The beacons the scenario plays with: its `fleet:` file's, or the ones it embeds.
    public var fleet: BeaconFleet
    /// Names of the beacons that are off air when a pass starts (`hidden:`).
    public var hidden: Set<String>
    /// The steps as written (blocks not yet expanded).
    public var steps: [ScenarioStep]
    /// The length of one pass, seconds (`duration:`, default: the last change's time).
    public var duration: Double
    /// How many passes are played: 1 by default; `loop: N` plays N; `loop: true` plays until stopped (nil).
    public var passes: Int?

    public init(file: String, name: String? = nil, fleet: BeaconFleet, hidden: Set<String> = [], steps: [ScenarioStep],
                duration: Double, passes: Int? = 1) {
        self.file = file
        self.name = name
        self.fleet = fleet
        self.hidden = hidden
        self.steps = steps
        self.duration = duration
        self.passes = passes
    }
}

/// One entry of `steps:`: a change at a time, or a block of steps repeated.
public indirect enum ScenarioStep: Hashable, Sendable {
    /// `change` at `at` seconds from the start of the enclosing block (or pass).
    case change(at: Double, ScenarioChange, SourceLocation)
    /// `steps` played `count` times, the k-th (from 0) starting at `at + k · every`.
    case repeated(at: Double, count: Int, every: Double, steps: [ScenarioStep], SourceLocation)
}

/// What one step does. Fields that are nil are left as they are.
public struct ScenarioChange: Hashable, Sendable, CustomStringConvertible {
    /// Beacons put on air (`show:`).
    public var show: [String] = []
    /// Beacons taken off air (`hide:`).
    public var hide: [String] = []
    /// Beacons whose fields change (`beacon:`); every field below applies to each.
    public var beacons: [String] = []
    public var major: UInt16?
    public var minor: UInt16?
    public var measuredPower: Int8?
    /// An Eddystone frame's power at 0 m (`power_at_0m:`), dBm.
    public var powerAt0m: Int8?
    /// `tx_power: default` (leave it to the controller) is `.some(nil)`.
    public var txPower: Int8??
    public var intervalMilliseconds: Double?

    public init(show: [String] = [], hide: [String] = [], beacons: [String] = [], major: UInt16? = nil, minor: UInt16? = nil,
                measuredPower: Int8? = nil, powerAt0m: Int8? = nil, txPower: Int8?? = nil, intervalMilliseconds: Double? = nil) {
        self.powerAt0m = powerAt0m
        self.show = show
        self.hide = hide
        self.beacons = beacons
        self.major = major
        self.minor = minor
        self.measuredPower = measuredPower
        self.txPower = txPower
        self.intervalMilliseconds = intervalMilliseconds
    }

    /// Whether the step changes a field (as opposed to only showing or hiding).
    public var changesFields: Bool {
        major != nil || minor != nil || measuredPower != nil || powerAt0m != nil || txPower != nil || intervalMilliseconds != nil
    }

    /// `show room-west`, `hide a, b`, `room-east: measured_power -65, interval 200 ms`.
    public var description: String {
        var parts: [String] = []
        if !show.isEmpty { parts.append("show " + show.joined(separator: ", ")) }
        if !hide.isEmpty { parts.append("hide " + hide.joined(separator: ", ")) }
        if !beacons.isEmpty {
            var fields: [String] = []
            if let major { fields.append("major \(major)") }
            if let minor { fields.append("minor \(minor)") }
            if let measuredPower { fields.append("measured_power \(measuredPower)") }
            if let powerAt0m { fields.append("power_at_0m \(powerAt0m)") }
            if let txPower { fields.append("tx_power " + (txPower.map { "\($0)" } ?? "default")) }
            if let intervalMilliseconds { fields.append("interval \(NumberText.string(intervalMilliseconds, places: 3)) ms") }
            parts.append(beacons.joined(separator: ", ") + ": " + fields.joined(separator: ", "))
        }
        return parts.joined(separator: "; ")
    }
}
