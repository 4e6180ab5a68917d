// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing

/// Commands that print the same beacon must say the same about it: `list --json` and
/// `encode --format json` field for field, `encode --format hcitool` and the dry run line for line.
@Suite struct CommandAgreementTests {
    /// A profile whose interval is not a whole number of 0.625 ms units (30.3 ms → 48 units → 30 ms).
    static let offGridProfile = """
        name: off-grid
        uuid: B9D4719F-A407-42FA-A365-1B6B03AE00CF
        major: 3
        minor: 4
        interval: 30.3
        """

    @Test(arguments: ["profiles/example.yaml", "profiles/bm1.yaml", "off-grid"])
    func listAndEncodeJSONAgreeOnEveryField(profile: String) throws {
        let path: String
        if profile == "off-grid" {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("beacon-off-grid-\(getpid()).yaml")
            try Self.offGridProfile.write(to: url, atomically: true, encoding: .utf8)
            path = url.path
        } else {
            path = profile
        }
        defer { if profile == "off-grid" { try? FileManager.default.removeItem(atPath: path) } }
        let list = try BeaconExecutable.run(["list", "--json", path])
        let encode = try BeaconExecutable.run(["encode", path, "--format", "json"])
        #expect(list.status == 0 && encode.status == 0, "\(list)\n\(encode)")
        #expect(list.lines.count == encode.lines.count && !list.lines.isEmpty)
        for (listLine, encodeLine) in zip(list.lines, encode.lines) {
            let listed = try BeaconExecutable.jsonObject(listLine)
            let encoded = try BeaconExecutable.jsonObject(encodeLine)
            let shared = Set(listed.keys).intersection(encoded.keys)
            // The identity, the flags, the address and all three interval fields at least.
            // ("format" for every format; an iBeacon's uuid, major, minor and power besides.)
            let identity: Set<String> = listed["format"] as? String == "ibeacon" ? ["format", "uuid", "major", "minor", "power"] : ["format"]
            #expect(shared.isSuperset(of: identity.union(["name", "flags", "address", "interval_ms", "interval_units", "interval_on_air_ms"])),
                    "\(shared)")
            for key in shared {
                #expect(String(describing: listed[key]!) == String(describing: encoded[key]!), "\(key): \(listLine) vs \(encodeLine)")
            }
        }
        if profile == "off-grid", let line = encode.lines.first {
            let object = try BeaconExecutable.jsonObject(line)
            #expect(BeaconExecutable.number(object["interval_ms"]) == 30.3)
            #expect(object["interval_units"] as? Int == 48)
            #expect(BeaconExecutable.number(object["interval_on_air_ms"]) == 30)
        }
    }

    @Test func encodeHcitoolIsTheLegacyDryRunsPreambleAndSetup() throws {
        let path = "profiles/bm1.yaml"
        let encode = try BeaconExecutable.run(["encode", path, "--format", "hcitool", "--adapter", "hci0"])
        let dryRun = try BeaconExecutable.run(["advertise", path, "--legacy", "--dry-run", "-i", "hci0"])
        #expect(encode.status == 0 && dryRun.status == 0, "\(encode)\n\(dryRun)")
        // The dry run's lines up to the teardown: its preamble (advertising off) and the setup.
        let beforeTeardown = dryRun.lines.prefix { !$0.hasPrefix("# == hci0: teardown") }
        let dryRunLines = beforeTeardown.filter { $0.hasPrefix("hcitool ") }
        let encodeLines = encode.lines.filter { $0.hasPrefix("hcitool ") }
        #expect(encodeLines.count == 5, "\(encode)")
        #expect(encodeLines == dryRunLines, "\(encode)\n\(dryRun)")
        #expect(encode.lines.first == "# bm1")
    }
}
