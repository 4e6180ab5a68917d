// SPDX-License-Identifier: GPL-2.0-or-later
import HCI

/// Add Extended Advertising Data (since 1.19, kernel 5.10) — BlueZ doc/mgmt-api.txt:
///
/// ```
/// Command Code:       0x0055
/// Controller Index:   <controller id>
/// Command Parameters: Instance (1 Octet)
///                     Advertising Data Length (1 Octet)
///                     Scan Response Length (1 Octet)
///                     Advertising Data (0-255 Octets)
///                     Scan Response (0-255 Octets)
/// Return Parameters:  Instance (1 Octet)
/// ```
/// Completes an instance registered by Add Extended Advertising Parameters and enables it.
/// The kernel refuses ("Invalid Parameters") data carrying a Flags structure when the instance's
/// flags ask the kernel to manage the Flags (bluez/bluez#2269); it checks that against the flags
/// given to the parameters command, so ``validate()`` can only check the structure here.
public struct AddExtendedAdvertisingData: MgmtCommand {
    /// The instance whose data was set.
    public typealias ReturnParameters = MgmtInstanceReturn
    public static let opcode = MgmtOpcode(rawValue: 0x0055)
    public static let name = "Add Extended Advertising Data"

    public var instance: UInt8
    public var advertisingData: [UInt8]
    public var scanResponse: [UInt8]

    public init(instance: UInt8, advertisingData: [UInt8], scanResponse: [UInt8] = []) {
        self.instance = instance
        self.advertisingData = advertisingData
        self.scanResponse = scanResponse
    }

    public init(decodingParameters reader: inout HCIReader) throws(HCIDecodingError) {
        instance = try reader.readUInt8("Instance")
        (advertisingData, scanResponse) = try MgmtAdvertisingData.read(&reader)
    }

    public func encodeParameters(into writer: inout HCIWriter) {
        writer.write(instance)
        MgmtAdvertisingData.write(advertisingData, scanResponse: scanResponse, into: &writer)
    }

    public func validate() throws(HCIValidationError) {
        try MgmtInstance.check(instance)
        try MgmtAdvertisingData.check(advertisingData, scanResponse: scanResponse, flags: [])
    }
}
