// SPDX-License-Identifier: GPL-2.0-or-later

/// Read Local Version Information — Core Vol 4 Part E §7.4.1, opcode 0x1001.
///
/// Parameters: none. Returns:
/// ```
/// Status             1 octet
/// HCI_Version        1 octet   Core spec version (0x09 = 5.0)
/// HCI_Subversion     2 octets  (called HCI_Revision before 5.3)
/// LMP_Version        1 octet
/// Company_Identifier 2 octets  (Manufacturer_Name before 5.3)
/// LMP_Subversion     2 octets
/// ```
@frozen
public struct HCIReadLocalVersionInformation: HCICommand {
    public static let opcode = HCIOpcode(rawValue: 0x1001)
    public static let name = "Read Local Version Information"

    @inlinable public init() {}
    @inlinable public init(decodingParameters reader: inout HCIReader) throws(HCIDecodingError) {}
    @inlinable public func encodeParameters(into writer: inout HCIWriter) {}

    @frozen
    public struct ReturnParameters: HCIReturnParameters {
        public var hciVersion: HCIVersion
        public var hciRevision: UInt16
        public var lmpVersion: HCIVersion
        /// The Bluetooth SIG company identifier of the controller's maker (e.g. 0x0002 Intel).
        public var manufacturer: UInt16
        public var lmpSubversion: UInt16

        @inlinable
        public init(hciVersion: HCIVersion, hciRevision: UInt16, lmpVersion: HCIVersion, manufacturer: UInt16, lmpSubversion: UInt16) {
            self.hciVersion = hciVersion
            self.hciRevision = hciRevision
            self.lmpVersion = lmpVersion
            self.manufacturer = manufacturer
            self.lmpSubversion = lmpSubversion
        }

        @inlinable
        public init(decoding reader: inout HCIReader) throws(HCIDecodingError) {
            hciVersion = HCIVersion(rawValue: try reader.readUInt8("HCI_Version"))
            hciRevision = try reader.readUInt16("HCI_Subversion")
            lmpVersion = HCIVersion(rawValue: try reader.readUInt8("LMP_Version"))
            manufacturer = try reader.readUInt16("Company_Identifier")
            lmpSubversion = try reader.readUInt16("LMP_Subversion")
        }

        @inlinable
        public func encode(into writer: inout HCIWriter) {
            writer.write(hciVersion.rawValue)
            writer.write(hciRevision)
            writer.write(lmpVersion.rawValue)
            writer.write(manufacturer)
            writer.write(lmpSubversion)
        }
    }
}
