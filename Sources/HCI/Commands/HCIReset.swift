// SPDX-License-Identifier: GPL-2.0-or-later

/// Reset — Core Vol 4 Part E §7.3.2, opcode 0x0C03.
///
/// Resets the controller and its link layer: advertising and scanning stop, advertising sets are removed, event masks return to their defaults. Returns: Status.
///
/// Parameters: none.
@frozen
public struct HCIReset: HCICommand {
    public typealias ReturnParameters = HCINoReturnParameters
    public static let opcode = HCIOpcode(rawValue: 0x0C03)
    public static let name = "Reset"

    @inlinable public init() {}
    @inlinable public init(decodingParameters reader: inout HCIReader) throws(HCIDecodingError) {}
    @inlinable public func encodeParameters(into writer: inout HCIWriter) {}
}
