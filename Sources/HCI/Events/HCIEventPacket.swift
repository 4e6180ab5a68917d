// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// An event packet whose parameters are not interpreted yet (Core Vol 4 Part E §5.4.4): event
/// code, parameter length, parameters.
@frozen
public struct HCIEventPacket: Hashable, Sendable, CustomStringConvertible {
    public var code: UInt8
    public var parameters: [UInt8]

    @inlinable
    public init(code: UInt8, parameters: [UInt8]) {
        self.code = code
        self.parameters = parameters
    }

    /// Parses code, length and exactly that many parameter bytes.
    @inlinable
    public init(bytes: ArraySlice<UInt8>) throws(HCIDecodingError) {
        var reader = HCIReader(bytes)
        code = try reader.readUInt8("event code")
        try reader.readParameterLength("event parameter length")
        parameters = Array(reader.readRemaining())
    }

    @inlinable
    public init(bytes: [UInt8]) throws(HCIDecodingError) { try self.init(bytes: bytes[...]) }

    /// Code, length and parameters (no H4 indicator).
    @inlinable
    public var bytes: [UInt8] {
        precondition(parameters.count <= 255, "HCI event parameters are at most 255 bytes")
        var out: [UInt8] = []
        out.reserveCapacity(2 + parameters.count)
        out.append(code)
        out.append(UInt8(parameters.count))
        out.append(contentsOf: parameters)
        return out
    }

    /// `0x04` then the event packet.
    @inlinable
    public var h4Bytes: [UInt8] { [H4PacketType.event.rawValue] + bytes }

    public var description: String { "HCI Event 0x\(Hex.byte(code)) plen \(parameters.count)" }
}

/// Event codes this module decodes (Core Vol 4 Part E §7.7).
public enum HCIEventCode {
    public static let commandComplete: UInt8 = 0x0E
    public static let commandStatus: UInt8 = 0x0F
    public static let hardwareError: UInt8 = 0x10
    public static let leMeta: UInt8 = 0x3E
}

/// LE Meta subevent codes this module decodes (Core Vol 4 Part E §7.7.65).
public enum LESubeventCode {
    public static let advertisingReport: UInt8 = 0x02
    public static let extendedAdvertisingReport: UInt8 = 0x0D
    public static let advertisingSetTerminated: UInt8 = 0x12
}

/// The parameters of one event type.
public protocol HCIEventParameters: Sendable, Hashable {
    static var eventCode: UInt8 { get }
    init(decodingParameters reader: inout HCIReader) throws(HCIDecodingError)
    func encodeParameters(into writer: inout HCIWriter)
}

/// The parameters of one LE Meta subevent, after the Subevent_Code octet.
public protocol LEMetaSubevent: HCIEventParameters {
    static var subeventCode: UInt8 { get }
    init(decodingSubevent reader: inout HCIReader) throws(HCIDecodingError)
    func encodeSubevent(into writer: inout HCIWriter)
}

extension LEMetaSubevent {
    public static var eventCode: UInt8 { HCIEventCode.leMeta }

    @inlinable
    public init(decodingParameters reader: inout HCIReader) throws(HCIDecodingError) {
        let subevent = try reader.readUInt8("Subevent_Code")
        guard subevent == Self.subeventCode else {
            throw .invalidValue(field: "Subevent_Code", value: UInt64(subevent), allowed: "0x\(Hex.byte(Self.subeventCode))")
        }
        try self.init(decodingSubevent: &reader)
    }

    @inlinable
    public func encodeParameters(into writer: inout HCIWriter) {
        writer.write(Self.subeventCode)
        encodeSubevent(into: &writer)
    }
}

extension HCIEventParameters {
    /// The event as a packet.
    @inlinable
    public var packet: HCIEventPacket {
        var writer = HCIWriter()
        encodeParameters(into: &writer)
        return HCIEventPacket(code: Self.eventCode, parameters: writer.bytes)
    }

    /// Decodes a packet of this event type; trailing bytes are tolerated (later spec versions may
    /// append parameters).
    @inlinable
    public init(packet: HCIEventPacket) throws(HCIDecodingError) {
        guard packet.code == Self.eventCode else {
            throw .unexpectedEvent(expected: "event 0x\(Hex.byte(Self.eventCode))", actualCode: packet.code)
        }
        var reader = HCIReader(packet.parameters)
        try self.init(decodingParameters: &reader)
    }
}
