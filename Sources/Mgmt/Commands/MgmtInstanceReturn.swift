// SPDX-License-Identifier: GPL-2.0-or-later
import HCI

/// `Return Parameters: Instance (1 Octet)`: what Add Advertising, Remove Advertising and Add
/// Extended Advertising Data return.
public struct MgmtInstanceReturn: MgmtReturnParameters {
    public var instance: UInt8
    public init(instance: UInt8) { self.instance = instance }
    public init(decoding reader: inout HCIReader) throws(HCIDecodingError) { instance = try reader.readUInt8("Instance") }
    public func encode(into writer: inout HCIWriter) { writer.write(instance) }
}

/// For commands whose Command Complete carries nothing after the status.
public struct MgmtNoReturnParameters: MgmtReturnParameters {
    public init() {}
    public init(decoding reader: inout HCIReader) throws(HCIDecodingError) {}
    public func encode(into writer: inout HCIWriter) {}
}
