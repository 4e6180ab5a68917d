// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import Testing

/// `beacon encode` and `beacon decode` with Eddystone and AltBeacon, run as subprocesses. The
/// expected hex is the golden vectors' (Tests/BeaconCodecTests/Vectors), written from the specs.
@Suite struct FormatCommandTests {
    static let cases: [([String], String)] = [
        (["--namespace", "EDD1EBEAC04E5DEFA017", "--instance", "0BDB87539B67", "--tx-power", "-20"],
         "0201060303AAFE1716AAFE00ECEDD1EBEAC04E5DEFA0170BDB87539B670000"),
        (["--url", "https://example.com", "--tx-power", "-20"], "0201060303AAFE0E16AAFE10EC036578616D706C6507"),
        (["--tlm", "--battery", "3000", "--temperature", "25.5", "--advertising-count", "12345", "--uptime", "3600"],
         "0201060303AAFE1116AAFE20000BB819800000303900008CA0"),
        (["--altbeacon", "2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6-00010002", "--manufacturer", "0x0118", "--rssi", "-59"],
         "0201061BFF1801BEAC2F234454CF6D4A0FADF2F4911BA9FFA600010002C500"),
    ]

    /// `--format hcitool`: LE Set Advertising Data carries the format's payload, zero-padded to
    /// 31 bytes after its length; `--address` goes to LE Set Random Address (LSB first).
    @Test(arguments: cases)
    func hcitoolRecipesCarryEveryFormat(arguments: [String], hex: String) throws {
        let result = try BeaconExecutable.run(["encode", "--format", "hcitool", "--address", "C0:11:22:33:44:55"] + arguments)
        #expect(result.status == 0, "\(result)")
        let bytes = Hex.bytes(hex) ?? []
        let data = ([UInt8(bytes.count)] + bytes + [UInt8](repeating: 0, count: 31 - bytes.count)).map { Hex.string([$0]) }.joined(separator: " ")
        #expect(result.lines.contains("hcitool -i hci0 cmd 0x08 0x0008 " + data), "\(result)")
        #expect(result.lines.contains("hcitool -i hci0 cmd 0x08 0x0005 55 44 33 22 11 C0"), "\(result)")
    }

    @Test(arguments: cases)
    func encodesAndDecodesBack(arguments: [String], hex: String) throws {
        let encoded = try BeaconExecutable.run(["encode"] + arguments)
        #expect(encoded.status == 0, "\(encoded)")
        #expect(encoded.stdout == hex + "\n")
        let decoded = try BeaconExecutable.run(["decode", "--json", hex])
        #expect(decoded.status == 0, "\(decoded)")
        let object = try BeaconExecutable.jsonObject(decoded.lines.first ?? "")
        let format = try AnyBeacon(decoding: Hex.bytes(hex) ?? []).format
        #expect(object["format"] as? String == format.rawValue)
        let json = try BeaconExecutable.run(["encode", "--format", "json"] + arguments)
        #expect(try BeaconExecutable.jsonObject(json.lines.first ?? "")["hex"] as? String == hex)
    }

    @Test func aURLOverTheLimitSaysByHowMuch() throws {
        let result = try BeaconExecutable.run(["encode", "--url", "https://www.a-very-long-domain.com/with/a/path"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("encodes to 30 bytes after the scheme, 13 over the 17-byte limit"), "\(result)")
    }

    @Test(arguments: [
        (["--url", "https://x.io", "--uuid", "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "--major", "1", "--minor", "2"], "not both"),
        (["--url", "https://x.io", "--namespace", "EDD1EBEAC04E5DEFA017"], "one beacon format"),
        (["--url", "https://x.io", "--interval", "200"], "--interval and --address go into hcitool recipes (--format hcitool)"),
        (["--namespace", "EDD1"], "--namespace must be 20 hex digits"),
        (["--tlm", "--temperature", "128"], "--temperature must be above -128 and below 128"),
        (["--altbeacon", "00", "--rssi", "-59"], "--altbeacon must be a 20-byte beacon ID"),
        (["--tx-power", "-20"], "--tx-power belongs to"),
        (["--flags", "none"], "--uuid is required with --major/--minor"),
    ])
    func usageErrorsNameTheOption(arguments: [String], message: String) throws {
        let result = try BeaconExecutable.run(["encode"] + arguments)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains(message), "\(result)")
        #expect(result.stdout.isEmpty)
    }

    @Test func decodeNamesTheFaultOfAnotherFormatAndKeepsNoIBeacon() throws {
        let result = try BeaconExecutable.run(["decode", "--json", "0201060303AAFE0616AAFE10EC04", "020106"])
        #expect(result.status == 65)
        #expect(result.lines.count == 2)
        #expect(try BeaconExecutable.jsonObject(result.lines[0])["error"] as? String == "eddystone-url-scheme")
        #expect(try BeaconExecutable.jsonObject(result.lines[1])["error"] as? String == "no-ibeacon")
    }

    /// The plan says which beacons send deliberately non-conforming data and which are scannable
    /// for their local name (and what that costs), before anything goes on air.
    @Test func thePlanNotesRawDataAndScanResponses() throws {
        let path = try BeaconExecutable.temporaryFile(named: "notes.yaml", contents: """
            name: notes
            defaults: {uuid: E2C56DB5-DFFB-48D2-B060-D0F5A71096E0, major: 1}
            beacons:
              - {name: broken, minor: 1, patch: [{at: 3, bytes: "1B"}]}
              - {name: named, minor: 2, local_name: "Door"}
              - {name: eddy, format: eddystone-uid, namespace: 8B0CA750E7A74E14BD99, instance: "000000000001", tlm: {every: 5}}
            """)
        let result = try BeaconExecutable.run(["advertise", "--dry-run", path])
        #expect(result.status == 0, "\(result)")
        // The plan's prose fits 80 columns: notes go on over indented "#   " lines.
        let comments = result.lines.prefix { !$0.hasPrefix("# ==") }.filter { $0.hasPrefix("# ") }
        #expect(comments.allSatisfy { $0.count <= 80 }, "\(result)")
        let notes = result.stdout.replacing(/\n#   (?=\S)/, with: " ")
        #expect(notes.contains("# note: 1 beacon (broken) sends DELIBERATELY NON-CONFORMING data"), "\(result)")
        #expect(notes.contains("# note: 1 beacon (named) sends a local name in a scan response"), "\(result)")
        #expect(notes.contains("interval floor is the same (20 ms from Bluetooth 5.0, 100 ms before)"), "\(result)")
        #expect(notes.contains("# note: 1 beacon (eddy) interleaves Eddystone TLM frames"), "\(result)")
        // The scannable set: event properties 0x0012, then its scan response (LE Set Extended Scan Response Data).
        #expect(result.stdout.contains("hcitool -i hci0 cmd 0x08 0x0038 01 03 01 06 05 09 44 6F 6F 72"), "\(result)")
    }

    /// Eddystone's power at 0 m has one name (profiles' power_at_0m) and one default (−18 dBm:
    /// −59 at 1 m plus 41 dB) in encode, profiles and decode; --tx-power still reads as before.
    @Test func eddystonePowerAt0mHasOneNameAndOneDefault() throws {
        let uid = ["--namespace", "EDD1EBEAC04E5DEFA017", "--instance", "0BDB87539B67"]
        let byDefault = try BeaconExecutable.run(["encode"] + uid)
        let named = try BeaconExecutable.run(["encode"] + uid + ["--power-at-0m", "-18"])
        let oldName = try BeaconExecutable.run(["encode"] + uid + ["--tx-power", "-18"])
        #expect(byDefault.status == 0 && byDefault.stdout == named.stdout && named.stdout == oldName.stdout, "\(byDefault)\n\(named)\n\(oldName)")
        let profile = try BeaconExecutable.temporaryFile(named: "uid.yaml", contents: """
            format: eddystone-uid
            namespace: EDD1EBEAC04E5DEFA017
            instance: 0BDB87539B67

            """)
        let fromProfile = try BeaconExecutable.run(["encode", profile])
        #expect(fromProfile.stdout == byDefault.stdout, "\(fromProfile)")
        let decoded = try BeaconExecutable.run(["decode", byDefault.lines.first ?? ""])
        #expect(decoded.stdout.contains("power at 0 m -18 dBm"), "\(decoded)")
        let both = try BeaconExecutable.run(["encode"] + uid + ["--power-at-0m", "-18", "--tx-power", "-18"])
        #expect(both.status == 2 && both.stderr.contains("--tx-power is the old name of --power-at-0m"), "\(both)")
    }
}
