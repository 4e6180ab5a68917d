// SPDX-License-Identifier: GPL-2.0-or-later

/// LE Set Extended Scan Parameters — Core Vol 4 Part E §7.8.64, opcode 0x2041.
///
/// ```
/// Own_Address_Type        1 octet
/// Scanning_Filter_Policy  1 octet   0x00…0x03
/// Scanning_PHYs           1 octet   bit 0 LE 1M, bit 2 LE Coded
/// then for each PHY bit set, lowest bit first:
///   Scan_Type[i]          1 octet   0x00 passive, 0x01 active
///   Scan_Interval[i]      2 octets  0x0004…0xFFFF × 0.625 ms
///   Scan_Window[i]        2 octets  0x0004…0xFFFF × 0.625 ms, ≤ interval
/// ```
/// Returns: Status.
@frozen
public struct LESetExtendedScanParameters: HCICommand {
    public static let opcode = HCIOpcode(rawValue: 0x2041)
    public static let name = "LE Set Extended Scan Parameters"

    /// How to scan on one PHY.
    @frozen
    public struct PHYParameters: Hashable, Sendable {
        public var scanType: LEScanType
        /// Units of 0.625 ms.
        public var interval: UInt16
        /// Units of 0.625 ms.
        public var window: UInt16

        @inlinable
        public init(scanType: LEScanType = .passive, interval: UInt16, window: UInt16) {
            self.scanType = scanType
            self.interval = interval
            self.window = window
        }
    }

    public var ownAddressType: LEOwnAddressType
    public var filterPolicy: UInt8
    /// Scanning on the LE 1M PHY (Scanning_PHYs bit 0), or not.
    public var le1M: PHYParameters?
    /// Scanning on the LE Coded PHY (Scanning_PHYs bit 2), or not.
    public var leCoded: PHYParameters?

    @inlinable
    public init(ownAddressType: LEOwnAddressType = .public, filterPolicy: UInt8 = 0,
                le1M: PHYParameters?, leCoded: PHYParameters? = nil) {
        self.ownAddressType = ownAddressType
        self.filterPolicy = filterPolicy
        self.le1M = le1M
        self.leCoded = leCoded
    }

    /// The Scanning_PHYs bit mask.
    @inlinable
    public var scanningPHYs: UInt8 { (le1M == nil ? 0 : 0b001) | (leCoded == nil ? 0 : 0b100) }

    @inlinable
    public init(decodingParameters reader: inout HCIReader) throws(HCIDecodingError) {
        ownAddressType = LEOwnAddressType(rawValue: try reader.readUInt8("Own_Address_Type"))
        filterPolicy = try reader.readUInt8("Scanning_Filter_Policy")
        let phys = try reader.readUInt8("Scanning_PHYs")
        // Any other bit would add a parameter block whose meaning we do not know.
        guard phys & ~0b101 == 0 else {
            throw .invalidValue(field: "Scanning_PHYs", value: UInt64(phys), allowed: "bits 0 (LE 1M) and 2 (LE Coded)")
        }
        le1M = phys & 0b001 != 0 ? try Self.readPHY(&reader) : nil
        leCoded = phys & 0b100 != 0 ? try Self.readPHY(&reader) : nil
    }

    @inlinable
    static func readPHY(_ reader: inout HCIReader) throws(HCIDecodingError) -> PHYParameters {
        PHYParameters(
            scanType: LEScanType(rawValue: try reader.readUInt8("Scan_Type")),
            interval: try reader.readUInt16("Scan_Interval"),
            window: try reader.readUInt16("Scan_Window"))
    }

    @inlinable
    public func encodeParameters(into writer: inout HCIWriter) {
        writer.write(ownAddressType.rawValue)
        writer.write(filterPolicy)
        writer.write(scanningPHYs)
        for phy in [le1M, leCoded] {
            guard let phy else { continue }
            writer.write(phy.scanType.rawValue)
            writer.write(phy.interval)
            writer.write(phy.window)
        }
    }

    public func validate(for controller: HCIControllerInfo) throws(HCIValidationError) {
        try HCIValidation.checkExtendedAdvertising(Self.name, on: controller)
        try HCIValidation.checkRange("Own_Address_Type", ownAddressType.rawValue, 0...3, "0x00…0x03")
        try HCIValidation.checkRange("Scanning_Filter_Policy", filterPolicy, 0...3, "0x00…0x03")
        guard le1M != nil || leCoded != nil else {
            throw .valueOutOfRange(field: "Scanning_PHYs", value: 0, allowed: "at least one of LE 1M and LE Coded")
        }
        for phy in [le1M, leCoded] {
            guard let phy else { continue }
            try HCIValidation.checkRange("Scan_Type", phy.scanType.rawValue, 0...1, "0x00 passive or 0x01 active")
            try HCIValidation.checkRange("Scan_Interval", phy.interval, 0x0004...0xFFFF, "0x0004…0xFFFF (2.5 ms…40.96 s)")
            try HCIValidation.checkRange("Scan_Window", phy.window, 0x0004...0xFFFF, "0x0004…0xFFFF (2.5 ms…40.96 s)")
            guard phy.window <= phy.interval else { throw .scanWindowLongerThanInterval(window: phy.window, interval: phy.interval) }
        }
    }
}
