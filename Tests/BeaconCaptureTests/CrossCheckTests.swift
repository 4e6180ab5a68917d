// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCapture
import BeaconCodec
import Foundation
import Testing
import TestSupport

/// Captures made by other tools: Bumble's btsnoop writer, and a generated capture read by tshark.
/// A missing tool fails the test (with what to install) rather than skipping it.
@Suite(.serialized) struct CrossCheckTests {
    /// Bumble builds the packets (its own HCI serialisers) and writes them with `BtSnooper`.
    static let bumbleScript = """
        import struct, sys
        from bumble import hci
        from bumble.snoop import BtSnooper, Snooper
        uuid = bytes.fromhex("E2C56DB5DFFB48D2B060D0F5A71096E0")
        def ib(major, minor, power):
            return bytes([2, 1, 6, 0x1A, 0xFF, 0x4C, 0, 2, 0x15]) + uuid + struct.pack(">HHb", major, minor, power)
        H2C, C2H = Snooper.Direction.HOST_TO_CONTROLLER, Snooper.Direction.CONTROLLER_TO_HOST
        with open(sys.argv[1], "wb") as f:
            s = BtSnooper(f)
            s.snoop(bytes(hci.HCI_LE_Set_Random_Address_Command(random_address=hci.Address("C0:11:22:33:44:55"))), H2C)
            s.snoop(bytes(hci.HCI_LE_Set_Advertising_Data_Command(advertising_data=ib(1, 2, -59))), H2C)
            reports = [
                hci.HCI_LE_Advertising_Report_Event.Report(event_type=3, address_type=1,
                    address=hci.Address("D1:22:33:44:55:66"), data=ib(3, 4, -60), rssi=-66),
                hci.HCI_LE_Advertising_Report_Event.Report(event_type=0, address_type=0,
                    address=hci.Address("00:22:33:44:55:77"), data=bytes([2, 1, 6, 4, 9, 0x61, 0x62, 0x63]), rssi=-40),
            ]
            s.snoop(bytes(hci.HCI_LE_Advertising_Report_Event(reports=reports)), C2H)
        """

    @Test func bumbleBtSnooperCapture() throws {
        let python = try Executables.require("python3", install: "apt-get install python3").path
        let probe = try Program.run(URL(fileURLWithPath: python), ["-c", "import bumble"])
        try #require(probe.status == 0, "Bumble is not installed (scripts/test installs it: scripts/setup --tests): \(probe.stderr)")
        let path = try CaptureFiles.write([], name: "bumble.btsnoop")
        let made = try Program.run(URL(fileURLWithPath: python), ["-c", Self.bumbleScript, path])
        try #require(made.status == 0, "the Bumble script failed: \(made.stderr)")
        let found = try CaptureBeaconScan.sightings(path: path)
        let uuid = BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!
        #expect(found.count == 2)
        #expect(found.first?.source == .command)
        #expect(found.first?.beacon.iBeacon == IBeacon(uuid: uuid, major: 1, minor: 2, measuredPower: -59))
        #expect(found.first?.address == BluetoothAddress("C0:11:22:33:44:55"))
        #expect(found.last?.source == .report)
        #expect(found.last?.beacon.iBeacon == IBeacon(uuid: uuid, major: 3, minor: 4, measuredPower: -60))
        #expect(found.last?.address == BluetoothAddress("D1:22:33:44:55:66"))
        #expect(found.last?.rssi == -66)
    }

    /// One beacon as both sides print it: address, UUID, major, minor (lower-case hex, no separators).
    struct Identity: Hashable, CustomStringConvertible {
        var address: String
        var uuid: String
        var major: Int
        var minor: Int
        var description: String { "\(address) \(uuid) \(major)/\(minor)" }
    }

    /// `beacon decode --capture --json` and tshark find the same beacons in a generated capture
    /// (Benchmarks/make-capture.py: iBeacons among other adverts, Apple data that is not an iBeacon).
    ///
    /// tshark 4.0 reads the address and Apple's manufacturer data; its own "ibeacon" dissector
    /// (Decode As only) reads the UUID two bytes early, so the test slices the data after the
    /// company ID by Apple's layout: 02 15, UUID[16], major (BE), minor (BE), power.
    @Test func tsharkAgreesOnAGeneratedCapture() throws {
        let tshark = try Executables.require("tshark", install: "apt-get install tshark").path
        let python = try Executables.require("python3", install: "apt-get install python3").path
        let beacon = try Executables.beacon.get().path
        let path = try CaptureFiles.write([], name: "generated.btsnoop")
        let generator = PackageRoot.url.appendingPathComponent("Benchmarks/make-capture.py").path
        let made = try Program.run(URL(fileURLWithPath: python), [generator, path, "--packets", "3000", "--seed", "7"])
        try #require(made.status == 0, "make-capture.py failed: \(made.stderr)")

        let ours = try Program.run(URL(fileURLWithPath: beacon), ["decode", "--capture", path, "--json"])
        try #require(ours.status == 0, "beacon decode --capture failed: \(ours.stderr)")
        var mine = Set<Identity>()
        var lines = 0
        for line in ours.stdout.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let address = try #require(object["address"] as? String).lowercased()
            let uuid = try #require(object["uuid"] as? String).lowercased().replacingOccurrences(of: "-", with: "")
            mine.insert(Identity(address: address, uuid: uuid, major: try #require(object["major"] as? Int),
                                 minor: try #require(object["minor"] as? Int)))
            lines += 1
        }

        let theirs = try Program.run(URL(fileURLWithPath: tshark), [
            "-r", path, "-Y", "btcommon.eir_ad.entry.company_id == 0x004c", "-T", "fields",
            "-e", "bthci_evt.bd_addr", "-e", "btcommon.eir_ad.entry.data",
        ])
        try #require(theirs.status == 0, "tshark failed: \(theirs.stderr)")
        var other = Set<Identity>()
        var rows = 0
        for row in theirs.stdout.split(separator: "\n") {
            let fields = row.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 2 else { continue }
            let data = String(fields[1])
            // Apple manufacturer data that is an iBeacon: 02 15 then 21 bytes.
            guard data.hasPrefix("0215"), data.count == 2 * 23 else { continue }
            let hex = Array(data)
            other.insert(Identity(address: String(fields[0]), uuid: String(hex[4..<36]),
                                  major: Int(String(hex[36..<40]), radix: 16)!, minor: Int(String(hex[40..<44]), radix: 16)!))
            rows += 1
        }
        #expect(rows > 1000)
        #expect(lines == rows, "beacon printed \(lines) sightings, tshark \(rows)")
        #expect(mine == other, "only beacon: \(mine.subtracting(other).prefix(5)); only tshark: \(other.subtracting(mine).prefix(5))")
    }
}
