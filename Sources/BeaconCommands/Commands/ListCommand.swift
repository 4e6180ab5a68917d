// SPDX-License-Identifier: GPL-2.0-or-later
import TextLayout
import ArgumentParser
import BeaconCodec
import BeaconJSON
import BeaconProfiles
import BeaconRadio

/// `beacon list FILE…`: the beacons of profile files as a table or JSON.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the beacons in profile files.",
        discussion: """
            The table has one row per beacon: name, UUID, major, minor, measured power (dBm), \
            advertising interval (ms), radio TX power (dBm, "-" if unset), address ("*" after a \
            derived one) and position (x,y[,z], "-" if unset); with more than one file, a first \
            column names the file. When a file holds beacons of other formats than iBeacon, \
            FORMAT, ID (the identity in the format's own words) and POWER (dBm at 1 m, or "@0m" \
            for Eddystone's TX power at 0 m) replace UUID, MAJOR, MINOR and POWER. --json \
            prints one object per beacon and line instead.

            Files with issues are reported on standard error (as validate does) and make the \
            exit status 65; the beacons of the valid files are still listed.

            Examples:
              beacon list profiles/room-2m.yaml
              beacon list profiles/*.yaml --json
            """
    )

    @Argument(help: ArgumentHelp("Profile files (YAML or JSON).", valueName: "file"))
    var files: [String]

    @Flag(help: "Print one JSON object per beacon.")
    var json = false

    func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one profile file") }
    }

    mutating func run() async throws {
        var tally = ExitTally()
        var fleets: [BeaconFleet] = []
        for file in files {
            switch ProfileFiles.load(file) {
            case .success(let fleet): fleets.append(fleet)
            case .failure(let code): tally.record(code)
            }
        }
        if json {
            for fleet in fleets {
                for beacon in fleet.beacons { LineOutput.out(beacon.json(file: fleet.file).text) }
            }
        } else if !fleets.isEmpty {
            for line in Self.table(fleets, showFile: files.count > 1).lines { LineOutput.out(line) }
        }
        try tally.finish()
    }

    static func table(_ fleets: [BeaconFleet], showFile: Bool) -> TextTable {
        // Files of iBeacons only keep the table they always had.
        let onlyIBeacons = fleets.allSatisfy { $0.beacons.allSatisfy { $0.format == .iBeacon && $0.rawData == nil } }
        let identityHeaders = onlyIBeacons ? ["UUID", "MAJOR", "MINOR", "POWER"] : ["FORMAT", "ID", "POWER"]
        let headers = ["NAME"] + identityHeaders + ["INTERVAL", "TX", "ADDRESS", "POSITION"]
        var table = TextTable(headers: (showFile ? ["FILE"] : []) + headers)
        for fleet in fleets {
            for b in fleet.beacons {
                let identity: [String]
                if onlyIBeacons, let i = b.iBeacon {
                    identity = [i.uuid.description, String(i.major), String(i.minor), String(i.measuredPower)]
                } else {
                    // Deliberately non-conforming data: "raw:" and the beacon it stands for.
                    identity = [(b.rawData == nil ? "" : "raw:") + b.format.rawValue, BeaconText.identity(b.beacon), BeaconText.power(b.beacon)]
                }
                let settings: [String] = [
                    NumberText.string(b.intervalMilliseconds),
                    b.txPower.map { String($0) } ?? "-",
                    b.address.description + (b.addressIsDerived ? "*" : ""),
                    b.position.map(positionText) ?? "-",
                ]
                table.append((showFile ? [fleet.file.escapingControlCharacters] : []) + [b.name] + identity + settings)
            }
        }
        return table
    }

    static func positionText(_ p: Point) -> String {
        ([p.x, p.y] + (p.z == 0 ? [] : [p.z])).map(NumberText.string).joined(separator: ",")
    }
}
