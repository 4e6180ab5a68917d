// SPDX-License-Identifier: GPL-2.0-or-later

/// LE Set Extended Scan Enable — Core Vol 4 Part E §7.8.65, opcode 0x2042.
///
/// ```
/// Enable             1 octet   0x00 off, 0x01 on
/// Filter_Duplicates  1 octet   0x00 off, 0x01 on, 0x02 on and reset each period
/// Duration           2 octets  × 10 ms, 0 = until disabled
/// Period             2 octets  × 1.28 s, 0 = scan continuously
/// ```
/// Returns: Status.
@frozen
public struct LESetExtendedScanEnable: HCICommand {
    public static let opcode = HCIOpcode(rawValue: 0x2042)
    public static let name = "LE Set Extended Scan Enable"

    public var isEnabled: Bool
    /// 0x00 off, 0x01 on, 0x02 on and reset each period.
    public var filterDuplicates: UInt8
    /// Units of 10 ms.
    public var duration: UInt16
    /// Units of 1.28 s.
    public var period: UInt16

    @inlinable
    public init(_ isEnabled: Bool, filterDuplicates: UInt8 = 0, duration: UInt16 = 0, period: UInt16 = 0) {
        self.isEnabled = isEnabled
        self.filterDuplicates = filterDuplicates
        self.duration = duration
        self.period = period
    }

    @inlinable
    public init(decodingParameters reader: inout HCIReader) throws(HCIDecodingError) {
        isEnabled = try reader.readFlag("Enable")
        filterDuplicates = try reader.readUInt8("Filter_Duplicates")
        duration = try reader.readUInt16("Duration")
        period = try reader.readUInt16("Period")
    }

    @inlinable
    public func encodeParameters(into writer: inout HCIWriter) {
        writer.write(UInt8(isEnabled ? 1 : 0))
        writer.write(filterDuplicates)
        writer.write(duration)
        writer.write(period)
    }

    public func validate(for controller: HCIControllerInfo) throws(HCIValidationError) {
        try HCIValidation.checkExtendedAdvertising(Self.name, on: controller)
        try HCIValidation.checkRange("Filter_Duplicates", filterDuplicates, 0...2, "0x00…0x02")
        if filterDuplicates == 2, duration == 0 || period == 0 {
            throw .valueOutOfRange(field: "Filter_Duplicates", value: 2, allowed: "0x02 only with a non-zero Duration and Period")
        }
    }
}
