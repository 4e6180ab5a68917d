// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension BumbleIntegration {
    /// `beacon advertise` on controller A, `beacon scan` on controller B, through Bumble's link
    /// (`bumble_link.py --scanner-port`): what a phone next to the box would see.
    @Suite("beacon scan")
    struct ScanIntegrationTests {
        /// One JSON line of `beacon scan --json`.
        struct Line {
            var object: [String: Any]
            var event: String { object["event"] as? String ?? "" }
            var time: Double { (object["time"] as? NSNumber)?.doubleValue ?? .nan }
            var minor: Int? { (object["minor"] as? NSNumber)?.intValue }

            init?(_ text: String) {
                guard let o = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else { return nil }
                object = o
            }

            /// uuid/major/minor/power of a report or a ranged beacon.
            static func fields(_ o: [String: Any]) -> String {
                let n = { (k: String) in (o[k] as? NSNumber).map { String($0.intValue) } ?? "nil" }
                return "\(o["uuid"] as? String ?? "nil") \(n("major")) \(n("minor")) \(n("power"))"
            }
        }

        static func lines(_ text: String) -> [Line] { text.split(separator: "\n").compactMap { Line(String($0)) } }

        @Test("room-2m advertised on A, scanned on B: exact fields, enter, ranging, exit after --exit-after 1s")
        func room() async throws {
            let profiles = try BeaconExpectations.shipped("room-2m.yaml")
            let expected = Set(profiles.map { "\($0.iBeacon!.uuid) \($0.iBeacon!.major) \($0.iBeacon!.minor) \($0.iBeacon!.measuredPower)" })
            #expect(expected.count == 4)
            try await withBumble(["--scanner-port", "0"]) { link in
                // The harness binds the port itself (0: the kernel picks): no window for another process to take it.
                let scannerPort = link.scannerPort
                let scan = try BeaconCLI.start(["scan", "-i", "tcp:127.0.0.1:\(scannerPort)", "--json", "--exit-after", "1s", "--duration", "30s"])
                let scanning = await link.waitFor(timeout: .seconds(60)) { _ in scan.stdout.contains("\"event\":\"scanning\"") }
                try #require(scanning, "beacon scan started: \(scan.output)")

                let advertise = try BeaconCLI.run(["advertise", "profiles/room-2m.yaml", "-i", "tcp:127.0.0.1:\(link.port)", "--duration", "3s"])
                #expect(advertise.status == 0, "\(advertise.stdout)\(advertise.stderr)")

                // Every beacon exits about a second after advertising stopped.
                let exited = await link.waitFor(timeout: .seconds(60)) { _ in
                    Self.lines(scan.stdout).filter { $0.event == "exit" }.count >= 4
                }
                scan.send(SIGINT)
                let status = await scan.waitForExit(timeout: .seconds(60))
                #expect(status == 0, "beacon scan exit status after SIGINT\n\(scan.output)")
                try #require(exited, "four exits\n\(scan.output)")

                let lines = Self.lines(scan.stdout)
                #expect(lines.first?.event == "scanning")
                #expect(lines.first?.object["mode"] as? String == "extended", "Bumble's B has LE Extended Advertising")
                #expect(lines.last?.event == "stopped", "scanning turned off on SIGINT")

                // Reports: exactly the four beacons, with their uuid/major/minor/power; RSSI is Bumble's −50.
                let reports = lines.filter { $0.event == "report" }
                #expect(Set(reports.map { Line.fields($0.object) }) == expected)
                #expect(reports.allSatisfy { ($0.object["rssi"] as? NSNumber)?.intValue == -50 })
                let addresses = Set(profiles.map(\.address.description))
                #expect(Set(reports.compactMap { $0.object["address"] as? String }) == addresses, "each from its profile's address")
                for p in profiles {
                    let count = reports.filter { $0.minor == Int(p.iBeacon!.minor) }.count
                    #expect(count >= 15, "\(p.name): about 30 reports in 3 s at 100 ms; got \(count)")
                }

                // One enter per beacon, before its first report's ranging; the first enters the region.
                let enters = lines.filter { $0.event == "enter" }
                #expect(enters.compactMap(\.minor).sorted() == [0, 1, 2, 3])
                #expect(enters.map { $0.object["region_changed"] as? Bool } == [true, false, false, false])

                // One exit per beacon, `--exit-after` (1 s) after its last report; the last exits the region.
                let exits = lines.filter { $0.event == "exit" }
                #expect(exits.compactMap(\.minor).sorted() == [0, 1, 2, 3])
                #expect(exits.map { $0.object["region_changed"] as? Bool } == [false, false, false, true])
                for exit in exits {
                    let last = reports.filter { $0.minor == exit.minor }.map(\.time).max() ?? .nan
                    #expect(abs(exit.time - (last + 1)) < 0.01, "minor \(exit.minor ?? -1): exit at \(exit.time), last report at \(last)")
                }

                // Ranging about once a second; while advertising, all four at −50 dBm → immediate.
                let ranging = lines.filter { $0.event == "ranging" }
                #expect(ranging.count >= 4, "\(ranging.count) ranging updates")
                // (The last update comes when scanning stops, right after SIGINT: not a full second.)
                let periodic = ranging.dropLast()
                let gaps = zip(periodic.dropFirst(), periodic).map { $0.time - $1.time }
                // Never early; how late on a busy machine is no verdict (the bound catches a stall).
                #expect(gaps.allSatisfy { $0 > 0.8 && $0 < 10 }, "ranging intervals \(gaps)")
                let full = ranging.compactMap { $0.object["beacons"] as? [[String: Any]] }.filter { list in
                    list.count == 4 && list.allSatisfy { ($0["proximity"] as? String) == "immediate" }
                }
                try #require(!full.isEmpty, "a ranging update with all four beacons immediate")
                for b in full[0] {
                    #expect(expected.contains(Line.fields(b)))
                    #expect((b["rssi"] as? NSNumber)?.doubleValue == -50)
                    // AltBeacon at −50 dBm, measured power −59: (50/59)^10 = 0.19 m.
                    #expect((b["accuracy"] as? NSNumber)?.doubleValue == 0.19)
                    #expect(((b["reports_per_second"] as? NSNumber)?.doubleValue ?? 0) >= 5)
                }
                // After the exits the beacons are still listed, but unknown.
                let lastList = ranging.last?.object["beacons"] as? [[String: Any]] ?? []
                #expect(lastList.count == 4 && lastList.allSatisfy { ($0["proximity"] as? String) == "unknown" })
            }
        }
    }
}

/// `beacon scan` against the built-in virtual controller (strict spec rules, no Bumble needed):
/// the commands it sends, the mode it picks, its clean stop, and its usage errors.
@Suite("beacon scan on the virtual controller")
struct ScanCommandTests {
    /// The opcodes of the commands in an H4 btsnoop file (`BTSnoopWriter`'s format), in order,
    /// with each command's parameters.
    static func sentCommands(_ path: String) throws -> [(opcode: UInt16, parameters: [UInt8])] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(bytes.count >= 16 && Array(bytes[0..<8]) == Array("btsnoop\0".utf8))
        func word(_ i: Int) -> Int { bytes[i..<(i + 4)].reduce(0) { $0 << 8 | Int($1) } }
        var out: [(UInt16, [UInt8])] = []
        var i = 16
        while i + 24 <= bytes.count {
            let included = word(i + 4)
            let flags = word(i + 8)
            let data = Array(bytes[(i + 24)..<min(bytes.count, i + 24 + included)])
            // Sent (bit 0 clear), H4 command packets: 01, opcode (LE), length, parameters.
            if flags & 1 == 0, data.count >= 4, data[0] == 0x01 {
                out.append((UInt16(data[1]) | UInt16(data[2]) << 8, Array(data[4...])))
            }
            i += 24 + included
        }
        return out
    }

    @Test("reset, event masks, passive scan with the right family, off again on SIGINT", arguments: [
        ("virtual", "extended", UInt16(0x2041), UInt16(0x2042)),
        ("virtual:version=4.2", "legacy", UInt16(0x200B), UInt16(0x200C)),
    ])
    func commands(adapter: String, mode: String, parameters: UInt16, enable: UInt16) async throws {
        let snoop = FileManager.default.temporaryDirectory.appendingPathComponent("beacon-scan-\(UUID().uuidString).btsnoop").path
        defer { try? FileManager.default.removeItem(atPath: snoop) }
        let scan = try BeaconCLI.start(["scan", "-i", adapter, "--json", "--btsnoop", snoop])
        let deadline = ContinuousClock.now + .seconds(10)
        while !scan.stdout.contains("\"event\":\"ranging\""), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        scan.send(SIGINT)
        let status = await scan.waitForExit(timeout: .seconds(60))
        #expect(status == 0, "\(scan.output)")
        let lines = scan.stdout.split(separator: "\n")
        #expect(lines.first?.contains("\"mode\":\"\(mode)\"") == true, "\(scan.output)")
        #expect(lines.last?.contains("\"event\":\"stopped\"") == true, "\(scan.output)")

        // The probe (BeaconAdapters' ControllerProbe: HCI Reset first, then only read-outs), then
        // Set Event Mask, LE Set Event Mask, then the scan.
        let all = try Self.sentCommands(snoop)
        let probe = all.prefix { probeOpcodes.contains($0.opcode) }
        #expect(probe.first?.opcode == 0x0C03 && probe.contains { $0.opcode == 0x2003 }, "\(all.map { String($0.opcode, radix: 16) })")
        let sent = Array(all.dropFirst(probe.count))
        #expect(sent.map(\.opcode) == [0x0C01, 0x2001, parameters, enable, enable], "\(all.map { String($0.opcode, radix: 16) })")
        guard sent.count == 5 else { return }
        // Set Event Mask: the reset default 0x00001FFFFFFFFFFF plus LE Meta (bit 61), little-endian.
        #expect(sent[0].parameters == [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x1F, 0x00, 0x20])
        // LE Set Event Mask: default 0x1F plus bit 1 (already in it) and bit 12 (extended reports).
        #expect(sent[1].parameters == [0x1F, 0x10, 0, 0, 0, 0, 0, 0])
        if mode == "extended" {
            // Public own address, no filter, LE 1M only: passive, 30 ms interval and window.
            #expect(sent[2].parameters == [0x00, 0x00, 0x01, 0x00, 0x30, 0x00, 0x30, 0x00])
            #expect(sent[3].parameters == [0x01, 0x00, 0x00, 0x00, 0x00, 0x00], "on, duplicates not filtered, no duration or period")
            #expect(sent[4].parameters == [0x00, 0x00, 0x00, 0x00, 0x00, 0x00], "off")
        } else {
            #expect(sent[2].parameters == [0x00, 0x30, 0x00, 0x30, 0x00, 0x00, 0x00], "passive, 30 ms, public, no filter")
            #expect(sent[3].parameters == [0x01, 0x00], "on, duplicates not filtered")
            #expect(sent[4].parameters == [0x00, 0x00], "off")
        }
    }

    @Test("usage errors exit 2 and name the problem", arguments: [
        (["--major", "1"], "--major needs --uuid"),
        (["--uuid", "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "--minor", "1"], "--minor needs --major"),
        (["--uuid", "nope"], "--uuid must be a UUID"),
        (["--uuid", "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "--major", "70000"], "--major must be from 0 to 65535"),
        (["--model", "magic"], "--model"),
        (["--path-loss-exponent", "0"], "--path-loss-exponent must be above 0"),
        (["--exit-after", "0s"], "--exit-after"),
        (["-i", "hci0,hci1"], "one controller"),
        (["-i", "all"], "one controller"),
    ])
    func usage(arguments: [String], message: String) throws {
        let result = try BeaconCLI.run(["scan", "--duration", "1s"] + arguments)
        #expect(result.status == 2, "\(arguments): \(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
    }
}
