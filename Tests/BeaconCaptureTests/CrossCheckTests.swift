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

    /// One beacon as both sides print it: time (µs), address, UUID, major, minor (lower-case hex, no separators).
    struct Identity: Hashable, CustomStringConvertible {
        var time: String
        var address: String
        var uuid: String
        var major: Int
        var minor: Int
        var description: String { "\(time) \(address) \(uuid) \(major)/\(minor)" }
    }

    /// What `beacon decode --capture FILE --json` prints, one identity per line.
    static func beaconIdentities(_ path: String) throws -> [Identity] {
        let beacon = try Executables.beacon.get().path
        let ours = try Program.run(URL(fileURLWithPath: beacon), ["decode", "--capture", path, "--json"])
        try #require(ours.status == 0, "beacon decode --capture failed: \(ours.stderr)")
        return try ours.stdout.split(separator: "\n").map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let time = try #require(object["time"] as? NSNumber)
            return Identity(time: String(format: "%.6f", time.doubleValue),
                            address: try #require(object["address"] as? String).lowercased(),
                            uuid: try #require(object["uuid"] as? String).lowercased().replacingOccurrences(of: "-", with: ""),
                            major: try #require(object["major"] as? Int), minor: try #require(object["minor"] as? Int))
        }
    }

    /// What tshark reads in the same file: the packets whose advertising data holds Apple's
    /// manufacturer data, `addressField` the advertiser's address (HCI report or Link Layer AdvA).
    ///
    /// tshark 4.0 reads the address and Apple's manufacturer data; its own "ibeacon" dissector
    /// (Decode As only) reads the UUID two bytes early, so the data after the company ID is sliced
    /// by Apple's layout: 02 15, UUID[16], major (BE), minor (BE), power.
    static func tsharkIdentities(_ path: String, addressField: String = "bthci_evt.bd_addr") throws -> [Identity] {
        let tshark = try Executables.require("tshark", install: "apt-get install tshark").path
        let theirs = try Program.run(URL(fileURLWithPath: tshark), [
            "-r", path, "-Y", "btcommon.eir_ad.entry.company_id == 0x004c", "-T", "fields",
            "-e", "frame.time_epoch", "-e", addressField, "-e", "btcommon.eir_ad.entry.data",
        ])
        try #require(theirs.status == 0, "tshark failed: \(theirs.stderr)")
        return theirs.stdout.split(separator: "\n").compactMap { row in
            let fields = row.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 3 else { return nil }
            let data = String(fields[2])
            // Apple manufacturer data that is an iBeacon: 02 15 then 21 bytes.
            guard data.hasPrefix("0215"), data.count == 2 * 23 else { return nil }
            let hex = Array(data)
            // frame.time_epoch prints nanoseconds: cut to the µs beacon prints.
            let time = fields[0].split(separator: ".")
            return Identity(time: "\(time[0]).\(time[1].prefix(6))", address: String(fields[1]), uuid: String(hex[4..<36]),
                            major: Int(String(hex[36..<40]), radix: 16)!, minor: Int(String(hex[40..<44]), radix: 16)!)
        }
    }

    /// A capture of Benchmarks/make-capture.py (iBeacons among other adverts, Apple data that is
    /// not an iBeacon), independent of `beacon`.
    static func generatedCapture() throws -> String {
        let python = try Executables.require("python3", install: "apt-get install python3").path
        let path = try CaptureFiles.write([], name: "generated.btsnoop")
        let generator = PackageRoot.url.appendingPathComponent("Benchmarks/make-capture.py").path
        let made = try Program.run(URL(fileURLWithPath: python), [generator, path, "--packets", "3000", "--seed", "7"])
        try #require(made.status == 0, "make-capture.py failed: \(made.stderr)")
        return path
    }

    static func expectAgreement(_ path: String, addressField: String = "bthci_evt.bd_addr", atLeast: Int = 1000) throws {
        let mine = try beaconIdentities(path)
        let other = try tsharkIdentities(path, addressField: addressField)
        #expect(other.count >= atLeast, "\(path): tshark found \(other.count)")
        #expect(mine == other, "\(path): beacon \(mine.count), tshark \(other.count); only beacon: \(Set(mine).subtracting(other).prefix(5)); only tshark: \(Set(other).subtracting(mine).prefix(5))")
    }

    /// `beacon decode --capture --json` and tshark find the same beacons, at the same times, in a
    /// generated capture.
    @Test func tsharkAgreesOnAGeneratedCapture() throws {
        try Self.expectAgreement(try Self.generatedCapture())
    }

    /// The same capture as pcapng: converted by `editcap -F pcapng` (little-endian, as Wireshark
    /// writes), rewritten big-endian by ``PcapngFiles``, and both in one file as two sections.
    /// tshark reads each; beacon must find what tshark finds, packet for packet.
    @Test func tsharkAgreesOnPcapngInBothByteOrders() throws {
        let editcap = try Executables.require("editcap", install: "apt-get install tshark").path
        let btsnoop = try Self.generatedCapture()
        let little = try CaptureFiles.write([], name: "generated-le.pcapng")
        let converted = try Program.run(URL(fileURLWithPath: editcap), ["-F", "pcapng", btsnoop, little])
        try #require(converted.status == 0, "editcap failed: \(converted.stderr)")
        let littleBytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: little)))
        try #require(littleBytes.starts(with: [0x0A, 0x0D, 0x0D, 0x0A]) && littleBytes[8..<12] == [0x4D, 0x3C, 0x2B, 0x1A])
        let bigBytes = try #require(PcapngFiles(bigEndian: true).rewrite(littleEndian: littleBytes))
        let big = try CaptureFiles.write(bigBytes, name: "generated-be.pcapng")
        let both = try CaptureFiles.write(littleBytes + bigBytes, name: "generated-sections.pcapng")
        for path in [little, big, both] { try Self.expectAgreement(path) }
        #expect(try Self.beaconIdentities(little) == Self.beaconIdentities(btsnoop))
    }

    /// A sniffer capture (link types 251 and 256, built by ``PcapngFiles``): tshark's Link Layer
    /// dissector finds the same advertisers and beacons.
    @Test func tsharkAgreesOnLinkLayerPackets() throws {
        let w = PcapngFiles(bigEndian: false)
        var file = w.sectionHeader() + w.interface(linkType: 251) + w.interface(linkType: 256, resolution: 9)
        for i in 0..<40 {
            let beacon = IBeacon(uuid: BeaconUUID(high: 0xE2C5_6DB5_DFFB_48D2, low: UInt64(i)), major: UInt16(i), minor: 3, measuredPower: -59)
            let pdu = LinkLayerBytes.advertising(pduType: [0, 2, 4, 6][i % 4], randomAddress: i % 2 == 0,
                                                 address: BluetoothAddress(0xC0_00_00_00_00_00 + UInt64(i)), data: HCIBytes.iBeaconPayload(beacon))
            file += i % 3 == 0
                ? w.enhancedPacket(interface: 1, ticks: 1_700_000_000_000_000_000 + UInt64(i) * 1000,
                                   data: LinkLayerBytes.radioHeader(rssi: -60) + pdu)
                : w.enhancedPacket(interface: 0, ticks: 1_700_000_000_000_000 + UInt64(i), data: pdu)
        }
        try Self.expectAgreement(try CaptureFiles.write(file, name: "sniffer.pcapng"), addressField: "btle.advertising_address", atLeast: 40)
    }
}
