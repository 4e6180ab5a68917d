// SPDX-License-Identifier: GPL-2.0-or-later
import HCI
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Writes every HCI packet of a session, both directions, to a btsnoop file (see ``BTSnoop`` for
/// the format) with datalink 1002 (HCI UART/H4): each record's data starts with the H4 packet
/// indicator. Wireshark and tshark open it.
///
/// Each record is flushed as it is written, so a run that is killed still leaves a usable file.
public final class BTSnoopWriter: @unchecked Sendable {
    public enum Direction: Sendable { case sent, received }

    private let file: UnsafeMutablePointer<FILE>
    private let lock = Mutex<Void>(())

    /// Creates (or truncates) `path` and writes the file header.
    public init(path: String) throws(TransportError) {
        guard let f = fopen(path, "wb") else {
            throw .system(SystemCallError(call: "fopen(\(path))", errno: .current), adapter: "btsnoop")
        }
        file = f
        var header = Self.bigEndian(UInt32(truncatingIfNeeded: BTSnoop.identification >> 32))
        header += Self.bigEndian(UInt32(truncatingIfNeeded: BTSnoop.identification))
        header += Self.bigEndian(BTSnoop.version)
        header += Self.bigEndian(BTSnoop.Datalink.h4)
        write(header)
    }

    deinit { fclose(file) }

    /// Appends one H4 packet (indicator first). Commands/events get the command flag; ACL/SCO/ISO
    /// data do not.
    public func record(_ packet: [UInt8], direction: Direction, timestamp: UInt64? = nil) {
        guard let indicator = packet.first else { return }
        var flags: UInt32 = direction == .received ? BTSnoop.RecordFlags.received : 0
        if indicator == H4PacketType.command.rawValue || indicator == H4PacketType.event.rawValue { flags |= BTSnoop.RecordFlags.commandOrEvent }
        var ts = timestamp ?? Self.now()
        ts &+= UInt64(BTSnoop.unixEpochOffset)
        var record: [UInt8] = []
        record.reserveCapacity(BTSnoop.recordHeaderSize + packet.count)
        record += Self.bigEndian(UInt32(packet.count))  // original length
        record += Self.bigEndian(UInt32(packet.count))  // included length
        record += Self.bigEndian(flags)
        record += Self.bigEndian(UInt32(0))  // cumulative drops
        record += Self.bigEndian(UInt32(truncatingIfNeeded: ts >> 32))
        record += Self.bigEndian(UInt32(truncatingIfNeeded: ts))
        record += packet
        lock.withLock { _ in write(record) }
    }

    private func write(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        fflush(file)
    }

    /// Microseconds since the Unix epoch.
    static func now() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_REALTIME, &t)
        return UInt64(t.tv_sec) * 1_000_000 + UInt64(t.tv_nsec / 1000)
    }

    static func bigEndian(_ v: UInt32) -> [UInt8] {
        [UInt8(truncatingIfNeeded: v >> 24), UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)]
    }
}
