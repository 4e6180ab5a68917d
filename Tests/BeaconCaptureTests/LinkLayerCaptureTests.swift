// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCapture
import BeaconCodec
import Foundation
import HCI
import Testing

/// Sniffer captures (link types 251 and 256, in pcap and pcapng): beacons in the legacy advertising
/// PDUs that carry data, with the advertiser's address and type from the PDU and the RSSI from
/// link type 256's radio header.
@Suite struct LinkLayerCaptureTests {
    static let beacon = IBeacon(uuid: BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!, major: 7, minor: 8, measuredPower: -59)
    static let payload = HCIBytes.iBeaconPayload(beacon)
    static let address = BluetoothAddress(0xD1_22_33_44_55_66)

    /// ADV_IND, ADV_NONCONN_IND, SCAN_RSP, ADV_SCAN_IND carry data; ADV_DIRECT_IND (1), SCAN_REQ (3),
    /// CONNECT_IND (5) and ADV_EXT_IND (7) do not.
    static let pdus: [[UInt8]] = (0..<8).map { type in
        LinkLayerBytes.advertising(pduType: UInt8(type), randomAddress: type != 2, address: address, data: payload)
    }

    @Test func legacyAdvertisingPDUsInPcapng() throws {
        let w = PcapngFiles(bigEndian: true)
        var file = w.sectionHeader() + w.interface(linkType: 251) + w.interface(linkType: 256)
        for (i, pdu) in Self.pdus.enumerated() { file += w.enhancedPacket(interface: 0, ticks: UInt64(i), data: pdu) }
        file += w.enhancedPacket(interface: 1, ticks: 9, data: LinkLayerBytes.radioHeader(rssi: -71) + Self.pdus[2])
        file += w.enhancedPacket(interface: 1, ticks: 10, data: LinkLayerBytes.radioHeader(rssi: nil) + Self.pdus[2])
        // A data-channel packet (another access address) and a coded-PHY one: no beacon.
        var data = Self.pdus[2]
        data[0] = 0x11
        file += w.enhancedPacket(interface: 0, ticks: 11, data: data)
        file += w.enhancedPacket(interface: 1, ticks: 12, data: LinkLayerBytes.radioHeader(rssi: -50, flags: 0x8000) + Self.pdus[2])
        let path = try CaptureFiles.write(file, name: "sniffer.pcapng")
        var found: [CapturedBeacon] = []
        let summary = try CaptureBeaconScan.forEachSighting(path: path) { found.append($0) }
        #expect(summary.records == 12 && summary.skippedRecords == 1 && summary.malformedPackets == 0)
        #expect(found.map(\.recordNumber) == [1, 3, 5, 7, 9, 10])
        #expect(found.allSatisfy { $0.source == .linkLayer && $0.address == Self.address && $0.beacon.iBeacon == Self.beacon })
        #expect(found.map(\.addressType) == [.random, .public, .random, .random, .public, .public])
        #expect(found.map(\.rssi) == [nil, nil, nil, nil, -71, nil])
        #expect(found.map(\.timestamp.nanoseconds) == [0, 2_000, 4_000, 6_000, 9_000, 10_000])
    }

    @Test(arguments: [false, true])
    func pcapLinkTypes251And256(bigEndian: Bool) throws {
        var ll = CaptureFiles.pcapHeader(bigEndian: bigEndian, nanoseconds: false, linkType: 251)
        ll += CaptureFiles.pcapRecord(bigEndian: bigEndian, seconds: 5, fraction: 6, data: Self.pdus[0])
        var phdr = CaptureFiles.pcapHeader(bigEndian: bigEndian, nanoseconds: true, linkType: 256)
        phdr += CaptureFiles.pcapRecord(bigEndian: bigEndian, seconds: 5, fraction: 6, data: LinkLayerBytes.radioHeader(rssi: -40) + Self.pdus[6])
        let first = try CaptureBeaconScan.sightings(path: try CaptureFiles.write(ll))
        #expect(first.map(\.source) == [.linkLayer] && first.first?.rssi == nil && first.first?.timestamp.nanoseconds == 5_000_006_000)
        let second = try CaptureBeaconScan.sightings(path: try CaptureFiles.write(phdr))
        #expect(second.first?.rssi == -40 && second.first?.beacon.iBeacon == Self.beacon && second.first?.timestamp.nanoseconds == 5_000_000_006)
        var reader = try CaptureReader(path: try CaptureFiles.write(phdr))
        #expect(reader.format == .pcapLinkLayerWithPHDR(bigEndian: bigEndian, nanoseconds: true))
        #expect(try reader.nextPacket()?.type == .linkLayer(rssi: -40))
    }

    /// A PDU whose length runs past the packet, or is shorter than AdvA: a malformed packet, counted.
    @Test func malformedPDUsAreCounted() throws {
        var long = Self.pdus[2]
        long[5] = 200
        var short = Self.pdus[2]
        short[5] = 5
        var file = CaptureFiles.pcapHeader(bigEndian: false, nanoseconds: false, linkType: 251)
        for pdu in [long, short, Self.pdus[2]] { file += CaptureFiles.pcapRecord(bigEndian: false, seconds: 1, fraction: 0, data: pdu) }
        var found: [CapturedBeacon] = []
        let summary = try CaptureBeaconScan.forEachSighting(path: try CaptureFiles.write(file)) { found.append($0) }
        #expect(summary.malformedPackets == 2)
        #expect(found.map(\.recordNumber) == [3])
    }
}
