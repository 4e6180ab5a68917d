// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import BeaconCodec
import BeaconEmulator
import BeaconJSON
import BeaconProfiles
import HCI

/// `beacon encode`: the advertising data of the beacons in a profile file, or of one beacon
/// given on the command line, as hex, `hcitool` commands or JSON.
struct EncodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encode",
        abstract: "Print the advertising data of beacons from a profile file or from the command line.",
        usage: """
            beacon encode <profile> [--name <name>] [--format hex|hcitool] [--json] [--adapter <hciN>]
            beacon encode --uuid <uuid> --major <major> --minor <minor> [--power <dBm>] [--flags <flags>] [--interval <ms>] [--address <address>] [--format hex|hcitool] [--json] [--adapter <hciN>]
            beacon encode --namespace <hex> --instance <hex> [--power-at-0m <dBm>] [--flags <flags>] [--format hex|hcitool] [--json] [--interval <ms>] [--address <address>]
            beacon encode --url <url> [--power-at-0m <dBm>] [--flags <flags>] [--format hex|hcitool] [--json] [--interval <ms>] [--address <address>]
            beacon encode --tlm [--battery <mV>] [--temperature <°C>] [--advertising-count <count>] [--uptime <seconds>] [--flags <flags>] [--format hex|hcitool] [--json]
            beacon encode --altbeacon <id> [--manufacturer <id>] [--rssi <dBm>] [--reserved <byte>] [--flags <flags>] [--format hex|hcitool] [--json] [--interval <ms>] [--address <address>]
            """,
        discussion: """
            Formats:
              hex      the advertising data in upper-case hex, one line per beacon
              hcitool  per beacon, a "# name" line, then the hcitool commands that
                       make a BlueZ box advertise it, as advertise --legacy
                       --dry-run lists them: advertising off, LE Set Random
                       Address (--address, else derived from the identity, as
                       advertise does), LE Set Advertising
                       Parameters (ADV_NONCONN_IND, the beacon's interval,
                       channels 37-39), LE Set Advertising Data, advertising on
            --json (--format json, the older spelling, still works): one JSON
            object per line: name, uuid, major, minor, power, flags, address,
            interval_ms (as given), interval_units (0.625 ms units sent),
            interval_on_air_ms, hex; for the other formats: format, the
            format's fields (as decode --json prints them), flags, hex

            Eddystone-UID, -URL and -TLM frames carry the 16-bit service UUID
            list and service data for 0xFEAA after the flags; an AltBeacon is
            manufacturer data with the code BE AC. A URL is encoded with the
            scheme prefixes and expansion codes (.com/ is one byte); one that
            needs more than 17 bytes is refused, saying by how much.

            Legacy advertising carries one payload at a time: running the hcitool
            recipes of several beacons one after another leaves the last one on air.

            Out-of-range values (--major 70000, --power 200) are usage errors
            (exit 2); a profile with issues exits with 65.

            Examples:
              beacon encode profiles/bm1.yaml --format hcitool
              beacon encode profiles/room-2m.yaml --json
              beacon encode --url https://example.com/menu
            """
    )

    @Argument(help: ArgumentHelp("A profile file (YAML or JSON).", valueName: "profile"))
    var profile: String?

    @Option(help: ArgumentHelp("Only the beacon with this name in the profile.", valueName: "name"))
    var name: String?

    @OptionGroup(title: "Beacon (instead of a profile)")
    var fields: BeaconFieldOptions

    @OptionGroup(title: "Eddystone or AltBeacon (instead of a profile)")
    var formats: BeaconFormatFieldOptions

    @Option(help: "The output format: hex or hcitool (json: the same as --json, kept for old scripts).")
    var format: EncodeFormat = .hex

    @Flag(help: "One JSON object per beacon and line.")
    var json = false

    /// What to print: --json wins over the default hex.
    var output: EncodeFormat { json ? .json : format }

    @OptionGroup
    var adapter: AdapterOptions

    func validate() throws {
        if json, format == .hcitool { throw ValidationError("--json and --format hcitool exclude each other") }
        if profile != nil, fields.isAnyGiven || formats.isAnyGiven {
            let given = (fields.givenOptionNames + formats.givenOptionNames).joined(separator: ", ")
            throw ValidationError("give either a profile file or --uuid/--major/--minor, not both (got a profile and \(given))")
        }
        if formats.isAnyGiven {
            if fields.isIBeaconFieldGiven {
                let given = (fields.givenOptionNames + formats.givenOptionNames).joined(separator: ", ")
                throw ValidationError("give the fields of one beacon: an iBeacon's or another format's, not both (got \(given))")
            }
            if fields.interval != nil || fields.address != nil, format != .hcitool {
                throw ValidationError("--interval and --address go into hcitool recipes (--format hcitool); hex and json are the advertising data alone")
            }
        } else if profile == nil, fields.isAnyGiven, !fields.isIBeaconFieldGiven {
            throw ValidationError(BeaconFieldOptions.uuidRequired)
        }
        if profile == nil, !fields.isAnyGiven, !formats.isAnyGiven {
            throw ValidationError("give a profile file, or --uuid, --major and --minor")
        }
        if name != nil, profile == nil {
            throw ValidationError("--name selects a beacon in a profile file; give the file")
        }
    }

    mutating func run() async throws {
        if let beacon = formats.beacon(), format != .hcitool {
            let payload = beacon.advertisingData(flags: fields.parsedFlags)
            let json = JSONValue.object(BeaconObject.fields(beacon, naming: .payload) + [
                ("flags", .string(fields.parsedFlags.description)), ("hex", .string(payload.description)),
            ])
            LineOutput.out(output == .json ? json.text : payload.description)
            return
        }
        let transmissions = try selectedTransmissions()
        for transmission in transmissions {
            switch output {
            case .hex:
                LineOutput.out(transmission.payload.description)
            case .hcitool:
                LineOutput.out("# " + (transmission.name ?? BeaconText.identity(transmission.beacon)))
                // A beacon given on the command line without `--address` has the address derived
                // from its identity, as `advertise --uuid …` gives it: the same lines.
                for command in AdvertisingProgram.legacyRecipe(for: transmission.profile) {
                    LineOutput.out(HCIToolLine.text(command, adapter: adapter.adapter))
                }
            case .json:
                LineOutput.out(Self.json(transmission).text)
            }
        }
    }

    /// The beacons to print: the command-line one, or the profile's (all, or the one named).
    private func selectedTransmissions() throws -> [BeaconTransmission] {
        if let beacon = formats.beacon() { return [fields.transmission(of: beacon)] }
        guard let profile else {
            // validate() has made sure the fields are complete and in range.
            return fields.transmission().map { [$0] } ?? []
        }
        let fleet = try ProfileFiles.load(profile).get()
        var beacons = fleet.beacons
        if let name {
            beacons = beacons.filter { $0.name == name }
            if beacons.isEmpty {
                let names = fleet.beacons.map(\.name).joined(separator: ", ")
                LineOutput.err("error: \(profile.escapingControlCharacters): no beacon named '\(name)' (the file has: \(names.isEmpty ? "none" : names))")
                throw ExitStatus.usage
            }
        }
        // The loader has checked each interval against the legacy range.
        return beacons.map(BeaconTransmission.init(profile:))
    }

    static func json(_ t: BeaconTransmission) -> JSONValue {
        .object([
            ("name", .string(t.name)),
        ] + BeaconObject.fields(t.beacon, naming: .profile) + [
            ("flags", .string(t.flags.description)),
            ("address", .string(t.address?.description)),
            ("local_name", .string(t.profile.localName)),
        ] + IntervalJSON.fields(requestedMilliseconds: t.profile.intervalMilliseconds) + [
            ("hex", .string(t.payload.description)),
        ])
    }
}
