// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import Foundation
import Testing
import TestSupport

/// `beacon locate` with anchors of other formats: a room of an AltBeacon and three Eddystone-UID
/// beacons (power at 0 m −18, so −59 at 1 m), heard from (0.3, 0.2) at the path-loss RSSI,
/// located from a capture and from a `scan --json`-style trace alike.
@Suite struct LocateOtherFormatsTests {
    static let uuid = BeaconUUID("25795A1D-C318-47F0-A49D-7A2D1D58C79E")!
    static let namespace = EddystoneNamespace("8B0CA750E7A74E14BD99")!
    static let fleet = """
        name: mixed-room
        beacons:
          - {name: west, format: altbeacon, uuid: 25795A1D-C318-47F0-A49D-7A2D1D58C79E, major: 1, minor: 0, measured_power: -59, position: {x: -1, y: 0}}
          - {name: north, format: eddystone-uid, namespace: 8B0CA750E7A74E14BD99, instance: "000000000001", power_at_0m: -18, position: {x: 0, y: 1}}
          - {name: east, format: eddystone-uid, namespace: 8B0CA750E7A74E14BD99, instance: "000000000002", power_at_0m: -18, position: {x: 1, y: 0}}
          - {name: south, format: eddystone-uid, namespace: 8B0CA750E7A74E14BD99, instance: "000000000003", power_at_0m: -18, position: {x: 0, y: -1}}
        """
    static let anchors: [(beacon: AnyBeacon, x: Double, y: Double)] = [
        (.altBeacon(AltBeacon(id: AltBeaconID(prefix: uuid, suffix: 0x0001_0000), referenceRSSI: -59)), -1, 0),
        (.eddystoneUID(EddystoneUID(namespace: namespace, instance: EddystoneInstance(1), txPower: -18)), 0, 1),
        (.eddystoneUID(EddystoneUID(namespace: namespace, instance: EddystoneInstance(2), txPower: -18)), 1, 0),
        (.eddystoneUID(EddystoneUID(namespace: namespace, instance: EddystoneInstance(3), txPower: -18)), 0, -1),
    ]
    static let receiver = (x: 0.3, y: 0.2)

    /// The RSSI at `tick` from anchor `a`: the model's, ±1 dB alternately (an exact mean).
    static func rssi(_ a: (beacon: AnyBeacon, x: Double, y: Double), tick: Int) -> Int8 {
        let d = hypot(receiver.x - a.x, receiver.y - a.y)
        return Int8((-59 - 20 * log10(d)).rounded()) + (tick % 2 == 0 ? 1 : -1)
    }

    static func check(_ result: ProgramOutput) throws {
        try #require(result.status == 0, "beacon locate failed: \(result.stderr)")
        let fixes = result.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(fixes.count == 3)
        for fix in fixes {
            let x = try #require(fix["x"] as? Double), y = try #require(fix["y"] as? Double)
            #expect(hypot(x - receiver.x, y - receiver.y) < 0.1, "fix \(fix)")
            #expect(fix["beacons"] as? Int == 4)
        }
    }

    @Test func locatesFromACapture() throws {
        var file = CaptureFiles.pcapHeader(bigEndian: true, nanoseconds: false, linkType: 201)
        for tick in 0..<30 {
            for (i, a) in Self.anchors.enumerated() {
                let payload = Array(a.beacon.advertisingData())
                let event = HCIBytes.advertisingReport([(BluetoothAddress(0xC0_00_00_00_00_00 | UInt64(i)), 1, payload, Self.rssi(a, tick: tick))])
                file += CaptureFiles.pcapRecord(bigEndian: true, seconds: 1_700_000_000 + UInt32(tick / 10),
                                                fraction: UInt32(tick % 10) * 100_000 + UInt32(i) * 1000,
                                                data: CaptureFiles.be32(1) + [0x04] + event)
            }
        }
        let capture = try CaptureFiles.write(file, name: "mixed-room.pcap")
        let fleet = try CaptureFiles.write(Array(Self.fleet.utf8), name: "mixed-room.yaml")
        try Self.check(try Program.run(try Executables.beacon.get(), ["locate", fleet, "--capture", capture, "--json"]))

        // decode --capture finds them too: every report, with the format's own fields.
        let decoded = try Program.run(try Executables.beacon.get(), ["decode", "--capture", capture, "--json"])
        #expect(decoded.status == 0, "\(decoded.stderr)")
        let objects = decoded.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(objects.count == 120)
        #expect(objects.filter { $0["format"] as? String == "eddystone-uid" }.count == 90)
        #expect(objects.filter { $0["format"] as? String == "altbeacon" && $0["id"] as? String == "25795A1D-C318-47F0-A49D-7A2D1D58C79E-00010000" }.count == 30)
        #expect(objects.allSatisfy { $0["source"] as? String == "report" && $0["rssi"] != nil })
        let table = try Program.run(try Executables.beacon.get(), ["decode", "--capture", capture])
        #expect(table.stdout.contains("eddystone-uid 8B0CA750E7A74E14BD99 000000000003"), "\(table.stdout.prefix(400))")
        #expect(decoded.stderr.contains("120 beacons in 120 records"), "\(decoded.stderr)")
    }

    @Test func locatesFromAScanTrace() throws {
        var lines: [String] = []
        for tick in 0..<30 {
            for a in Self.anchors {
                let time = Double(tick) / 10
                let rssi = Self.rssi(a, tick: tick)
                switch a.beacon {
                case .altBeacon(let b):
                    lines.append(#"{"time":\#(time),"event":"report","format":"altbeacon","id":"\#(b.id)","manufacturer":280,"power":-59,"reserved":0,"rssi":\#(rssi)}"#)
                case .eddystoneUID(let b):
                    lines.append(#"{"time":\#(time),"event":"report","format":"eddystone-uid","namespace":"\#(b.namespace)","instance":"\#(b.instance)","power_at_0m":-18,"rssi":\#(rssi)}"#)
                default:
                    Issue.record("unexpected anchor")
                }
            }
            // A TLM frame in the trace carries no identity: skipped.
            lines.append(#"{"time":\#(Double(tick) / 10),"event":"report","format":"eddystone-tlm","battery_mv":3000,"rssi":-60}"#)
        }
        let trace = try CaptureFiles.write(Array((lines.joined(separator: "\n") + "\n").utf8), name: "mixed-room.jsonl")
        let fleet = try CaptureFiles.write(Array(Self.fleet.utf8), name: "mixed-room.yaml")
        try Self.check(try Program.run(try Executables.beacon.get(), ["locate", fleet, "--trace", trace, "--json"]))
    }
}
