// SPDX-License-Identifier: GPL-2.0-or-later

/// Hardware Error — Core Vol 4 Part E §7.7.16, event code 0x10: the controller hit a fault; the
/// host should reset it.
///
/// ```
/// Hardware_Code  1 octet  vendor specific
/// ```
@frozen
public struct HCIHardwareErrorEvent: HCIEventParameters {
    public static let eventCode = HCIEventCode.hardwareError

    public var hardwareCode: UInt8

    @inlinable public init(hardwareCode: UInt8) { self.hardwareCode = hardwareCode }

    @inlinable
    public init(decodingParameters reader: inout HCIReader) throws(HCIDecodingError) {
        hardwareCode = try reader.readUInt8("Hardware_Code")
    }

    @inlinable
    public func encodeParameters(into writer: inout HCIWriter) { writer.write(hardwareCode) }
}
