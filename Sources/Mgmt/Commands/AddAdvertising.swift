// SPDX-License-Identifier: GPL-2.0-or-later
import HCI

/// Add Advertising (since 1.9) — BlueZ doc/mgmt-api.txt:
///
/// ```
/// Command Code:       0x003e
/// Controller Index:   <controller id>
/// Command Parameters: Instance (1 Octet)
///                     Flags (4 Octets)
///                     Duration (2 Octets)
///                     Timeout (2 Octets)
///                     Adv_Data_Len (1 Octet)
///                     Scan_Rsp_Len (1 Octet)
///                     Adv_Data (0-255 Octets)
///                     Scan_Rsp (0-255 Octets)
/// Return Parameters:  Instance (1 Octet)
/// ```
/// There is no interval: the kernel advertises at its default, 1.28 s (hdev->le_adv_min/max_interval
/// 0x0800), far slower than a beacon's usual 100 ms. beacon uses it only on kernels without Add
/// Extended Advertising Parameters, and says so in the plan. Duration (seconds an instance gets in
/// the kernel's rotation, 0 = 2 s) and Timeout (lifetime, 0 = forever).
public struct AddAdvertising: MgmtCommand {
    /// The instance added.
    public typealias ReturnParameters = MgmtInstanceReturn
    public static let opcode = MgmtOpcode(rawValue: 0x003E)
    public static let name = "Add Advertising"

    public var instance: UInt8
    public var flags: MgmtAdvertisingFlags
    public var duration: UInt16
    public var timeout: UInt16
    public var advertisingData: [UInt8]
    public var scanResponse: [UInt8]

    public init(instance: UInt8, flags: MgmtAdvertisingFlags = [], duration: UInt16 = 0, timeout: UInt16 = 0, advertisingData: [UInt8], scanResponse: [UInt8] = []) {
        self.instance = instance
        self.flags = flags
        self.duration = duration
        self.timeout = timeout
        self.advertisingData = advertisingData
        self.scanResponse = scanResponse
    }

    public init(decodingParameters reader: inout HCIReader) throws(HCIDecodingError) {
        instance = try reader.readUInt8("Instance")
        flags = MgmtAdvertisingFlags(rawValue: try reader.readUInt32("Flags"))
        duration = try reader.readUInt16("Duration")
        timeout = try reader.readUInt16("Timeout")
        (advertisingData, scanResponse) = try MgmtAdvertisingData.read(&reader)
    }

    public func encodeParameters(into writer: inout HCIWriter) {
        writer.write(instance)
        writer.write(flags.rawValue)
        writer.write(duration)
        writer.write(timeout)
        MgmtAdvertisingData.write(advertisingData, scanResponse: scanResponse, into: &writer)
    }

    public func validate() throws(HCIValidationError) {
        try MgmtInstance.check(instance)
        try MgmtAdvertisingData.check(advertisingData, scanResponse: scanResponse, flags: flags)
    }
}
