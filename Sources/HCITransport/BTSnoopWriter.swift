// SPDX-License-Identifier: GPL-2.0-or-later
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Writes every HCI packet of a session, both directions, to a btsnoop file (RFC 1761 style, as
/// BlueZ's btmon and Android write them) with datalink 1002 (HCI UART/H4): each record's data
/// starts with the H4 packet indicator. Wireshark and tshark open it.
///
/// Each record is flushed as it is written, so a run that is killed still leaves a usable file.
public final class BTSnoopWriter: @unchecked Sendable {
    /// Datalink type 1002: "HCI UART (H4)".
    public static let datalinkH4: UInt32 = 1002
    /// Microseconds from 0000-01-01 00:00 (the btsnoop epoch) to 1970-01-01 00:00, the value
    /// Wireshark and BlueZ use (BlueZ's 0x00E03AB44A676000 is the offset to 2000-01-01, which it
    /// applies after subtracting 946,684,800 s).
    static let epochOffset: UInt64 = 0x00DC_DDB3_0F2F_8000

    public enum Direction: Sendable { case sent, received }

    private let file: UnsafeMutablePointer<FILE>
    private let lock = Mutex<Void>(())

    /// Creates (or truncates) `path` and writes the file header.
    public init(path: String) throws(TransportError) {
        guard let f = fopen(path, "wb") else {
            throw .system(SystemCallError(call: "fopen(\(path))", errno: .current), adapter: "btsnoop")
        }
        file = f
        var header: [UInt8] = Array("btsnoop".utf8) + [0]
        header += Self.bigEndian(UInt32(1))
        header += Self.bigEndian(Self.datalinkH4)
        write(header)
    }

    deinit { fclose(file) }

    /// Appends one H4 packet (indicator first). Commands/events get the command flag; ACL/SCO/ISO
    /// data do not.
    public func record(_ packet: [UInt8], direction: Direction, timestamp: UInt64? = nil) {
        guard let indicator = packet.first else { return }
        var flags: UInt32 = direction == .received ? 1 : 0
        if indicator == 0x01 || indicator == 0x04 { flags |= 2 }
        var ts = timestamp ?? Self.now()
        ts &+= Self.epochOffset
        var record: [UInt8] = []
        record.reserveCapacity(24 + packet.count)
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
