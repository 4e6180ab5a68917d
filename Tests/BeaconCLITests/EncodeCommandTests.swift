// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconProfiles
import HCI
import Foundation
import Testing

/// `beacon encode`, run as a subprocess.
@Suite struct EncodeCommandTests {
    static let appleUUID = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"
    static let appleHex = "0201061AFF4C000215E2C56DB5DFFB48D2B060D0F5A71096E000010002C5"
    static let appleFields = ["--uuid", appleUUID, "--major", "1", "--minor", "2"]

    @Test func hexOfTheAppleExampleIsTheOnlyOutput() throws {
        let result = try BeaconExecutable.run(["encode"] + Self.appleFields + ["--power", "-59"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == Self.appleHex + "\n")
        #expect(result.stderr.isEmpty)
    }

    @Test func powerDefaultsToMinus59AndAcceptsTheEqualsSpelling() throws {
        let plain = try BeaconExecutable.run(["encode"] + Self.appleFields)
        let equals = try BeaconExecutable.run(["encode", "--power=-59"] + Self.appleFields)
        #expect(plain.stdout == Self.appleHex + "\n")
        #expect(equals.stdout == Self.appleHex + "\n")
    }

    @Test(arguments: [("none", "1AFF4C000215"), ("0x1A", "02011A1AFF4C000215"), ("0x06", "0201061AFF4C000215")])
    func flagsChooseTheLeadingStructure(flags: String, prefix: String) throws {
        let result = try BeaconExecutable.run(["encode"] + Self.appleFields + ["--flags", flags])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix(prefix + "E2C56DB5"), "\(result)")
        // Whatever the flags, the payload decodes back to the same beacon.
        let bytes = try #require(Hex.bytes(result.lines.first ?? ""))
        let beacon = try IBeacon(decoding: bytes)
        #expect(beacon == IBeacon(uuid: BeaconUUID(Self.appleUUID)!, major: 1, minor: 2, measuredPower: -59))
    }

    /// Without `--address` the command-line beacon has the address derived from its identity,
    /// as `advertise --uuid …` gives it: the recipe is the legacy dry run's preamble and setup.
    @Test func hcitoolRecipeFromFlagsIsTheLegacyDryRunsToo() throws {
        let result = try BeaconExecutable.run(["encode"] + Self.appleFields + ["--format", "hcitool"])
        #expect(result.status == 0, "\(result)")
        let recipe = result.lines.filter { $0.hasPrefix("hcitool ") }
        #expect(recipe.count == 5, "\(result)")
        #expect(recipe.contains { $0.hasPrefix("hcitool -i hci0 cmd 0x08 0x0005 ") }, "LE Set Random Address: \(result)")
        #expect(recipe.contains("hcitool -i hci0 cmd 0x08 0x0006 A0 00 A0 00 03 01 00 00 00 00 00 00 00 07 00"), "own address random: \(result)")
        let dryRun = try BeaconExecutable.run(["advertise"] + Self.appleFields + ["--legacy", "--dry-run", "-i", "hci0"])
        #expect(dryRun.status == 0, "\(dryRun)")
        let setup = dryRun.lines.prefix { !$0.hasPrefix("# == hci0: teardown") }.filter { $0.hasPrefix("hcitool ") }
        #expect(recipe == setup, "\(result)\n\(dryRun)")
    }

    @Test func hcitoolRecipeWithARandomAddressAnotherAdapterAndInterval() throws {
        let result = try BeaconExecutable.run(["encode"] + Self.appleFields + [
            "--format", "hcitool", "--adapter", "hci1", "--address", "C0:11:22:33:44:55", "--interval", "152.5", "--flags", "none",
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == [
            "# E2C56DB5-DFFB-48D2-B060-D0F5A71096E0 1 2",
            "hcitool -i hci1 cmd 0x08 0x000a 00",
            // LE Set Random Address: least-significant byte first.
            "hcitool -i hci1 cmd 0x08 0x0005 55 44 33 22 11 C0",
            // 152.5 ms = 244 units = 0x00F4; own address type random (0x01).
            "hcitool -i hci1 cmd 0x08 0x0006 F4 00 F4 00 03 01 00 00 00 00 00 00 00 07 00",
            // 27 significant bytes, padded to 31.
            "hcitool -i hci1 cmd 0x08 0x0008 1B 1A FF 4C 00 02 15 E2 C5 6D B5 DF FB 48 D2 B0 60 D0 F5 A7 10 96 E0 00 01 00 02 C5 00 00 00 00",
            "hcitool -i hci1 cmd 0x08 0x000a 01",
        ])
    }

    @Test func jsonCarriesEveryField() throws {
        let result = try BeaconExecutable.run(["encode"] + Self.appleFields + ["--format", "json", "--address", "C0:11:22:33:44:55"])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines.count == 1)
        let object = try BeaconExecutable.jsonObject(result.lines[0])
        #expect(object["uuid"] as? String == Self.appleUUID)
        #expect(object["major"] as? Int == 1)
        #expect(object["minor"] as? Int == 2)
        #expect(object["power"] as? Int == -59)
        #expect(object["flags"] as? String == "0x06")
        #expect(object["address"] as? String == "C0:11:22:33:44:55")
        #expect(BeaconExecutable.number(object["interval_ms"]) == 100)
        #expect(object["hex"] as? String == Self.appleHex)
        #expect(object["name"] is NSNull)
    }

    @Test func profileBeaconsEncodeAsTheLoaderDescribesThem() throws {
        let path = "profiles/room-2m.yaml"
        let fleet = try ProfileLoader.load(contentsOf: BeaconExecutable.packageRoot.appendingPathComponent(path).path)
        let result = try BeaconExecutable.run(["encode", path])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == fleet.beacons.map { $0.advertisingData.description })
    }

    @Test func profileJSONFollowsTheProfile() throws {
        let path = "profiles/example.yaml"
        let fleet = try ProfileLoader.load(contentsOf: BeaconExecutable.packageRoot.appendingPathComponent(path).path)
        let result = try BeaconExecutable.run(["encode", path, "--format", "json"])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines.count == fleet.beacons.count)
        for (line, profile) in zip(result.lines, fleet.beacons) {
            let object = try BeaconExecutable.jsonObject(line)
            #expect(object["name"] as? String == profile.name)
            if let iBeacon = profile.iBeacon {
                #expect(object["major"] as? Int == Int(iBeacon.major))
                #expect(object["minor"] as? Int == Int(iBeacon.minor))
            } else {
                #expect(object["format"] as? String == profile.format.rawValue)
            }
            #expect(object["address"] as? String == profile.address.description)
            #expect(object["flags"] as? String == profile.flags.description)
            #expect(BeaconExecutable.number(object["interval_ms"]) == profile.intervalMilliseconds)
            let onAir = AdvertisingInterval(milliseconds: profile.intervalMilliseconds)
            #expect(object["interval_units"] as? Int == Int(onAir.rawValue))
            #expect(BeaconExecutable.number(object["interval_on_air_ms"]) == onAir.milliseconds)
            #expect(object["hex"] as? String == profile.advertisingData.description)
        }
    }

    @Test func namedProfileBeaconGetsItsRandomAddressAndInterval() throws {
        let path = "profiles/example.yaml"
        let fleet = try ProfileLoader.load(contentsOf: BeaconExecutable.packageRoot.appendingPathComponent(path).path)
        let profile = try #require(fleet.beacons.first { $0.intervalMilliseconds != 100 }, "example.yaml should have a beacon with a non-default interval")
        let units = AdvertisingInterval(milliseconds: profile.intervalMilliseconds).rawValue
        let result = try BeaconExecutable.run(["encode", path, "--name", profile.name, "--format", "hcitool"])
        #expect(result.status == 0, "\(result)")
        let a = profile.address.littleEndianBytes
        let addressBytes = Hex.string([a.0, a.1, a.2, a.3, a.4, a.5], separator: " ")
        let interval = Hex.string([UInt8(units & 0xFF), UInt8(units >> 8)], separator: " ")
        #expect(result.lines.first == "# \(profile.name)")
        #expect(result.lines.contains("hcitool -i hci0 cmd 0x08 0x0005 \(addressBytes)"))
        #expect(result.lines.contains("hcitool -i hci0 cmd 0x08 0x0006 \(interval) \(interval) 03 01 00 00 00 00 00 00 00 07 00"))
        #expect(result.lines.last == "hcitool -i hci0 cmd 0x08 0x000a 01")
    }

    @Test func unknownBeaconNameIsAUsageError() throws {
        let result = try BeaconExecutable.run(["encode", "profiles/room-2m.yaml", "--name", "no-such-beacon"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("no-such-beacon"))
        #expect(result.stderr.contains("room-west"))
    }

    @Test func encodeThenDecodeRoundTrips() throws {
        let encoded = try BeaconExecutable.run(["encode", "--uuid", "b9d4719f-a407-42fa-a365-1b6b03ae00cf", "--major", "65535", "--minor", "0", "--power", "-128"])
        #expect(encoded.status == 0, "\(encoded)")
        let decoded = try BeaconExecutable.run(["decode", "--json", encoded.lines.first ?? ""])
        #expect(decoded.status == 0, "\(decoded)")
        #expect(decoded.stdout == #"{"format":"ibeacon","uuid":"B9D4719F-A407-42FA-A365-1B6B03AE00CF","major":65535,"minor":0,"power":-128}"# + "\n")
    }
}
