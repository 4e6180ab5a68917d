// SPDX-License-Identifier: GPL-2.0-or-later

/// LE Set Scan Parameters — Core Vol 4 Part E §7.8.10, opcode 0x200B, 7 parameter octets.
///
/// ```
/// LE_Scan_Type            1 octet   0x00 passive, 0x01 active
/// LE_Scan_Interval        2 octets  0x0004…0x4000 × 0.625 ms
/// LE_Scan_Window          2 octets  0x0004…0x4000 × 0.625 ms, ≤ interval
/// Own_Address_Type        1 octet
/// Scanning_Filter_Policy  1 octet   0x00…0x03
/// ```
/// Returns: Status.
@frozen
public struct LESetScanParameters: HCICommand {
    public static let opcode = HCIOpcode(rawValue: 0x200B)
    public static let name = "LE Set Scan Parameters"

    public var scanType: LEScanType
    /// Units of 0.625 ms.
    public var interval: UInt16
    /// Units of 0.625 ms.
    public var window: UInt16
    public var ownAddressType: LEOwnAddressType
    public var filterPolicy: UInt8

    @inlinable
    public init(scanType: LEScanType = .passive, interval: UInt16 = 0x0010, window: UInt16 = 0x0010,
                ownAddressType: LEOwnAddressType = .public, filterPolicy: UInt8 = 0) {
        self.scanType = scanType
        self.interval = interval
        self.window = window
        self.ownAddressType = ownAddressType
        self.filterPolicy = filterPolicy
    }

    @inlinable
    public init(decodingParameters reader: inout HCIReader) throws(HCIDecodingError) {
        scanType = LEScanType(rawValue: try reader.readUInt8("LE_Scan_Type"))
        interval = try reader.readUInt16("LE_Scan_Interval")
        window = try reader.readUInt16("LE_Scan_Window")
        ownAddressType = LEOwnAddressType(rawValue: try reader.readUInt8("Own_Address_Type"))
        filterPolicy = try reader.readUInt8("Scanning_Filter_Policy")
    }

    @inlinable
    public func encodeParameters(into writer: inout HCIWriter) {
        writer.write(scanType.rawValue)
        writer.write(interval)
        writer.write(window)
        writer.write(ownAddressType.rawValue)
        writer.write(filterPolicy)
    }

    public func validate(for controller: HCIControllerInfo) throws(HCIValidationError) {
        try HCIValidation.checkRange("LE_Scan_Type", scanType.rawValue, 0...1, "0x00 passive or 0x01 active")
        try HCIValidation.checkRange("LE_Scan_Interval", interval, 0x0004...0x4000, "0x0004…0x4000 (2.5 ms…10.24 s)")
        try HCIValidation.checkRange("LE_Scan_Window", window, 0x0004...0x4000, "0x0004…0x4000 (2.5 ms…10.24 s)")
        guard window <= interval else { throw .scanWindowLongerThanInterval(window: window, interval: interval) }
        try HCIValidation.checkRange("Own_Address_Type", ownAddressType.rawValue, 0...3, "0x00…0x03")
        try HCIValidation.checkRange("Scanning_Filter_Policy", filterPolicy, 0...3, "0x00…0x03")
    }
}
