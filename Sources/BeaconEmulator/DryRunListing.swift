// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import BeaconCodec
import BeaconJSON
import HCI

/// A dry run: every HCI command a run would send, in order, as text or JSON Lines, without
/// opening anything (the CLI's `advertise --dry-run` and `play --dry-run`).
///
/// Each command prints as three lines: a comment naming it, its H4 bytes (the packet indicator
/// 0x01, the opcode little-endian, the length, the parameters) and the equivalent
/// `hcitool -i hci0 cmd OGF OCF PARAMETERS` line (HCI's `HCIToolLine`), which BlueZ's hcitool sends
/// as is. With JSON, each command is one object.
public struct DryRunListing: Sendable {
    /// The adapter name for the hcitool lines.
    public var hcitoolAdapter: String

    /// A listing whose hcitool lines name `hcitoolAdapter` (`hci0`).
    public init(hcitoolAdapter: String) {
        self.hcitoolAdapter = hcitoolAdapter
    }

    /// The text lines for one command.
    public func lines(for command: any HCICommand) -> [String] {
        let type = type(of: command)
        return [
            "# \(type.name) (\(type.opcode))",
            Hex.string(command.h4Bytes, separator: " "),
            HCIToolLine.text(command, adapter: hcitoolAdapter),
        ]
    }

    /// One JSON object per command: `adapter`, `section`, `command`, `opcode`, `h4`, `hcitool`.
    public func json(for command: any HCICommand, adapter: String, section: String) -> JSONValue {
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

    /// The dry run of a whole plan, line by line to `emit`: as text, a heading, `summary` (the
    /// plan's ``PlanReport/summary(_:verbose:tableOmitted:namedBy:)``) as comments, then each adapter's
    /// sections (preamble, setup, each turn of one rotation cycle, teardown) and their commands;
    /// as JSON, one object per command. An adapter named `hci…` is named in its hcitool lines,
    /// any other (`virtual`, a socket) as this listing's ``hcitoolAdapter``.
    ///
    /// - Throws: the first command an adapter's controller would refuse, as a real run checks
    ///   before sending anything; what was emitted before it stands.
    public func list(_ plan: FleetPlan, summary: [String], json: Bool, emit: (String) -> Void) throws(CommandRefusal) {
        if !json {
            emit("# dry run: no adapter is opened, nothing is sent")
            for line in summary { emit("# " + line) }
        }
        for adapterPlan in plan.adapters {
            let caps = adapterPlan.capabilities
            let program = AdvertisingProgram(plan: adapterPlan)
            try CommandRefusal.check(program.allCommands, for: caps)
            let listing = DryRunListing(hcitoolAdapter: caps.adapter.text.hasPrefix("hci") ? caps.adapter.text : hcitoolAdapter)
            for section in program.sections {
                if !json { emit("#\n# == \(caps.adapter): \(section.title)") }
                for command in section.commands {
                    if json {
                        emit(listing.json(for: command, adapter: caps.adapter.text, section: section.key).text)
                    } else {
                        listing.lines(for: command).forEach(emit)
                    }
                }
            }
        }
    }
}
