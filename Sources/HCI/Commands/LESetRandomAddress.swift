// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// LE Set Random Address — Core Vol 4 Part E §7.8.4, opcode 0x2005.
///
/// ```
/// Random_Address  6 octets  least-significant byte first
/// ```
/// Returns: Status. Refused with Command Disallowed while legacy advertising or scanning is on.
@frozen
public struct LESetRandomAddress: HCICommand {
    public static let opcode = HCIOpcode(rawValue: 0x2005)
    public static let name = "LE Set Random Address"

    public var address: BluetoothAddress

    @inlinable public init(_ address: BluetoothAddress) { self.address = address }
    @inlinable public init(decodingParameters reader: inout HCIReader) throws(HCIDecodingError) {
        address = try reader.readAddress("Random_Address")
    }
    @inlinable public func encodeParameters(into writer: inout HCIWriter) { writer.write(address) }

    public func validate(for controller: HCIControllerInfo) throws(HCIValidationError) {
        try HCIValidation.checkRandomAddress(address)
    }
}
