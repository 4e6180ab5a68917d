// SPDX-License-Identifier: GPL-2.0-or-later

extension HCIReadLocalSupportedCommands.ReturnParameters {
    /// Where the Supported_Commands mask reports each command of this module (Core Vol 4 Part E
    /// §6.27). Read Local Supported Commands has no bit: a controller that answers it has it.
    public static func position(of opcode: HCIOpcode) -> (octet: Int, bit: Int)? {
        switch opcode.rawValue {
        case 0x0C01: (5, 6)  // Set Event Mask
        case 0x0C03: (5, 7)  // Reset
        case 0x1001: (14, 3)  // Read Local Version Information
        case 0x1009: (15, 1)  // Read BD_ADDR
        case 0x2001: (25, 0)  // LE Set Event Mask
        case 0x2003: (25, 2)  // LE Read Local Supported Features
        case 0x2005: (25, 4)  // LE Set Random Address
        case 0x2006: (25, 5)  // LE Set Advertising Parameters
        case 0x2007: (25, 6)  // LE Read Advertising Physical Channel Tx Power
        case 0x2008: (25, 7)  // LE Set Advertising Data
        case 0x2009: (26, 0)  // LE Set Scan Response Data
        case 0x200A: (26, 1)  // LE Set Advertising Enable
        case 0x200B: (26, 2)  // LE Set Scan Parameters
        case 0x200C: (26, 3)  // LE Set Scan Enable
        case 0x2035: (36, 1)  // LE Set Advertising Set Random Address
        case 0x2036: (36, 2)  // LE Set Extended Advertising Parameters
        case 0x2037: (36, 3)  // LE Set Extended Advertising Data
        case 0x2038: (36, 4)  // LE Set Extended Scan Response Data
        case 0x2039: (36, 5)  // LE Set Extended Advertising Enable
        case 0x203A: (36, 6)  // LE Read Maximum Advertising Data Length
        case 0x203B: (36, 7)  // LE Read Number of Supported Advertising Sets
        case 0x203C: (37, 0)  // LE Remove Advertising Set
        case 0x203D: (37, 1)  // LE Clear Advertising Sets
        case 0x2041: (37, 5)  // LE Set Extended Scan Parameters
        case 0x2042: (37, 6)  // LE Set Extended Scan Enable
        case 0x204B: (38, 7)  // LE Read Transmit Power
        default: nil
        }
    }

    /// Whether the mask reports `command` as supported; `nil` when this module does not know the
    /// command's bit.
    public func supports(_ command: any HCICommand.Type) -> Bool? {
        if command.opcode == HCIReadLocalSupportedCommands.opcode { return true }
        guard let position = Self.position(of: command.opcode) else { return nil }
        return supports(octet: position.octet, bit: position.bit)
    }

    /// Marks `command` as supported (for a virtual controller building its mask).
    public mutating func insert(_ command: any HCICommand.Type) {
        guard let position = Self.position(of: command.opcode) else { return }
        set(octet: position.octet, bit: position.bit)
    }
}
