// SPDX-License-Identifier: GPL-2.0-or-later
import HCI

/// Which way a packet went between host and controller.
@frozen
public enum CaptureDirection: Hashable, Sendable, CustomStringConvertible {
    /// Host to controller (commands, outgoing data).
    case sent
    /// Controller to host (events, incoming data).
    case received
    /// The format does not say (pcap link type 187).
    case unknown

    public var description: String {
        switch self {
        case .sent: "sent"
        case .received: "received"
        case .unknown: "unknown"
        }
    }
}

/// When a packet was captured: nanoseconds since 1970-01-01 UTC (btsnoop has microseconds).
@frozen
public struct CaptureTimestamp: Hashable, Sendable, Comparable {
    public var nanoseconds: Int64

    @inlinable public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// Seconds since the Unix epoch.
    @inlinable public var seconds: Double { Double(nanoseconds) / 1e9 }

    @inlinable public static func < (a: Self, b: Self) -> Bool { a.nanoseconds < b.nanoseconds }
}

/// One HCI packet read from a capture.
///
/// `bytes` is a slice of the reader's chunk buffer (no copy): header and parameters without the
/// H4 indicator, as `H4Packet.bytes` holds them. It is valid until the reader reads on; keep
/// nothing of it past the callback (copy with `Array(bytes)` if you must).
@frozen
public struct CapturedPacket {
    public var timestamp: CaptureTimestamp
    public var direction: CaptureDirection
    public var type: H4PacketType
    /// The controller index (monitor formats); 0 elsewhere.
    public var controllerIndex: UInt16
    /// The packet's number in the file, from 1 (as Wireshark numbers frames).
    public var recordNumber: Int
    public var bytes: ArraySlice<UInt8>

    @inlinable
    public init(timestamp: CaptureTimestamp, direction: CaptureDirection, type: H4PacketType, controllerIndex: UInt16,
                recordNumber: Int, bytes: ArraySlice<UInt8>) {
        self.timestamp = timestamp
        self.direction = direction
        self.type = type
        self.controllerIndex = controllerIndex
        self.recordNumber = recordNumber
        self.bytes = bytes
    }
}
