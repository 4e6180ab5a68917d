// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconSystem
import HCI

/// Writes every HCI packet of a session, both directions, to a btsnoop file (see HCI's `BTSnoop` for
/// the format) with datalink 1002 (HCI UART/H4): each record's data starts with the H4 packet
/// indicator. Wireshark and tshark open it.
///
/// The file is a `StreamingOutputFile` (BeaconSystem): a regular file only, never written through a link,
/// never one of the command's inputs. Each record is written as it comes, so a run that is
/// killed still leaves a usable file. The first write that fails (a full disk) is reported once
/// through `onWriteFailure` and the capture stops there, while the session carries on.
public final class BTSnoopWriter: Sendable {
    /// Which way a packet went: sent to the controller, or received from it.
    public enum Direction: Sendable { case sent, received }

    public var path: String { file.path }
    private let file: StreamingOutputFile

    /// Creates (or truncates) `path` and writes the file header. Refuses, before touching the
    /// file, a path that names one of `inputs` (compared by device and inode, so another
    /// spelling or a link is caught) and anything but a regular file (see `StreamingOutputFile` (BeaconSystem)).
    /// `onWriteFailure` is called once, from the thread that was writing, with a message naming
    /// the path and the error, when the first write fails (the capture as a `FrontEndTerm`,
    /// which the front end names when it presents the message).
    public init(path: String, inputs: [String] = [], system: any SystemCalls = LiveSystemCalls(),
                onWriteFailure: @escaping @Sendable (TermedText) -> Void = { _ in }) throws(OutputFileError) {
        file = try StreamingOutputFile(path: path, inputs: inputs, system: system) { failure in
            onWriteFailure("\(FrontEndTerm.trafficCapture): \(failure); the capture stops here, the run goes on without it")
        }
        var header = Self.bigEndian(UInt32(truncatingIfNeeded: BTSnoop.identification >> 32))
        header += Self.bigEndian(UInt32(truncatingIfNeeded: BTSnoop.identification))
        header += Self.bigEndian(BTSnoop.version)
        header += Self.bigEndian(BTSnoop.Datalink.h4)
        file.write(header)
    }

    /// Whether a write failed and the capture stopped.
    public var hasFailed: Bool { file.failure != nil }

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
        file.write(record)
    }

    /// Microseconds since the Unix epoch.
    static func now() -> UInt64 {
        let (seconds, attoseconds) = LiveSystemCalls().wallClockTime().components
        return UInt64(seconds) * 1_000_000 + UInt64(attoseconds / 1_000_000_000_000)
    }

    static func bigEndian(_ v: UInt32) -> [UInt8] {
        [UInt8(truncatingIfNeeded: v >> 24), UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)]
    }
}
