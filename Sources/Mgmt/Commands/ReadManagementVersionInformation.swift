// SPDX-License-Identifier: GPL-2.0-or-later
import HCI

/// Read Management Version Information — BlueZ doc/mgmt-api.txt:
///
/// ```
/// Command Code:       0x0001
/// Controller Index:   <non-controller>
/// Command Parameters:
/// Return Parameters:  Version (1 Octets)
///                     Revision (2 Octets)
/// ```
/// The version tells which commands exist: Add Extended Advertising Parameters/Data arrived in
/// 1.19 (kernel 5.10).
public struct ReadManagementVersionInformation: MgmtCommand {
    public static let opcode = MgmtOpcode(rawValue: 0x0001)
    public static let name = "Read Management Version Information"

    public init() {}
    public init(decodingParameters reader: inout HCIReader) throws(HCIDecodingError) {}
    public func encodeParameters(into writer: inout HCIWriter) {}

    /// The reply's parameters.
    public struct ReturnParameters: MgmtReturnParameters {
        public var version: UInt8
        public var revision: UInt16
        public init(version: UInt8, revision: UInt16) {
            self.version = version
            self.revision = revision
        }
        public init(decoding reader: inout HCIReader) throws(HCIDecodingError) {
            version = try reader.readUInt8("Version")
            revision = try reader.readUInt16("Revision")
        }
        public func encode(into writer: inout HCIWriter) {
            writer.write(version)
            writer.write(revision)
        }
        /// `1.22`.
        public var text: String { "\(version).\(revision)" }
        /// Whether Add Extended Advertising Parameters/Data (since 1.19) exist.
        public var hasExtendedAdvertisingCommands: Bool { (version, revision) >= (1, 19) }
    }
}
