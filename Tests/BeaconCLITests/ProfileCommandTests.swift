// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconProfiles
import HCI
import Foundation
import Testing

/// `beacon validate` and `beacon list` on the shipped profiles and on broken ones.
@Suite struct ProfileCommandTests {
    /// The profiles shipped in profiles/, relative to the package root.
    static let shippedProfiles: [String] = {
        let directory = BeaconExecutable.packageRoot.appendingPathComponent("profiles")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") || $0.hasSuffix(".json") }.sorted().map { "profiles/" + $0 }
    }()

    static func fleet(_ path: String) throws -> BeaconFleet {
        try ProfileLoader.load(contentsOf: BeaconExecutable.packageRoot.appendingPathComponent(path).path)
    }

    @Test func everyShippedProfileValidates() throws {
        #expect(!Self.shippedProfiles.isEmpty, "profiles/ should hold example profiles")
        let result = try BeaconExecutable.run(["validate"] + Self.shippedProfiles)
        #expect(result.status == 0, "\(result)")
        var expected: [String] = []
        for path in Self.shippedProfiles {
            let count = try Self.fleet(path).beacons.count
            expected.append("\(path): OK (\(count) \(count == 1 ? "beacon" : "beacons"))")
        }
        #expect(result.lines == expected)
        #expect(result.stderr.isEmpty)
    }

    @Test func aBrokenProfileReportsEveryIssueWithItsPositionAndExits65() throws {
        let broken = try BeaconExecutable.temporaryFile(named: "broken.yaml", contents: """
            name: broken
            uuid: not-a-uuid
            major: 70000
            minor: 1
            """)
        let result = try BeaconExecutable.run(["validate", broken, "profiles/room-2m.yaml"])
        #expect(result.status == 65, "\(result)")
        // The good file is still checked and reported.
        #expect(result.lines == ["profiles/room-2m.yaml: OK (4 beacons)"])
        let issues = result.stderr.split(separator: "\n").map(String.init)
        #expect(issues.contains { $0.hasPrefix("\(broken):2:") && $0.contains(": uuid: not-a-uuid: ") }, "\(result)")
        #expect(issues.contains { $0.hasPrefix("\(broken):3:") && $0.contains(": major: 70000: ") }, "\(result)")
        // file:line:column: field: value: message
        let pattern = try Regex(#"^.+:\d+:\d+: [a-z_.\[\]0-9]+: .*: .+$"#)
        for issue in issues { #expect(issue.wholeMatch(of: pattern) != nil, "\(issue)") }
    }

    @Test func brokenProfilesFailListAndEncodeToo() throws {
        let broken = try BeaconExecutable.temporaryFile(named: "broken.yaml", contents: "uuid: E2C56DB5-DFFB-48D2-B060-D0F5A71096E0\nmajor: 1\nminor: -4\n")
        for command in [["list", broken], ["encode", broken]] {
            let result = try BeaconExecutable.run(command)
            #expect(result.status == 65, "\(command): \(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.contains("\(broken):3:"), "\(result)")
        }
    }

    /// A file name with a newline and an ESC cannot forge an issue line nor reach the terminal:
    /// every line of validate's output names the file escaped.
    @Test func fileNamesWithControlCharactersAreEscaped() throws {
        let bad = try BeaconExecutable.temporaryFile(named: "a\nforged.yaml:1:1: uuid: x: \u{1B}[2J.yaml", contents: "major: 1\nminor: 1\n")
        let good = try BeaconExecutable.temporaryFile(named: "ok\u{1B}.yaml", contents: "uuid: E2C56DB5-DFFB-48D2-B060-D0F5A71096E0\nmajor: 1\nminor: 1\n")
        let result = try BeaconExecutable.run(["validate", bad, good])
        #expect(result.status == 65, "\(result)")
        let errors = result.stderr.split(separator: "\n")
        #expect(errors.count == 1, "\(result)")
        #expect(errors.first?.contains("/a\\nforged.yaml:1:1: uuid: x: \\u{1B}[2J.yaml:1:1: uuid: (missing)") == true, "\(result)")
        #expect(result.stdout.contains("/ok\\u{1B}.yaml: OK (1 beacon)"), "\(result)")
        #expect(!(result.stdout + result.stderr).unicodeScalars.contains { $0.value == 0x1B })
    }

    @Test func aMissingFileIsARuntimeFailure() throws {
        let result = try BeaconExecutable.run(["validate", "profiles/no-such-file.yaml"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("profiles/no-such-file.yaml"))
    }

    @Test func listPrintsAnAlignedTable() throws {
        let path = "profiles/room-2m.yaml"
        let fleet = try Self.fleet(path)
        let result = try BeaconExecutable.run(["list", path])
        #expect(result.status == 0, "\(result)")
        let lines = result.lines
        #expect(lines.count == fleet.beacons.count + 1)
        let header = try #require(lines.first)
        let columns = ["NAME", "UUID", "MAJOR", "MINOR", "POWER", "INTERVAL", "TX", "ADDRESS", "POSITION"]
        #expect(header.split(separator: " ", omittingEmptySubsequences: true).map(String.init) == columns)
        // Every cell starts where its header does.
        let starts = columns.map { header.range(of: $0)!.lowerBound.utf16Offset(in: header) }
        for (line, profile) in zip(lines.dropFirst(), fleet.beacons) {
            let cells = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            #expect(cells.count == columns.count, "\(line)")
            for (cell, start) in zip(cells, starts) {
                let offset = line.utf16.count >= start ? start : 0
                let index = line.utf16.index(line.startIndex, offsetBy: offset)
                #expect(line[index...].hasPrefix(cell), "\(cell) should start at column \(start) in \(line)")
            }
            #expect(cells[0] == profile.name)
            #expect(cells[1] == profile.iBeacon!.uuid.description)
            #expect(cells[2] == String(profile.iBeacon!.major))
            #expect(cells[3] == String(profile.iBeacon!.minor))
            #expect(cells[4] == String(profile.iBeacon!.measuredPower))
            #expect(cells[7].hasPrefix(profile.address.description))
        }
        #expect(!lines.contains { $0.hasSuffix(" ") }, "no trailing blanks")
    }

    @Test func listJSONHasOneObjectPerBeacon() throws {
        let paths = ["profiles/example.yaml", "profiles/room-2m.yaml"]
        let fleets = try paths.map(Self.fleet)
        let result = try BeaconExecutable.run(["list", "--json"] + paths)
        #expect(result.status == 0, "\(result)")
        let profiles = fleets.flatMap { fleet in fleet.beacons.map { (fleet.file, $0) } }
        #expect(result.lines.count == profiles.count)
        for (line, (_, profile)) in zip(result.lines, profiles) {
            let object = try BeaconExecutable.jsonObject(line)
            #expect(object["name"] as? String == profile.name)
            if let iBeacon = profile.iBeacon {
                #expect(object["uuid"] as? String == iBeacon.uuid.description)
                #expect(object["major"] as? Int == Int(iBeacon.major))
                #expect(object["minor"] as? Int == Int(iBeacon.minor))
            } else {
                #expect(object["format"] as? String == profile.format.rawValue)
            }
            #expect(object["address"] as? String == profile.address.description)
            #expect(object["address_derived"] as? Bool == profile.addressIsDerived)
            #expect(object["interval_units"] as? Int == Int(AdvertisingInterval(milliseconds: profile.intervalMilliseconds).rawValue))
            if let position = profile.position {
                let p = try #require(object["position"] as? [String: Any])
                #expect(BeaconExecutable.number(p["x"]) == position.x)
                #expect(BeaconExecutable.number(p["y"]) == position.y)
            } else {
                #expect(object["position"] is NSNull)
            }
        }
    }

    @Test func listOfSeveralFilesNamesTheFile() throws {
        let result = try BeaconExecutable.run(["list", "profiles/room-2m.yaml", "profiles/bm1.yaml"])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines.first?.hasPrefix("FILE ") == true)
        #expect(result.lines.last?.hasPrefix("profiles/bm1.yaml ") == true)
    }
}
