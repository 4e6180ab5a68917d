// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconJSON
import HCI

/// `advertise --dry-run`: every HCI command a run would send, in order, without opening anything.
///
/// Each command prints as three lines: a comment naming it, its H4 bytes (the packet indicator
/// 0x01, the opcode little-endian, the length, the parameters) and the equivalent
/// `hcitool -i hci0 cmd OGF OCF PARAMETERS` line, which BlueZ's hcitool sends as is.
struct DryRunListing {
    /// The adapter name for the hcitool lines.
    var hcitoolAdapter: String

    /// The text lines for one command.
    func lines(for command: any HCICommand) -> [String] {
        let type = type(of: command)
        return [
            "# \(type.name) (\(type.opcode))",
            Hex.string(command.h4Bytes, separator: " "),
            HCIToolLine.text(command, adapter: hcitoolAdapter),
        ]
    }

    /// One JSON object per command.
    func json(for command: any HCICommand, adapter: String, section: String) -> JSONValue {
        let type = type(of: command)
        return .object([
            ("adapter", .string(adapter)),
            ("section", .string(section)),
            ("command", .string(type.name)),
            ("opcode", .string("0x" + Hex.string([UInt8(type.opcode.rawValue >> 8), UInt8(type.opcode.rawValue & 0xFF)]))),
            ("h4", .string(Hex.string(command.h4Bytes))),
            ("hcitool", .string(HCIToolLine.text(command, adapter: hcitoolAdapter))),
        ])
    }
}
