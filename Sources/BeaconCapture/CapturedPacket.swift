// SPDX-License-Identifier: GPL-2.0-or-later
import HCI

/// Which way a packet went between host and controller.
@frozen
public enum CaptureDirection: Hashable, Sendable, CustomStringConvertible {
    /// Host to controller (commands, outgoing data).
    case sent
    /// Controller to host (events, incoming data).
    case received
    /// The format does not say (link type 187; a sniffer's Link Layer packets).
    case unknown

    public var description: String {
        switch self {
        case .sent: "sent"
        case .received: "received"
        case .unknown: "unknown"
        }
    }
}

/// When a packet was captured: whole seconds since 1970-01-01 UTC and the nanoseconds into that
/// second. Kept apart rather than as one nanosecond count because a capture's 64-bit microsecond
/// field reaches far beyond Int64 nanoseconds (1677 to 2262): any value a file holds is
/// representable without overflow, and printing can say when a date is out of range.
@frozen
public struct CaptureTimestamp: Hashable, Sendable, Comparable {
    /// Seconds since the Unix epoch, rounded down (negative before 1970).
    public var unixSeconds: Int64
    /// Nanoseconds into that second, 0 to 999 999 999.
    public var nanosecondOfSecond: Int32

    @inlinable public init(unixSeconds: Int64, nanosecondOfSecond: Int32) {
        precondition((0..<1_000_000_000).contains(nanosecondOfSecond))
        self.unixSeconds = unixSeconds
        self.nanosecondOfSecond = nanosecondOfSecond
    }

    @inlinable public init(nanoseconds: Int64) {
        let (q, r) = nanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
        self.init(unixSeconds: r < 0 ? q - 1 : q, nanosecondOfSecond: Int32(r < 0 ? r + 1_000_000_000 : r))
    }

    /// btsnoop's field: microseconds since 0000-01-01 (see ``BTSnoop.unixEpochOffset``).
    /// Every 64-bit value is accepted; 0 is year 0, the largest is in year 584 554.
    @inlinable public init(btsnoopMicroseconds raw: UInt64) {
        let epochSeconds = BTSnoop.unixEpochOffset / 1_000_000
        self.init(unixSeconds: Int64(raw / 1_000_000) - epochSeconds,
                  nanosecondOfSecond: Int32(raw % 1_000_000) * 1000)
    }

    /// Nanoseconds since the Unix epoch, or `nil` when that does not fit an Int64 (before 1677 or
    /// after 2262).
    @inlinable public var nanoseconds: Int64? {
        let (scaled, overflow) = unixSeconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return nil }
        let (sum, overflow2) = scaled.addingReportingOverflow(Int64(nanosecondOfSecond))
        return overflow2 ? nil : sum
    }

    /// Seconds since the Unix epoch.
    @inlinable public var seconds: Double { Double(unixSeconds) + Double(nanosecondOfSecond) / 1e9 }

    /// Seconds from `start` to this timestamp (negative before it), whole seconds and
    /// nanoseconds subtracted apart so that no precision is lost to the size of either.
    @inlinable public func seconds(since start: Self) -> Double {
        (Double(unixSeconds) - Double(start.unixSeconds)) + Double(Int64(nanosecondOfSecond) - Int64(start.nanosecondOfSecond)) / 1e9
    }

    @inlinable public static func < (a: Self, b: Self) -> Bool {
        (a.unixSeconds, a.nanosecondOfSecond) < (b.unixSeconds, b.nanosecondOfSecond)
    }
}

/// What a captured packet is: an HCI packet between a host and its controller, or a Bluetooth LE
/// Link Layer packet as a sniffer heard it on the air (pcap and pcapng link types 251 and 256).
@frozen
public enum CapturedPacketType: Hashable, Sendable {
    /// An HCI packet of this type.
    case hci(H4PacketType)
    /// A Link Layer packet: access address (4 bytes, little-endian), PDU header, payload, then the
    /// CRC when the sniffer kept it. `rssi`: the signal power in dBm when the capture gives one
    /// (link type 256 with its "signal power valid" flag).
    case linkLayer(rssi: Int8?)
}

/// One packet read from a capture: an HCI packet, or a Link Layer packet (see ``CapturedPacketType``).
///
/// `bytes` is a slice of the reader's chunk buffer (no copy): for HCI, header and parameters
/// without the H4 indicator, as `H4Packet.bytes` holds them. It is valid until the reader reads
/// on; keep nothing of it past the callback (copy with `Array(bytes)` if you must).
@frozen
public struct CapturedPacket {
    public var timestamp: CaptureTimestamp
    public var direction: CaptureDirection
    public var type: CapturedPacketType
    /// The controller index (monitor formats); in pcapng, the interface number for the other link
    /// types (so two adapters' packets stay apart); 0 elsewhere.
    public var controllerIndex: UInt16
    /// The packet's number in the file, from 1 (as Wireshark numbers frames).
    public var recordNumber: Int
    public var bytes: ArraySlice<UInt8>

    @inlinable
    public init(timestamp: CaptureTimestamp, direction: CaptureDirection, type: CapturedPacketType, controllerIndex: UInt16,
                recordNumber: Int, bytes: ArraySlice<UInt8>) {
        self.timestamp = timestamp
        self.direction = direction
        self.type = type
        self.controllerIndex = controllerIndex
        self.recordNumber = recordNumber
        self.bytes = bytes
    }
}
