// SPDX-License-Identifier: GPL-2.0-or-later
import HCI

/// The kernel's rules for the data of an instance (net/bluetooth/mgmt.c, tlv_data_is_valid),
/// checked before sending so the user gets the reason instead of a bare "Invalid Parameters".
public enum MgmtAdvertisingData {
    /// Legacy advertising (no secondary-channel flag) carries at most 31 octets.
    public static let legacyLimit = HCIValidation.legacyDataLimit

    /// The tail both Add Advertising and Add Extended Advertising Data end with: the two lengths,
    /// then the advertising data and the scan response.
    static func read(_ reader: inout HCIReader) throws(HCIDecodingError) -> (data: [UInt8], scanResponse: [UInt8]) {
        let dataLength = Int(try reader.readUInt8("Adv_Data_Len"))
        let scanLength = Int(try reader.readUInt8("Scan_Rsp_Len"))
        return (Array(try reader.readBytes(dataLength, "Adv_Data")), Array(try reader.readBytes(scanLength, "Scan_Rsp")))
    }

    static func write(_ data: [UInt8], scanResponse: [UInt8], into writer: inout HCIWriter) {
        // check() keeps both within one octet.
        writer.write(UInt8(truncatingIfNeeded: data.count))
        writer.write(UInt8(truncatingIfNeeded: scanResponse.count))
        writer.write(contentsOf: data)
        writer.write(contentsOf: scanResponse)
    }

    static func check(_ data: [UInt8], scanResponse: [UInt8], flags: MgmtAdvertisingFlags) throws(HCIValidationError) {
        try checkSecondaryChannels(flags)
        // Without a secondary-channel flag the kernel advertises on legacy PDUs.
        let legacy = flags.isDisjoint(with: .secondaryChannels)
        try HCIValidation.checkDataLength(data.count, legacyPDUs: legacy)
        try HCIValidation.checkDataLength(scanResponse.count, legacyPDUs: legacy)
        try checkStructures(data, field: "Adv_Data", flagsAllowed: flags.isDisjoint(with: .kernelManagesFlagsAD))
        try checkStructures(scanResponse, field: "Scan_Rsp", flagsAllowed: false)
    }

    static func checkSecondaryChannels(_ flags: MgmtAdvertisingFlags) throws(HCIValidationError) {
        let secondary = flags.intersection(.secondaryChannels).rawValue
        guard secondary & (secondary &- 1) == 0 else {
            throw .valueOutOfRange(field: "Flags", value: UInt64(flags.rawValue), allowed: "at most one of the secondary-channel bits 7, 8, 9")
        }
    }

    /// Length-type-value structures that end exactly at the end; a Flags structure (type 0x01)
    /// only in advertising data whose flags leave the Flags to us.
    static func checkStructures(_ bytes: [UInt8], field: String, flagsAllowed: Bool) throws(HCIValidationError) {
        var i = 0
        while i < bytes.count {
            let length = Int(bytes[i])
            if length == 0 { i += 1; continue }
            guard i + length < bytes.count else {
                throw .valueOutOfRange(field: "\(field) structure at offset \(i)", value: UInt64(length), allowed: "a length that ends within the \(bytes.count) octets")
            }
            if bytes[i + 1] == 0x01, !flagsAllowed {
                throw .valueOutOfRange(field: "\(field) Flags structure", value: 1, allowed: "no Flags structure when the kernel manages the flags (discoverable / managed-flags bits) or in a scan response")
            }
            i += length + 1
        }
    }
}
