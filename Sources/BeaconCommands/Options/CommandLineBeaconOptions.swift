// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import BeaconProfiles

/// A beacon to put on air given with options instead of a file (`advertise` and `cycle`): the
/// fields ``BeaconFieldOptions`` owns (`--uuid --major --minor [--power --interval --flags
/// --address]`) plus what only a beacon on air has, `--name` and `--tx-power`. It joins the
/// beacons of the files, if any, and is checked against them as the files are against each other.
struct CommandLineBeaconOptions: ParsableArguments {
    @OptionGroup var fields: BeaconFieldOptions

    @Option(help: ArgumentHelp("The command-line beacon's name (default: cli-MAJOR-MINOR).", valueName: "name"))
    var name: String?

    @Option(name: .customLong("tx-power"), parsing: .unconditional,
            help: ArgumentHelp("The command-line beacon's radio output power in dBm, -127 to 20 (default: the controller's choice).", valueName: "dBm"))
    var txPower: Int?

    /// Where issues about the command-line beacon point.
    static let location = SourceLocation(file: "command line", line: 1, column: 1)

    var isGiven: Bool { fields.isAnyGiven || name != nil || txPower != nil }

    func validate() throws {
        guard isGiven else { return }
        if !fields.isIBeaconFieldGiven {
            throw ValidationError("\((fields.givenOptionNames + (name != nil ? ["--name"] : []) + (txPower != nil ? ["--tx-power"] : [])).joined(separator: ", ")) describe a beacon given with --uuid, --major and --minor")
        }
        if let txPower { try BeaconFieldOptions.check("--tx-power", txPower, in: BeaconProfile.txPowerRange) }
        if let name, name.isEmpty || name.contains(where: \.isNewline) {
            throw ValidationError("--name must be a non-empty name on one line")
        }
    }

    /// The beacon, once ``validate()`` accepted the options; nil when none were given. Without
    /// `--address` its random static address is derived from the identity, as a profile's is.
    var profile: BeaconProfile? {
        guard let given = fields.transmission()?.profile else { return nil }
        return BeaconProfile(
            name: name ?? "cli-\(given.iBeacon?.major ?? 0)-\(given.iBeacon?.minor ?? 0)", beacon: given.beacon,
            intervalMilliseconds: given.intervalMilliseconds, txPower: txPower.map { Int8($0) },
            address: given.addressIsDerived ? nil : given.address, flags: given.flags, location: Self.location)
    }
}
