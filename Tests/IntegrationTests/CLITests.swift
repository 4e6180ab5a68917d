// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconProfiles
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension BumbleIntegration {
    /// The `beacon` binary itself against Bumble: `doctor`, `advertise` (and its SIGTERM stop), `cycle`.
    @Suite("beacon CLI on Bumble")
    struct CLITests {
        @Test("beacon doctor names the HCI version, extended advertising and the set count")
        func doctor() async throws {
            try await withBumble(["--max-sets", "7"]) { link in
                let result = try BeaconCLI.run(["doctor", "-i", "tcp:127.0.0.1:\(link.port)"])
                let text = result.stdout + result.stderr
                #expect(result.status == 0, "\(text)")
                // The adapter section: one "label  value" line per fact.
                func value(_ label: String) -> String? {
                    result.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                        .first { $0.hasPrefix(label + " ") }.map { String($0.dropFirst(label.count)).trimmingCharacters(in: .whitespaces) }
                }
                #expect(value("HCI version")?.hasPrefix("Bluetooth 5.0") == true, "\(text)")
                #expect(value("extended advertising")?.hasPrefix("yes") == true, "\(text)")
                #expect(value("advertising sets") == "7", "\(text)")
                #expect(value("address")?.hasPrefix(link.ready.address) == true, "\(text)")
                #expect(try await link.requestSets().isClean, "doctor must leave nothing on air")
            }
        }

        @Test("beacon doctor --json on a legacy-only controller", arguments: [["--no-extended"], ["--hci-version", "4.2"]])
        func doctorJSON(_ arguments: [String]) async throws {
            try await withBumble(arguments) { link in
                let result = try BeaconCLI.run(["doctor", "-i", "tcp:127.0.0.1:\(link.port)", "--json"])
                #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
                let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
                let adapter = try #require((object?["adapters"] as? [[String: Any]])?.first, "\(result.stdout)")
                #expect(adapter["adapter"] as? String == "tcp:127.0.0.1:\(link.port)")
                #expect(adapter["hci_version"] as? String == (arguments.contains("4.2") ? "4.2" : "5.0"))
                #expect(adapter["extended_advertising"] as? Bool == false)
                #expect((adapter["maximum_data_length"] as? NSNumber)?.intValue == 31)
                #expect(adapter["address"] as? String == link.ready.address)
            }
        }

        @Test("beacon advertise profiles/bm1.yaml is received with exact fields")
        func advertiseBM1() async throws {
            let profiles = try BeaconExpectations.shipped("bm1.yaml")
            try await withBumble { link in
                let started = BumbleLink.now()
                let result = try BeaconCLI.run(["advertise", "profiles/bm1.yaml", "-i", "tcp:127.0.0.1:\(link.port)", "--duration", "2"])
                #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
                let first = BeaconExpectations.checkAll(link.advs(since: started), from: profiles)
                #expect(first.count == 1, "bm1 received")
                #expect(try await link.requestSets().isClean)
            }
        }

        @Test("SIGTERM stops beacon advertise: exit 0, silence within 200 ms, no sets left")
        func sigterm() async throws {
            let profiles = try BeaconExpectations.shipped("room-2m.yaml")
            let addresses = Set(profiles.map(\.address.description))
            try await withBumble { link in
                let run = try BeaconCLI.start(["advertise", "profiles/room-2m.yaml", "-i", "tcp:127.0.0.1:\(link.port)"])
                let heard = await link.waitFor(timeout: .seconds(60)) { Set($0.advs().map(\.address)).isSuperset(of: addresses) }
                #expect(heard, "all four room-2m beacons on air: \(run.output)")
                let signalled = BumbleLink.now()
                run.send(SIGTERM)
                let status = await run.waitForExit(timeout: .seconds(60))
                #expect(status == 0, "exit status after SIGTERM: \(status.map(String.init) ?? "none within 5 s")\n\(run.output)")
                try await Task.sleep(for: .milliseconds(500))
                let last = link.advs().filter { addresses.contains($0.address) }.last
                #expect((last?.time ?? 0) <= signalled + 0.2, "last advertisement \(((last?.time ?? 0) - signalled) * 1000) ms after SIGTERM")
                #expect(try await link.requestSets().isClean)
                BeaconExpectations.checkAll(link.advs(), from: profiles)
            }
        }

        @Test("beacon cycle --dwell 1s --once: three beacons in order, about a second each")
        func cycle() async throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacon-integ-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let path = directory.appendingPathComponent("trio.yaml").path
            try Data("""
                name: trio
                defaults:
                  uuid: 7D0C9E52-3A61-4F0B-8C2E-9B5A4D1E6F07
                  major: 9
                beacons:
                  - {name: trio-a, minor: 1}
                  - {name: trio-b, minor: 2}
                  - {name: trio-c, minor: 3}

                """.utf8).write(to: URL(fileURLWithPath: path))
            let profiles = try ProfileLoader.load(contentsOf: path).beacons
            #expect(profiles.map(\.name) == ["trio-a", "trio-b", "trio-c"])
            try await withBumble { link in
                let started = BumbleLink.now()
                let result = try BeaconCLI.run(["cycle", path, "-i", "tcp:127.0.0.1:\(link.port)", "--dwell", "1s", "--once"])
                #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
                let advs = link.advs(since: started)
                BeaconExpectations.checkAll(advs, from: profiles)
                var spans: [(first: Double, last: Double)] = []
                for p in profiles {
                    let times = advs.filter { $0.address == p.address.description }.map(\.time)
                    guard let first = times.first, let last = times.last else {
                        Issue.record("\(p.name) never received")
                        continue
                    }
                    spans.append((first, last))
                    // On air for the 1 s dwell at 100 ms: first to last event spans about 0.9 s.
                    #expect((0.7...1.2).contains(last - first), "\(p.name) seen for \(last - first) s")
                }
                // In order, one at a time.
                for (a, b) in zip(spans, spans.dropFirst()) {
                    #expect(a.last < b.first, "the next beacon came on air before the previous one left")
                    #expect(b.first - a.first > 0.8 && b.first - a.first < 1.4, "turns start about 1 s apart: \(b.first - a.first) s")
                }
                #expect(try await link.requestSets().isClean)
            }
        }
    }
}
