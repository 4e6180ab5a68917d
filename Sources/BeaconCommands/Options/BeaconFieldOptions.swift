// SPDX-License-Identifier: GPL-2.0-or-later
import TextLayout
import ArgumentParser
import BeaconCodec
import BeaconProfiles
import HCI

/// A beacon given field by field on the command line (`--uuid --major --minor [--power] …`),
/// the alternative to a profile file.
///
/// Numbers are read as plain integers and range-checked in ``validate()`` so that, for example,
/// `--major 70000` says which values are allowed instead of only that the value is invalid.
struct BeaconFieldOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The proximity UUID (8-4-4-4-12 or 32 hex digits).", valueName: "uuid"))
    var uuid: String?

    @Option(help: ArgumentHelp("The major number, 0 to 65535.", valueName: "major"))
    var major: Int?

    @Option(help: ArgumentHelp("The minor number, 0 to 65535.", valueName: "minor"))
    var minor: Int?

    // `.unconditional`: the value is usually negative (a power in dBm), which would otherwise look like an option.
    @Option(parsing: .unconditional, help: ArgumentHelp("The measured power at 1 m in dBm, -128 to 127 (default \(IBeacon.defaultMeasuredPower)).", valueName: "dBm"))
    var power: Int?

    @Option(help: ArgumentHelp("The Flags AD structure: 0x06, 0x1A or none (default 0x06).", valueName: "flags"))
    var flags: String?

    @Option(help: ArgumentHelp("The advertising interval in milliseconds, 20 to 10240 (default 100).", valueName: "ms"))
    var interval: Double?

    @Option(help: ArgumentHelp("A random static address to advertise from (default: one derived from the identity, as for a profile).", valueName: "address"))
    var address: String?

    /// Whether any field option was given.
    var isAnyGiven: Bool {
        uuid != nil || major != nil || minor != nil || power != nil || flags != nil || interval != nil || address != nil
    }

    /// The options given, by their spelling on the command line (for error messages).
    var givenOptionNames: [String] {
        [("--uuid", uuid != nil), ("--major", major != nil), ("--minor", minor != nil), ("--power", power != nil),
         ("--flags", flags != nil), ("--interval", interval != nil), ("--address", address != nil)]
            .filter(\.1).map(\.0)
    }

    /// Whether an iBeacon field was given (not only --flags, --interval or --address, which
    /// other formats' beacons take too).
    var isIBeaconFieldGiven: Bool { uuid != nil || major != nil || minor != nil || power != nil }

    func validate() throws {
        guard isAnyGiven else { return }  // the command decides whether fields are required
        if isIBeaconFieldGiven {
            guard let uuid else { throw ValidationError(Self.uuidRequired) }
            try Self.checkUUID(uuid)
            guard let major else { throw ValidationError("--major is required with --uuid") }
            guard let minor else { throw ValidationError("--minor is required with --uuid") }
            try Self.check("--major", major, in: Self.uint16Range)
            try Self.check("--minor", minor, in: Self.uint16Range)
            if let power { try Self.check("--power", power, in: Int(Int8.min)...Int(Int8.max)) }
        }
        if let flags, BeaconFlags(text: flags) == nil {
            throw ValidationError("--flags must be 0x06, 0x1A or none (got '\(flags)')")
        }
        if let interval, !BeaconProfile.intervalRange.contains(interval) {
            let range = BeaconProfile.intervalRange
            throw ValidationError("--interval must be from \(NumberText.string(range.lowerBound)) to \(NumberText.string(range.upperBound)) milliseconds (got \(interval))")
        }
        if let address {
            guard let parsed = BluetoothAddress(address) else {
                throw ValidationError("--address must look like C0:11:22:33:44:55 (got '\(address)')")
            }
            guard parsed.isStaticRandom else {
                throw ValidationError("--address must be a random static address: the first byte C0 to FF, not all other bits 0 or 1 (got \(parsed))")
            }
        }
    }

    /// The beacon, once ``validate()`` has accepted the fields; `nil` when none were given.
    func transmission() -> BeaconTransmission? {
        guard let uuid, let parsedUUID = BeaconUUID(uuid), let major, let minor else { return nil }
        let beacon = IBeacon(uuid: parsedUUID, major: UInt16(major), minor: UInt16(minor), measuredPower: power.map { Int8($0) } ?? IBeacon.defaultMeasuredPower)
        let givenAddress = address.flatMap { BluetoothAddress($0) }
        let profile = BeaconProfile(
            name: "\(parsedUUID) \(major) \(minor)",
            beacon: beacon,
            intervalMilliseconds: interval ?? BeaconProfile.defaultIntervalMilliseconds,
            address: givenAddress,
            flags: flags.flatMap(BeaconFlags.init(text:)) ?? .generalDiscoverable)
        return BeaconTransmission(commandLine: profile)
    }

    /// A beacon of another format given on the command line, with this group's interval,
    /// address and flags (for `--format hcitool`).
    func transmission(of beacon: AnyBeacon) -> BeaconTransmission {
        let givenAddress = address.flatMap { BluetoothAddress($0) }
        let profile = BeaconProfile(
            name: "\(beacon.format) \(BeaconText.identity(beacon))", beacon: beacon,
            intervalMilliseconds: interval ?? BeaconProfile.defaultIntervalMilliseconds,
            address: givenAddress, flags: parsedFlags)
        return BeaconTransmission(commandLine: profile)
    }

    /// What an incomplete iBeacon lacks first (the command says it when nothing else names a beacon).
    static let uuidRequired = "--uuid is required with --major/--minor"

    /// The Flags option, parsed (``validate()`` has checked it).
    var parsedFlags: BeaconFlags { flags.flatMap(BeaconFlags.init(text:)) ?? .generalDiscoverable }

    /// Major and minor: two octets each.
    static let uint16Range = 0...Int(UInt16.max)

    /// `--uuid`, for every command that takes one.
    static func checkUUID(_ text: String) throws {
        guard BeaconUUID(text) != nil else {
            throw ValidationError("--uuid must be a UUID such as E2C56DB5-DFFB-48D2-B060-D0F5A71096E0 or 32 hex digits (got '\(text)')")
        }
    }

    /// A number option within `range`, for every command that takes one.
    static func check(_ option: String, _ value: Int, in range: ClosedRange<Int>) throws {
        guard range.contains(value) else {
            throw ValidationError("\(option) must be from \(range.lowerBound) to \(range.upperBound) (got \(value))")
        }
    }
}
