// SPDX-License-Identifier: GPL-2.0-or-later
import HCI
import HCITransport
import Mgmt

/// Takes every advertiser of a controller off the air, whatever left it there (a killed run, a
/// crash, another program): what `beacon stop` does.
public enum AdvertisingCleanup {
    /// Stops `hci`'s advertising; returns what was done, one sentence per step.
    ///
    /// The controller is probed without a reset. With extended advertising (LE feature bit 12) it
    /// gets LE Set Extended Advertising Enable (disable all) and LE Clear Advertising Sets; one
    /// that refuses those with Command Disallowed was driven with legacy commands since its last
    /// reset (Core Vol 4 Part E §3.1.1) and, like a controller without extended advertising, gets
    /// LE Set Advertising Enable (off). With `reset`, HCI Reset clears everything instead.
    public static func stopAdvertising(_ hci: HCIController, reset: Bool) async throws(HCIControllerError) -> [String] {
        if reset {
            try await hci.send(HCIReset())
            return ["sent HCI Reset: advertising off, every set removed, the controller back to its power-on state"]
        }
        let caps = try await ControllerProbe.probe(hci, reset: false)
        var done: [String] = []
        if caps.hasExtendedAdvertising {
            do throws(HCIControllerError) {
                try await hci.send(LESetExtendedAdvertisingEnable.disableAll)
                done.append("every advertising set disabled (LE Set Extended Advertising Enable, all sets off)")
                try await hci.send(LEClearAdvertisingSets())
                done.append("every advertising set removed (LE Clear Advertising Sets)")
                return done
            } catch where error.status == .commandDisallowed {
                done.append("the extended commands were refused with Command Disallowed (0x0C): the controller has been in legacy advertising mode since its last reset")
            }
        } else if caps.leFeatures.contains(.leExtendedAdvertising) {
            done.append("the controller refuses the extended commands (Command Disallowed, 0x0C): legacy advertising commands were used since its last reset")
        } else {
            done.append("no extended advertising (LE feature bit 12 clear)")
        }
        try await hci.send(LESetAdvertisingEnable(false))
        done.append("legacy advertising off (LE Set Advertising Enable, off)")
        return done
    }

    /// What `stop` does through the management API: nothing is removed. A run removes its own
    /// instances when it ends; the kernel cannot tell a killed run's instances from other
    /// programs' (bluetoothd's, btmgmt's), and never LE Clear Advertising Sets here: that would
    /// take theirs too. `chosen`: beacon picked this backend for `-i hciN` (bluetoothd running).
    /// The lines name a stop as a `FrontEndTerm`, which the front end names when it presents them.
    public static func stopAdvertising(management mgmt: MgmtController, chosen: Bool) async -> [TermedText] {
        var line = "nothing removed: beacon's runs remove their own kernel instances when they end, and other programs' advertising is left alone"
        if let features = try? await mgmt.send(ReadAdvertisingFeatures()), !features.instances.isEmpty {
            line += " (instances held now: \(features.instances.map(String.init).joined(separator: ", ")))"
        }
        var lines = [TermedText(line)]
        if chosen {
            lines.append("bluetoothd is running, so stop used the management API; to clear the whole controller, bluetoothd's advertising included: \(FrontEndTerm.stopOn(adapter: "raw:hci\(mgmt.index)"))")
        }
        return lines
    }
}
