// SPDX-License-Identifier: GPL-2.0-or-later

/// Decode-by-opcode for every command this module knows: how the virtual controller and the
/// capture decoders turn an `HCICommandPacket` back into a typed command.
public enum HCICommandRegistry {
    /// Every command type, in opcode order.
    public static let all: [any HCICommand.Type] = [
        HCISetEventMask.self, HCIReset.self,
        HCIReadLocalVersionInformation.self, HCIReadLocalSupportedCommands.self, HCIReadBDADDR.self,
        LESetEventMask.self, LEReadLocalSupportedFeatures.self, LESetRandomAddress.self,
        LESetAdvertisingParameters.self, LEReadAdvertisingPhysicalChannelTxPower.self,
        LESetAdvertisingData.self, LESetScanResponseData.self, LESetAdvertisingEnable.self,
        LESetScanParameters.self, LESetScanEnable.self,
        LESetAdvertisingSetRandomAddress.self, LESetExtendedAdvertisingParameters.self,
        LESetExtendedAdvertisingData.self, LESetExtendedScanResponseData.self, LESetExtendedAdvertisingEnable.self,
        LEReadMaximumAdvertisingDataLength.self, LEReadNumberOfSupportedAdvertisingSets.self,
        LERemoveAdvertisingSet.self, LEClearAdvertisingSets.self,
        LESetExtendedScanParameters.self, LESetExtendedScanEnable.self, LEReadTransmitPower.self,
    ]

    /// The command type for an opcode, or `nil` for one this module does not model.
    public static func commandType(for opcode: HCIOpcode) -> (any HCICommand.Type)? {
        switch opcode.rawValue {
        case 0x0C01: HCISetEventMask.self
        case 0x0C03: HCIReset.self
        case 0x1001: HCIReadLocalVersionInformation.self
        case 0x1002: HCIReadLocalSupportedCommands.self
        case 0x1009: HCIReadBDADDR.self
        case 0x2001: LESetEventMask.self
        case 0x2003: LEReadLocalSupportedFeatures.self
        case 0x2005: LESetRandomAddress.self
        case 0x2006: LESetAdvertisingParameters.self
        case 0x2007: LEReadAdvertisingPhysicalChannelTxPower.self
        case 0x2008: LESetAdvertisingData.self
        case 0x2009: LESetScanResponseData.self
        case 0x200A: LESetAdvertisingEnable.self
        case 0x200B: LESetScanParameters.self
        case 0x200C: LESetScanEnable.self
        case 0x2035: LESetAdvertisingSetRandomAddress.self
        case 0x2036: LESetExtendedAdvertisingParameters.self
        case 0x2037: LESetExtendedAdvertisingData.self
        case 0x2038: LESetExtendedScanResponseData.self
        case 0x2039: LESetExtendedAdvertisingEnable.self
        case 0x203A: LEReadMaximumAdvertisingDataLength.self
        case 0x203B: LEReadNumberOfSupportedAdvertisingSets.self
        case 0x203C: LERemoveAdvertisingSet.self
        case 0x203D: LEClearAdvertisingSets.self
        case 0x2041: LESetExtendedScanParameters.self
        case 0x2042: LESetExtendedScanEnable.self
        case 0x204B: LEReadTransmitPower.self
        default: nil
        }
    }

    /// The typed command in `packet`, or `nil` when the opcode is unknown here (a controller
    /// answers those with Unknown HCI Command). Throws when a known command's parameters are
    /// malformed (a controller answers Invalid HCI Command Parameters).
    public static func decode(_ packet: HCICommandPacket) throws(HCIDecodingError) -> (any HCICommand)? {
        guard let type = commandType(for: packet.opcode) else { return nil }
        return try type.init(packet: packet)
    }
}
