// SPDX-License-Identifier: GPL-2.0-or-later

/// LE Advertising Set Terminated — Core Vol 4 Part E §7.7.65.18, LE Meta subevent 0x12: an
/// advertising set stopped on its own (duration or event limit reached, or a connection).
///
/// ```
/// Subevent_Code                             1 octet   0x12
/// Status                                    1 octet   0x00 connection created, 0x3C advertising timeout, 0x43 limit reached …
/// Advertising_Handle                        1 octet
/// Connection_Handle                         2 octets  valid when Status is 0x00
/// Num_Completed_Extended_Advertising_Events 1 octet
/// ```
@frozen
public struct LEAdvertisingSetTerminatedEvent: LEMetaSubevent {
    public static let subeventCode = LESubeventCode.advertisingSetTerminated

    public var status: HCIStatus
    public var handle: UInt8
    public var connectionHandle: UInt16
    public var completedEvents: UInt8

    @inlinable
    public init(status: HCIStatus, handle: UInt8, connectionHandle: UInt16 = 0, completedEvents: UInt8) {
        self.status = status
        self.handle = handle
        self.connectionHandle = connectionHandle
        self.completedEvents = completedEvents
    }

    @inlinable
    public init(decodingSubevent reader: inout HCIReader) throws(HCIDecodingError) {
        status = HCIStatus(rawValue: try reader.readUInt8("Status"))
        handle = try reader.readUInt8("Advertising_Handle")
        connectionHandle = try reader.readUInt16("Connection_Handle")
        completedEvents = try reader.readUInt8("Num_Completed_Extended_Advertising_Events")
    }

    @inlinable
    public func encodeSubevent(into writer: inout HCIWriter) {
        writer.write(status.rawValue)
        writer.write(handle)
        writer.write(connectionHandle)
        writer.write(completedEvents)
    }
}
