// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import Foundation
import Testing

/// What `doctor` reads of the machine, read through the system-call seam.
@Suite struct HostDiagnosisTests {
    @Test func onlyBluetoothRFKillSwitchesAreListedWithTheirState() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("beacon-rfkill-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        for (entry, type, name, soft, hard) in [("rfkill1", "wlan", "phy0", "0", "0"), ("rfkill0", "bluetooth", "hci0", "1", "0")] {
            try FileManager.default.createDirectory(atPath: "\(root)/\(entry)", withIntermediateDirectories: true)
            for (file, value) in [("type", type), ("name", name), ("soft", soft), ("hard", hard)] {
                try "\(value)\n".write(toFile: "\(root)/\(entry)/\(file)", atomically: false, encoding: .utf8)
            }
        }
        let switches = HostDiagnosis.rfkillSwitches(root: root)
        #expect(switches.map(\.name) == ["hci0"] && switches.map(\.soft) == [true] && switches.map(\.hard) == [false])
        #expect(HostDiagnosis.rfkillSwitches(root: root + "/missing").isEmpty)
    }

    @Test func thisProcessIsFoundByItsName() throws {
        let name = try String(contentsOfFile: "/proc/self/comm", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(HostDiagnosis.processes(named: name).contains(Int(getpid())))
        #expect(HostDiagnosis.effectiveCapabilities() != nil, "CapEff is in /proc/self/status")
        #expect(HostDiagnosis.examine().kernelRelease?.isEmpty == false)
    }
}
