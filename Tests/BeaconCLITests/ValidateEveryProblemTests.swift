// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing

/// `beacon validate` reports every problem of every file in one run, in reading order (the
/// files as named, then line and column): not in rounds where a duplicate name shows up only
/// once the other issues of its entry are fixed.
@Suite struct ValidateEveryProblemTests {
    /// Five mistakes, the duplicate name in an entry with two other issues.
    static let fiveMistakes = """
        name: shop
        defaults:
          uuid: 8F0C4E62-3B1A-4C7E-9D52-6A1F0B2C3D4E
          major: 1
        beacons:
          - {name: door, minor: 1}
          - {name: till, minor: 2, measured_power: -300}
          - {name: door, minor: 3, interval: 5, tx_power: 99}
          - {name: shelf, minor: 70000}

        """

    @Test func fiveMistakesIncludingADuplicateNameAllInOneRunInLineOrder() throws {
        let path = try BeaconExecutable.temporaryFile(named: "five.yaml", contents: Self.fiveMistakes)
        let result = try BeaconExecutable.run(["validate", path])
        #expect(result.status == 65, "\(result)")
        let issues = result.stderr.split(separator: "\n").map(String.init)
        let expected = [
            "\(path):7:44: measured_power: -300: must be an integer from -128 to 127 (dBm at 1 m)",
            "\(path):8:12: name: door: the same name as the beacon declared at \(path):6:12; names must be unique in a fleet",
            "\(path):8:38: interval: 5: must be a number of milliseconds from 20 to 10240",
            "\(path):8:51: tx_power: 99: must be an integer from -127 to 20 (dBm)",
            "\(path):9:26: minor: 70000: must be an integer from 0 to 65535",
        ]
        #expect(issues == expected, "\(result)")
    }

    @Test func everyFileInOneRunOrderedByFileThenLineWithAnUnreadableOneAmongThem() throws {
        let five = try BeaconExecutable.temporaryFile(named: "five.yaml", contents: Self.fiveMistakes)
        // Clashes with `till` of the first file (reported in this one), and a bad interval.
        let other = try BeaconExecutable.temporaryFile(named: "other.yaml", contents: """
            beacons:
              - {name: x, uuid: 8F0C4E62-3B1A-4C7E-9D52-6A1F0B2C3D4E, major: 1, minor: 2, interval: 1}

            """)
        // A scenario whose embedded fleet has an issue, and a step naming no beacon of it.
        let scenario = try BeaconExecutable.temporaryFile(named: "scenario.yaml", contents: """
            fleet:
              beacons:
                - {name: door, uuid: 8F0C4E62-3B1A-4C7E-9D52-6A1F0B2C3D4E, major: 2, minor: 1, interval: 3}
            steps:
              - {at: 1s, hide: dor}

            """)
        let result = try BeaconExecutable.run(["validate", five, "/nonexistent/missing.yaml", other, scenario])
        #expect(result.status == 1, "an unreadable file: exit 1\n\(result)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        let places = lines.compactMap { line -> String? in
            for file in [five, other, scenario] where line.hasPrefix(file + ":") {
                let rest = line.dropFirst(file.count + 1).split(separator: ":")
                return "\(URL(fileURLWithPath: file).lastPathComponent):\(rest[0]):\(rest[1]) \(rest[2].trimmingCharacters(in: .whitespaces))"
            }
            return nil
        }
        #expect(places == [
            "five.yaml:7:44 measured_power", "five.yaml:8:12 name", "five.yaml:8:38 interval", "five.yaml:8:51 tx_power", "five.yaml:9:26 minor",
            "other.yaml:2:5 identity", "other.yaml:2:89 interval",
            "scenario.yaml:3:94 interval", "scenario.yaml:5:20 steps.hide",
        ], "\(result)")
        #expect(lines.last == "error: /nonexistent/missing.yaml: no such file", "\(result)")
    }
}
