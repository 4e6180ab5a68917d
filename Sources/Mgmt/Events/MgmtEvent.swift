// SPDX-License-Identifier: GPL-2.0-or-later
import HCI

/// A management event as read from the control socket: the kinds beacon acts on, typed; any
/// other kept as its code and parameters (the kernel sends many, e.g. New Settings).
public enum MgmtEvent: Hashable, Sendable {
    case commandComplete(MgmtCommandCompleteEvent, index: UInt16)
    case commandStatus(MgmtCommandStatusEvent, index: UInt16)
    case advertisingAdded(instance: UInt8, index: UInt16)
    case advertisingRemoved(instance: UInt8, index: UInt16)
    case indexAdded(index: UInt16)
    case indexRemoved(index: UInt16)
    case other(code: UInt16, index: UInt16, parameters: [UInt8])

    public init(packet: MgmtPacket) throws(HCIDecodingError) {
        var reader = HCIReader(packet.parameters)
        let index = packet.header.index
        switch packet.header.code {
        case MgmtCommandCompleteEvent.code:
            self = .commandComplete(try MgmtCommandCompleteEvent(decoding: &reader), index: index)
        case MgmtCommandStatusEvent.code:
            self = .commandStatus(try MgmtCommandStatusEvent(decoding: &reader), index: index)
        case AdvertisingAddedEvent.code:
            let instance = try reader.readUInt8("Instance")
            try reader.expectEnd(of: "Advertising Added")
            self = .advertisingAdded(instance: instance, index: index)
        case AdvertisingRemovedEvent.code:
            let instance = try reader.readUInt8("Instance")
            try reader.expectEnd(of: "Advertising Removed")
            self = .advertisingRemoved(instance: instance, index: index)
        case IndexAddedEvent.code:
            try reader.expectEnd(of: "Index Added")
            self = .indexAdded(index: index)
        case IndexRemovedEvent.code:
            try reader.expectEnd(of: "Index Removed")
            self = .indexRemoved(index: index)
        case let code:
            self = .other(code: code, index: index, parameters: packet.parameters)
        }
    }

    /// Decodes one packet as read from the socket.
    public init(bytes: [UInt8]) throws(HCIDecodingError) {
        try self.init(packet: try MgmtPacket(decoding: bytes))
    }

    /// The packet again (for tests and a scripted kernel).
    public var packet: MgmtPacket {
        var writer = HCIWriter()
        switch self {
        case let .commandComplete(e, index):
            e.encode(into: &writer)
            return MgmtPacket(code: MgmtCommandCompleteEvent.code, index: index, parameters: writer.bytes)
        case let .commandStatus(e, index):
            e.encode(into: &writer)
            return MgmtPacket(code: MgmtCommandStatusEvent.code, index: index, parameters: writer.bytes)
        case let .advertisingAdded(instance, index):
            return MgmtPacket(code: AdvertisingAddedEvent.code, index: index, parameters: [instance])
        case let .advertisingRemoved(instance, index):
            return MgmtPacket(code: AdvertisingRemovedEvent.code, index: index, parameters: [instance])
        case let .indexAdded(index):
            return MgmtPacket(code: IndexAddedEvent.code, index: index, parameters: [])
        case let .indexRemoved(index):
            return MgmtPacket(code: IndexRemovedEvent.code, index: index, parameters: [])
        case let .other(code, index, parameters):
            return MgmtPacket(code: code, index: index, parameters: parameters)
        }
    }
}
