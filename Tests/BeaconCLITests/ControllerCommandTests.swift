// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `stop`, `doctor`, `adapters`, and how adapter failures read.
@Suite struct ControllerCommandTests {
    /// Whether this kernel has Bluetooth sockets (AF_BLUETOOTH is 31, BTPROTO_HCI 1).
    static let kernelHasBluetooth: Bool = {
        let fd = socket(31, Int32(SOCK_RAW.rawValue), 1)
        if fd >= 0 { close(fd); return true }
        return errno != EAFNOSUPPORT
    }()

    @Test func stopOnTheVirtualControllerClearsExtendedSets() throws {
        let result = try BeaconExecutable.run(["stop", "-i", "virtual"])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines.contains { $0.contains("LE Set Extended Advertising Enable") }, "\(result)")
        #expect(result.lines.contains { $0.contains("LE Clear Advertising Sets") }, "\(result)")
        // Those were this process's own controller: it says that another process's virtual
        // advertiser is out of its reach, rather than claim the air is clear.
        #expect(result.lines.contains { $0.hasPrefix("virtual: note: that was this process's own virtual controller")
            && $0.contains("a virtual advertiser in another process cannot be reached") }, "\(result)")
        let json = try BeaconExecutable.run(["stop", "-i", "virtual", "--json"])
        let object = try BeaconExecutable.jsonObject(json.lines.first ?? "")
        #expect((object["note"] as? String)?.contains("another process cannot be reached") == true, "\(json)")
    }

    @Test func stopOnALegacyControllerUsesTheLegacyCommand() throws {
        let result = try BeaconExecutable.run(["stop", "-i", "virtual:legacy"])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines.contains { $0.contains("LE Set Advertising Enable") }, "\(result)")
        #expect(!result.stdout.contains("LE Clear Advertising Sets"), "\(result)")
        let reset = try BeaconExecutable.run(["stop", "-i", "virtual", "--reset"])
        #expect(reset.status == 0 && reset.stdout.contains("HCI Reset"), "\(reset)")
    }

    @Test func stopWritesEveryPacketToBtsnoop() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacon-snoop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("stop.btsnoop").path
        let result = try BeaconExecutable.run(["stop", "-i", "virtual", "--btsnoop", path])
        #expect(result.status == 0, "\(result)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        // "btsnoop\0", version 1, datalink 1002 (H4), then records.
        #expect(bytes.starts(with: Array("btsnoop".utf8) + [0, 0, 0, 0, 1, 0, 0, 0x03, 0xEA]))
        // At least the probe and the two commands, each with its reply: 24-byte record headers.
        #expect(bytes.count > 16 + 10 * 24, "\(bytes.count) bytes")
    }

    /// `--btsnoop` naming the profile being advertised (by another spelling) is refused before
    /// anything runs, and the profile is left as it was.
    @Test func btsnoopRefusesAnInputFile() throws {
        let profile = try BeaconExecutable.temporaryFile(named: "one.yaml", contents: """
            uuid: E2C56DB5-DFFB-48D2-B060-D0F5A71096E0
            major: 1
            minor: 2

            """)
        let directory = URL(fileURLWithPath: profile).deletingLastPathComponent().path
        let result = try BeaconExecutable.run(["advertise", profile, "-i", "virtual", "--duration", "200ms",
                                               "--btsnoop", directory + "/../" + URL(fileURLWithPath: directory).lastPathComponent + "/one.yaml"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("--btsnoop:") && result.stderr.contains("overwritten"), "\(result)")
        #expect(try String(contentsOfFile: profile, encoding: .utf8).hasPrefix("uuid: E2C56DB5"))
    }

    /// Nor may it name the UART the controller is on.
    @Test func btsnoopRefusesTheControllersDevice() throws {
        let device = try BeaconExecutable.temporaryFile(named: "ttyFAKE", contents: "keep")
        let result = try BeaconExecutable.run(["stop", "-i", "serial:\(device)", "--btsnoop", device])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("controller's device"), "\(result)")
        #expect(try String(contentsOfFile: device, encoding: .utf8) == "keep")
    }

    /// A device is not a capture file: /dev/full is refused before anything is sent (it used to
    /// take the run and lose every record); a write failure during a run is in OutputFileSafetyTests.
    @Test func btsnoopRefusesADevice() throws {
        let result = try BeaconExecutable.run(["stop", "-i", "virtual", "--btsnoop", "/dev/full"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("--btsnoop: /dev/full is a character device"), "\(result)")
        #expect(!result.stdout.contains("LE Clear Advertising Sets"), "\(result)")
    }

    @Test func btsnoopRefusesAFIFO() throws {
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("beacon-fifo-\(UUID().uuidString)").path
        try #require(mkfifo(fifo, 0o600) == 0)
        defer { try? FileManager.default.removeItem(atPath: fifo) }
        let result = try BeaconExecutable.run(["stop", "-i", "virtual", "--btsnoop", fifo])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("a FIFO"), "\(result)")
    }

    @Test func doctorReportsTheVirtualControllersCapabilities() throws {
        let text = try BeaconExecutable.run(["doctor", "-i", "virtual:sets=7,version=5.2"])
        #expect(text.status == 0, "\(text)")
        #expect(text.stdout.contains("Bluetooth 5.2"), "\(text)")
        #expect(text.stdout.contains("yes (from LE feature bit 12)"), "\(text)")
        #expect(text.lines.contains { $0.contains("advertising sets") && $0.hasSuffix(" 7") }, "\(text)")

        let json = try BeaconExecutable.run(["doctor", "-i", "virtual:sets=7,version=5.2", "--json"])
        #expect(json.status == 0, "\(json)")
        let report = try BeaconExecutable.jsonObject(json.stdout)
        let adapter = try #require((report["adapters"] as? [[String: Any]])?.first)
        #expect(adapter["hci_version"] as? String == "5.2")
        #expect(adapter["extended_advertising"] as? Bool == true)
        #expect(adapter["advertising_sets"] as? Int == 7)
        #expect(adapter["manufacturer"] as? Int == 0xFFFF)
        #expect(report["host"] is [String: Any])
        #expect(!((report["advice"] as? [String]) ?? []).isEmpty)

        let legacy = try BeaconExecutable.run(["doctor", "-i", "virtual:version=4.2"])
        #expect(legacy.stdout.contains("no (from LE feature bit 12)"), "\(legacy)")
    }

    /// The catalogue of real controllers (issue 36): the Bumble harness reads it from
    /// Tests/Harness/controllers.json, which must be what beacon prints.
    @Test func theHarnessCatalogueIsWhatDoctorPrints() throws {
        let json = try BeaconExecutable.run(["doctor", "--known-controllers", "--json"])
        #expect(json.status == 0, "\(json)")
        let file = try String(contentsOf: PackageRoot.url.appendingPathComponent("Tests/Harness/controllers.json"), encoding: .utf8)
        #expect(file == json.stdout, "Tests/Harness/controllers.json is stale: beacon doctor --known-controllers --json > Tests/Harness/controllers.json")
        let catalogue = try BeaconExecutable.jsonObject(json.stdout)
        let ids = (catalogue["controllers"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
        #expect(ids.count >= 10 && ids.contains("csr8510-clone") && ids.contains("broadcom-bcm4345c0"), "\(ids)")
        let text = try BeaconExecutable.run(["doctor", "--known-controllers"])
        let doc = try String(contentsOf: PackageRoot.url.appendingPathComponent("docs/CONTROLLERS.md"), encoding: .utf8)
        #expect(doc.contains("```text\n" + text.stdout), "docs/CONTROLLERS.md's catalogue is stale: paste beacon doctor --known-controllers")
        #expect(text.stdout.contains("csr8510-clone: CSR8510 clone"), "\(text)")
        #expect(text.stdout.contains("refuses non-connectable advertising below 100 ms"), "\(text)")
        let both = try BeaconExecutable.run(["doctor", "--known-controllers", "-i", "virtual"])
        #expect(both.status == 2 && both.stderr.contains("--known-controllers examines no adapter"), "\(both)")
    }

    @Test func doctorNamesAKnownControllerAndItsLimits() throws {
        let clone = try BeaconExecutable.run(["doctor", "-i", "virtual:model=csr8510-clone", "--json"])
        #expect(clone.status == 0, "\(clone)")
        let adapter = try #require((try BeaconExecutable.jsonObject(clone.stdout)["adapters"] as? [[String: Any]])?.first)
        #expect(adapter["model"] as? String == "csr8510-clone")
        #expect(adapter["lmp_subversion"] as? Int == 0x22BB)
        #expect((adapter["model_limits"] as? [String])?.contains { $0.contains("below 100 ms") } == true, "\(adapter)")
        let plain = try BeaconExecutable.run(["doctor", "-i", "virtual"])
        #expect(plain.stdout.contains("not in the catalogue"), "\(plain)")
    }

    /// A clone that claims 5.0 but keeps 4.x's floor: the plan says so instead of the version's 20 ms.
    @Test func theFloorOfARecognisedCloneIsPlannedFor() throws {
        let profile = try BeaconExecutable.temporaryFile(named: "fast.yaml", contents: "uuid: E2C56DB5-DFFB-48D2-B060-D0F5A71096E0\nmajor: 1\nminor: 1\ninterval: 20\n")
        let plan = try BeaconExecutable.run(["advertise", profile, "-i", "virtual:model=csr8510-clone", "--plan"])
        #expect(plan.stdout.contains("although it claims Bluetooth 5.0"), "\(plan)")
        let honest = try BeaconExecutable.run(["advertise", profile, "-i", "virtual:version=5.0,legacy", "--plan"])
        #expect(!honest.stdout.contains("below 100 ms"), "\(honest)")
    }

    /// Intel AX211 firmware that lists extended advertising and refuses its data (bluez issue
    /// 2270): beacon tries the commands, resets the controller and advertises legacy, and says so.
    @Test func aDegradedAX211IsResetAndAdvertisesLegacy() throws {
        let profile = try BeaconExecutable.temporaryFile(named: "one.yaml", contents: "uuid: E2C56DB5-DFFB-48D2-B060-D0F5A71096E0\nmajor: 1\nminor: 1\n")
        let plan = try BeaconExecutable.run(["advertise", profile, "-i", "virtual:model=intel-ax211-degraded", "--plan"])
        #expect(plan.status == 0, "\(plan)")
        #expect(plan.stdout.contains("legacy"), "\(plan)")
        #expect(plan.stdout.contains("Unknown HCI Command"), "\(plan)")
    }

    @Test(.enabled(if: !kernelHasBluetooth, "this kernel has Bluetooth"))
    func doctorSaysPlainlyThatTheKernelHasNoBluetooth() throws {
        let result = try BeaconExecutable.run(["doctor", "-i", "hci0"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("this kernel has no Bluetooth support"), "\(result)")
        #expect(result.stdout.contains("-i virtual"), "\(result)")
        let adapters = try BeaconExecutable.run(["adapters"])
        #expect(adapters.status == 1, "\(adapters)")
        #expect(adapters.stderr.contains("This kernel has no Bluetooth support"), "\(adapters)")
    }

    @Test(.enabled(if: !kernelHasBluetooth, "this kernel has Bluetooth"))
    func withoutAKernelAdapterAdvertiseNeverFallsBackToTheVirtualController() throws {
        let result = try BeaconExecutable.run(["advertise", "profiles/room-2m.yaml", "--duration", "1"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("-i virtual"), "\(result)")
        #expect(!result.stdout.contains("air "), "\(result)")
        #expect(!result.stderr.contains("plan:"), "\(result)")
    }

    @Test func nothingListeningIsSaidInWords() throws {
        for command in [["doctor"], ["stop"], ["advertise", "profiles/room-2m.yaml"]] {
            let result = try BeaconExecutable.run(command + ["-i", "tcp:127.0.0.1:1"])
            #expect(result.status == 1, "\(command): \(result)")
            #expect((result.stdout + result.stderr).contains("Nothing is listening"), "\(command): \(result)")
        }
    }

    @Test func aSilentPeerTimesOutNamingTheCommand() throws {
        // Accepts (the kernel does, from its backlog) and never answers.
        let listener = try LoopbackListener()
        let started = ContinuousClock.now
        let result = try BeaconExecutable.run(["advertise", "profiles/room-2m.yaml", "-i", "tcp:127.0.0.1:\(listener.port)"])
        let elapsed = ContinuousClock.now - started
        #expect(result.status == 1, "\(result)")
        #expect(elapsed < .seconds(30), "took \(elapsed)") // a hang detector, not a speed test (speeds are in BENCHMARKS.md)
        // The first command of the probe is HCI Reset (we own a TCP controller).
        #expect(result.stderr.contains("no reply to Reset (0x03|0x0003) within 2000 ms"), "\(result)")
    }

    @Test func badAdapterNamesAreUsageErrors() throws {
        for adapter in ["eth0", "tcp:host", "virtual:bogus=1", "virtual:sets=0"] {
            let result = try BeaconExecutable.run(["stop", "-i", adapter])
            #expect(result.status == 2, "\(adapter): \(result)")
        }
    }
}
