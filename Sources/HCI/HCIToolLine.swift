// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// `hcitool -i hci0 cmd 0x08 0x0036 00 13 00 …`: one HCI command as the BlueZ `hcitool cmd` line
/// that sends it as is. The one place such lines are written (`encode --format hcitool` and
/// `advertise --dry-run`, through BeaconEmulator's `DryRunListing`, both print through it).
///
/// OGF and OCF are split from the opcode (Core Vol 4 Part E §5.4.1: OGF the top 6 bits, OCF the
/// low 10) and print like hcitool's own examples (`0x08 0x0008`); the parameter bytes follow in
/// upper-case hex, exactly as `HCICommand.parameterBytes` encodes them.
public enum HCIToolLine {
    /// The line that sends `command` on `adapter` (`hci0`).
    public static func text(_ command: any HCICommand, adapter: String) -> String {
        let opcode = type(of: command).opcode
        let ogf = "0x" + Hex.string([opcode.ogf]).lowercased()
        let ocf = "0x" + Hex.string([UInt8(opcode.ocf >> 8), UInt8(opcode.ocf & 0xFF)]).lowercased()
        let parameters = command.parameterBytes
        let tail = parameters.isEmpty ? "" : " " + Hex.string(parameters, separator: " ")
        return "hcitool -i \(adapter) cmd \(ogf) \(ocf)\(tail)"
    }
}
