// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import Foundation
import Testing
import TestSupport

/// `beacon locate profiles/room-2m.yaml --capture FILE`, end to end: a capture of the room's four
/// beacons heard from (0.3, 0.2) at the path-loss RSSI (n = 2, measured power −59) must locate
/// there, whether the capture is pcap, pcapng, or a sniffer's pcapng (Link Layer packets with RSSI).
@Suite struct LocateFromCaptureTests {
    @Test(arguments: ["pcap", "pcapng", "sniffer.pcapng"])
    func locatesTheReceiverFromReports(container: String) throws {
        let beacon = try Executables.beacon.get().path
        let uuid = BeaconUUID("25795A1D-C318-47F0-A49D-7A2D1D58C79E")!
        let anchors: [(minor: UInt16, x: Double, y: Double)] = [(0, -1, 0), (1, 0, 1), (2, 1, 0), (3, 0, -1)]
        let receiver = (x: 0.3, y: 0.2)
        var file = CaptureFiles.pcapHeader(bigEndian: true, nanoseconds: false, linkType: 201)
        let pcapng = PcapngFiles(bigEndian: true)
        if container == "pcapng" { file = pcapng.sectionHeader() + pcapng.interface(linkType: 201) }
        if container == "sniffer.pcapng" { file = pcapng.sectionHeader() + pcapng.interface(linkType: 256) }
        for tick in 0..<30 {
            for (i, a) in anchors.enumerated() {
                let d = hypot(receiver.x - a.x, receiver.y - a.y)
                // Alternate ±1 dB around the model so the mean is exact and the fit still has work.
                let rssi = Int8((-59 - 20 * log10(d)).rounded()) + (tick % 2 == 0 ? 1 : -1)
                let payload = HCIBytes.iBeaconPayload(IBeacon(uuid: uuid, major: 1, minor: a.minor, measuredPower: -59))
                let event = HCIBytes.advertisingReport([(BluetoothAddress(0xC0_00_00_00_00_00 | UInt64(i)), 1, payload, rssi)])
                let seconds = 1_700_000_000 + UInt32(tick / 10), micros = UInt32(tick % 10) * 100_000 + UInt32(i) * 1000
                switch container {
                case "pcap":
                    file += CaptureFiles.pcapRecord(bigEndian: true, seconds: seconds, fraction: micros,
                                                    data: CaptureFiles.be32(1) + [0x04] + event)
                case "pcapng":
                    file += pcapng.enhancedPacket(interface: 0, ticks: UInt64(seconds) * 1_000_000 + UInt64(micros),
                                                  data: CaptureFiles.be32(1) + [0x04] + event)
                default:
                    let pdu = LinkLayerBytes.advertising(pduType: 2, randomAddress: true,
                                                         address: BluetoothAddress(0xC0_00_00_00_00_00 | UInt64(i)), data: payload)
                    file += pcapng.enhancedPacket(interface: 0, ticks: UInt64(seconds) * 1_000_000 + UInt64(micros),
                                                  data: LinkLayerBytes.radioHeader(rssi: rssi) + pdu)
                }
            }
        }
        let path = try CaptureFiles.write(file, name: "room.\(container)")
        let fleet = PackageRoot.url.appendingPathComponent("profiles/room-2m.yaml").path
        let result = try Program.run(URL(fileURLWithPath: beacon), ["locate", fleet, "--capture", path, "--json"])
        try #require(result.status == 0, "beacon locate failed: \(result.stderr)")
        let fixes = result.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(fixes.count == 3)
        for fix in fixes {
            let x = try #require(fix["x"] as? Double), y = try #require(fix["y"] as? Double)
            // Whole-dB rounding of the RSSI moves ranges by up to ~6 %: a few centimetres here.
            #expect(hypot(x - receiver.x, y - receiver.y) < 0.1, "fix \(fix)")
            #expect(fix["beacons"] as? Int == 4)
            // Times count from the first report, as with --trace (the capture's are epoch seconds).
            let time = try #require((fix["time"] as? NSNumber)?.doubleValue)
            #expect(time >= 0 && time < 3, "fix \(fix)")
        }
        // The same capture through a pipe: `-` is standard input.
        let piped = try Program.run(URL(fileURLWithPath: "/bin/bash"),
                                    ["-c", "cat \"$2\" | \"$0\" locate \"$1\" --capture - --json", beacon, fleet, path])
        #expect(piped.status == 0 && piped.stdout == result.stdout, "\(piped)")
    }
}
