// SPDX-License-Identifier: GPL-2.0-or-later
import HCI

/// Where each command the virtual controller implements sits in the Supported_Commands bit mask
/// of Read Local Supported Commands (Core Vol 4 Part E §6.27: octet, bit). Read Local Supported
/// Commands itself has no bit in that table.
enum SupportedCommands {
    /// Commands every configuration implements.
    static let base: [(opcode: UInt16, octet: Int, bit: Int)] = [
        (0x0C01, 5, 6),  // Set Event Mask
        (0x0C03, 5, 7),  // Reset
        (0x1001, 14, 3),  // Read Local Version Information
        (0x1009, 15, 1),  // Read BD_ADDR
        (0x2001, 25, 0),  // LE Set Event Mask
        (0x2003, 25, 2),  // LE Read Local Supported Features
        (0x2005, 25, 4),  // LE Set Random Address
        (0x2006, 25, 5),  // LE Set Advertising Parameters
        (0x2007, 25, 6),  // LE Read Advertising Physical Channel Tx Power
        (0x2008, 25, 7),  // LE Set Advertising Data
        (0x2009, 26, 0),  // LE Set Scan Response Data
        (0x200A, 26, 1),  // LE Set Advertising Enable
        (0x200B, 26, 2),  // LE Set Scan Parameters
        (0x200C, 26, 3),  // LE Set Scan Enable
    ]

    /// Introduced by Bluetooth 5.0 but not part of extended advertising.
    static let fiveZero: [(opcode: UInt16, octet: Int, bit: Int)] = [
        (0x204B, 38, 7),  // LE Read Transmit Power
    ]

    /// The extended advertising and extended scanning commands (LE feature bit 12).
    static let extended: [(opcode: UInt16, octet: Int, bit: Int)] = [
        (0x2035, 36, 1),  // LE Set Advertising Set Random Address
        (0x2036, 36, 2),  // LE Set Extended Advertising Parameters
        (0x2037, 36, 3),  // LE Set Extended Advertising Data
        (0x2038, 36, 4),  // LE Set Extended Scan Response Data
        (0x2039, 36, 5),  // LE Set Extended Advertising Enable
        (0x203A, 36, 6),  // LE Read Maximum Advertising Data Length
        (0x203B, 36, 7),  // LE Read Number of Supported Advertising Sets
        (0x203C, 37, 0),  // LE Remove Advertising Set
        (0x203D, 37, 1),  // LE Clear Advertising Sets
        (0x2041, 37, 5),  // LE Set Extended Scan Parameters
        (0x2042, 37, 6),  // LE Set Extended Scan Enable
    ]

    /// Read Local Supported Commands needs no bit: it is how the others are found.
    static let readLocalSupportedCommands: UInt16 = 0x1002

    /// The opcodes a controller with `configuration` answers.
    static func opcodes(for configuration: VirtualController.Configuration) -> Set<UInt16> {
        Set(entries(for: configuration).map(\.opcode) + [readLocalSupportedCommands])
    }

    static func entries(for configuration: VirtualController.Configuration) -> [(opcode: UInt16, octet: Int, bit: Int)] {
        var all = base
        if configuration.hciVersion >= .v5_0 { all += fiveZero }
        if configuration.supportsExtendedAdvertising { all += extended }
        return all
    }

    /// The 64-octet mask for `configuration`.
    static func mask(for configuration: VirtualController.Configuration) -> HCIReadLocalSupportedCommands.ReturnParameters {
        var mask = HCIReadLocalSupportedCommands.ReturnParameters(octets: [])
        for entry in entries(for: configuration) { mask.set(octet: entry.octet, bit: entry.bit) }
        return mask
    }
}
