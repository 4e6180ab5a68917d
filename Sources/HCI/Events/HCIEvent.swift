// SPDX-License-Identifier: GPL-2.0-or-later

/// Any event from the controller, decoded when this module knows it. Unknown events and LE
/// subevents are kept raw, never an error: controllers send vendor and newer events freely.
@frozen
public enum HCIEvent: Hashable, Sendable {
    case commandComplete(HCICommandCompleteEvent)
    case commandStatus(HCICommandStatusEvent)
    case hardwareError(HCIHardwareErrorEvent)
    case leAdvertisingReport(LEAdvertisingReportEvent)
    case leExtendedAdvertisingReport(LEExtendedAdvertisingReportEvent)
    case leAdvertisingSetTerminated(LEAdvertisingSetTerminatedEvent)
    /// An event (or LE subevent) this module does not decode, as received.
    case unknown(HCIEventPacket)

    /// Decodes a known event; throws only when a known event's parameters are malformed.
    @inlinable
    public init(packet: HCIEventPacket) throws(HCIDecodingError) {
        switch packet.code {
        case HCIEventCode.commandComplete: self = .commandComplete(try HCICommandCompleteEvent(packet: packet))
        case HCIEventCode.commandStatus: self = .commandStatus(try HCICommandStatusEvent(packet: packet))
        case HCIEventCode.hardwareError: self = .hardwareError(try HCIHardwareErrorEvent(packet: packet))
        case HCIEventCode.leMeta:
            switch packet.parameters.first {
            case LESubeventCode.advertisingReport: self = .leAdvertisingReport(try LEAdvertisingReportEvent(packet: packet))
            case LESubeventCode.extendedAdvertisingReport:
                self = .leExtendedAdvertisingReport(try LEExtendedAdvertisingReportEvent(packet: packet))
            case LESubeventCode.advertisingSetTerminated:
                self = .leAdvertisingSetTerminated(try LEAdvertisingSetTerminatedEvent(packet: packet))
            default: self = .unknown(packet)
            }
        default: self = .unknown(packet)
        }
    }

    /// Parses event code, length and parameters (no H4 indicator), then decodes.
    @inlinable
    public init(bytes: [UInt8]) throws(HCIDecodingError) { try self.init(packet: HCIEventPacket(bytes: bytes)) }

    /// The event as a packet, for the virtual controller to emit.
    @inlinable
    public var packet: HCIEventPacket {
        switch self {
        case let .commandComplete(e): e.packet
        case let .commandStatus(e): e.packet
        case let .hardwareError(e): e.packet
        case let .leAdvertisingReport(e): e.packet
        case let .leExtendedAdvertisingReport(e): e.packet
        case let .leAdvertisingSetTerminated(e): e.packet
        case let .unknown(packet): packet
        }
    }
}
