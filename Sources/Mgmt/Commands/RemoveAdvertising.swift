// SPDX-License-Identifier: GPL-2.0-or-later
import HCI

/// Remove Advertising (since 1.9) — BlueZ doc/mgmt-api.txt:
///
/// ```
/// Command Code:       0x003f
/// Controller Index:   <controller id>
/// Command Parameters: Instance (1 Octet)
/// Return Parameters:  Instance (1 Octet)
/// ```
/// "When the Instance parameter is zero, then all previously added advertising Instances will be
/// removed" — every program's, bluetoothd's included. The type can say it (captures, tools), but
/// beacon's backend only ever removes instances it added itself.
public struct RemoveAdvertising: MgmtCommand {
    /// The instance removed.
    public typealias ReturnParameters = MgmtInstanceReturn
    public static let opcode = MgmtOpcode(rawValue: 0x003F)
    public static let name = "Remove Advertising"

    public var instance: UInt8
    public init(instance: UInt8) { self.instance = instance }

    /// Instance 0: every program's instances.
    public var removesAll: Bool { instance == 0 }

    public init(decodingParameters reader: inout HCIReader) throws(HCIDecodingError) {
        instance = try reader.readUInt8("Instance")
    }

    public func encodeParameters(into writer: inout HCIWriter) { writer.write(instance) }

    public func validate() throws(HCIValidationError) {
        guard instance != 255 else {
            throw .valueOutOfRange(field: "Instance", value: 255, allowed: "0 (all) or 1…254 (255 is reserved)")
        }
    }
}
