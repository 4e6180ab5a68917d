// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// LE Set Advertising Set Random Address — Core Vol 4 Part E §7.8.52, opcode 0x2035.
///
/// ```
/// Advertising_Handle  1 octet   0x00…0xEF
/// Random_Address      6 octets  least-significant byte first
/// ```
/// Returns: Status. Each advertising set has its own random address, so several beacons can
/// advertise under different addresses at once.
@frozen
public struct LESetAdvertisingSetRandomAddress: HCICommand {
    public static let opcode = HCIOpcode(rawValue: 0x2035)
    public static let name = "LE Set Advertising Set Random Address"

    public var handle: UInt8
    public var address: BluetoothAddress

    @inlinable public init(handle: UInt8, address: BluetoothAddress) {
        self.handle = handle
        self.address = address
    }
    @inlinable public init(decodingParameters reader: inout HCIReader) throws(HCIDecodingError) {
        handle = try reader.readUInt8("Advertising_Handle")
        address = try reader.readAddress("Random_Address")
    }
    @inlinable public func encodeParameters(into writer: inout HCIWriter) {
        writer.write(handle)
        writer.write(address)
    }

    public func validate(for controller: HCIControllerInfo) throws(HCIValidationError) {
        try HCIValidation.checkExtendedAdvertising(Self.name, on: controller)
        try HCIValidation.checkHandle(handle)
        try HCIValidation.checkRandomAddress(address)
    }
}
