// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconAdapters
import BeaconEmulator
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

    /// One step of the program: a named group of commands.
    struct Section {
        /// `preamble`, `setup`, `slot 1`, `teardown`.
        var key: String
        /// The key with what the step does.
        var title: String
        var commands: [any HCICommand]
    }

    /// Preamble, setup, each slot of one rotation cycle (slot 1, 2, … then back to slot 0),
    /// teardown.
    static func sections(_ program: AdvertisingProgram) -> [Section] {
        var sections = [Section(key: "preamble", title: "preamble: nothing on air, no sets (whatever an earlier run left)", commands: program.preamble)]
        sections.append(Section(key: "setup", title: "setup: slot 0 on air (\(onAir(program, slot: 0)))", commands: program.setup))
        let count = program.slots.count
        if count > 1 {
            for k in Array(1..<count) + [0] {
                sections.append(Section(key: "slot \(k)", title: "slot \(k): \(onAir(program, slot: k))", commands: program.slots[k]))
            }
        }
        sections.append(Section(key: "teardown", title: "teardown: advertising off, sets removed", commands: program.teardown))
        return sections
    }

    static func onAir(_ program: AdvertisingProgram, slot: Int) -> String {
        let state = program.states[slot]
        let names = state.keys.sorted().map { handle in
            (program.extended ? "set \(handle) " : "") + state[handle]!.beaconName
        }
        return names.isEmpty ? "nothing" : names.joined(separator: ", ")
    }

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
