// SPDX-License-Identifier: GPL-2.0-or-later

/// LE Clear Advertising Sets — Core Vol 4 Part E §7.8.60, opcode 0x203D.
///
/// Removes every advertising set; refused with Command Disallowed while any set is advertising. Returns: Status.
///
/// Parameters: none.
@frozen
public struct LEClearAdvertisingSets: HCICommand {
    public typealias ReturnParameters = HCINoReturnParameters
    public static let opcode = HCIOpcode(rawValue: 0x203D)
    public static let name = "LE Clear Advertising Sets"

    @inlinable public init() {}
    @inlinable public init(decodingParameters reader: inout HCIReader) throws(HCIDecodingError) {}
    @inlinable public func encodeParameters(into writer: inout HCIWriter) {}
}
