// SPDX-License-Identifier: GPL-2.0-or-later
import HCI

/// Read Advertising Features (since 1.9) — BlueZ doc/mgmt-api.txt:
///
/// ```
/// Command Code:       0x003d
/// Controller Index:   <controller id>
/// Command Parameters:
/// Return Parameters:  Supported_Flags (4 Octets)
///                     Max_Adv_Data_Len (1 Octet)
///                     Max_Scan_Rsp_Len (1 Octet)
///                     Max_Instances (1 Octet)
///                     Num_Instances (1 Octet)
///                     Instance[] (1 Octet)
/// ```
/// Max_Instances is how many instances the kernel keeps for this adapter (the controller's
/// advertising sets less the one the kernel reserves, or its software rotation's 5); Instance[]
/// lists those taken now, by any program.
public struct ReadAdvertisingFeatures: MgmtCommand {
    public static let opcode = MgmtOpcode(rawValue: 0x003D)
    public static let name = "Read Advertising Features"

    public init() {}
    public init(decodingParameters reader: inout HCIReader) throws(HCIDecodingError) {}
    public func encodeParameters(into writer: inout HCIWriter) {}

    /// The reply's parameters.
    public struct ReturnParameters: MgmtReturnParameters {
        public var supportedFlags: MgmtAdvertisingFlags
        public var maxAdvertisingDataLength: UInt8
        public var maxScanResponseLength: UInt8
        public var maxInstances: UInt8
        /// The instances in use now (Num_Instances of them).
        public var instances: [UInt8]

        public init(supportedFlags: MgmtAdvertisingFlags, maxAdvertisingDataLength: UInt8, maxScanResponseLength: UInt8, maxInstances: UInt8, instances: [UInt8]) {
            self.supportedFlags = supportedFlags
            self.maxAdvertisingDataLength = maxAdvertisingDataLength
            self.maxScanResponseLength = maxScanResponseLength
            self.maxInstances = maxInstances
            self.instances = instances
        }

        public init(decoding reader: inout HCIReader) throws(HCIDecodingError) {
            supportedFlags = MgmtAdvertisingFlags(rawValue: try reader.readUInt32("Supported_Flags"))
            maxAdvertisingDataLength = try reader.readUInt8("Max_Adv_Data_Len")
            maxScanResponseLength = try reader.readUInt8("Max_Scan_Rsp_Len")
            maxInstances = try reader.readUInt8("Max_Instances")
            let count = Int(try reader.readUInt8("Num_Instances"))
            instances = Array(try reader.readBytes(count, "Instance[]"))
        }

        public func encode(into writer: inout HCIWriter) {
            writer.write(supportedFlags.rawValue)
            writer.write(maxAdvertisingDataLength)
            writer.write(maxScanResponseLength)
            writer.write(maxInstances)
            writer.write(UInt8(truncatingIfNeeded: instances.count))
            writer.write(contentsOf: instances)
        }
    }
}
