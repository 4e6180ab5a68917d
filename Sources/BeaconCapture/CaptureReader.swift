// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HCI

/// Streams the packets of a btsnoop, pcap or pcapng capture (see ``CaptureFormat``) in constant
/// memory: the file is read with `read(2)` into one reused buffer (1 MiB by default) and every
/// packet is a slice of that buffer, so reading allocates nothing per packet.
///
/// ```swift
/// var reader = try CaptureReader(path: "hci.btsnoop")
/// while let packet = try reader.nextPacket() { … }
/// ```
///
/// Records that carry no packet (monitor index/note records, empty records, unknown H4
/// indicators, pcapng packets of an interface whose link type is not understood) are skipped and
/// counted in ``skippedRecords``. In pcapng, records are the packet blocks (numbered as Wireshark
/// numbers frames); section headers, interface descriptions and other blocks are not records.
public struct CaptureReader: ~Copyable {
    public let path: String
    public let format: CaptureFormat
    @usableFromInline let fd: Int32
    /// The chunk buffer; bytes `start..<end` are read from the file but not consumed yet.
    @usableFromInline var buffer: [UInt8]
    @usableFromInline var start = 0
    @usableFromInline var end = 0
    @usableFromInline var atEOF = false
    /// File offset of `buffer[0]`.
    @usableFromInline var bufferFileOffset = 0
    /// Bytes of the file consumed so far (for a progress display).
    public var bytesConsumed: Int { bufferFileOffset + start }
    /// Records read so far (including skipped ones): the number of the last record.
    public var recordsRead: Int { recordCount }
    /// Records that held no packet.
    public var skippedRecords: Int { skippedCount }
    @usableFromInline var recordCount = 0
    @usableFromInline var skippedCount = 0
    /// pcapng: the current section's byte order and interfaces.
    @usableFromInline var sectionBigEndian = false
    @usableFromInline var interfaces: [Pcapng.Interface] = []
    /// pcapng: the first link type whose packets were skipped, and whether any packet was read.
    @usableFromInline var firstUnsupportedLinkType: UInt32?
    @usableFromInline var readAnyLinkPacket = false

    /// The default read size.
    public static let defaultChunkSize = 1 << 20
    /// The largest record data accepted: an ACL packet (1 + 4 + 65 535) plus a pseudo-header,
    /// rounded up. Anything larger means a corrupt length field.
    public static let maximumRecordLength = 1 << 17

    /// Opens `path` (`-`: standard input) and reads its file header. Only reads forward, so
    /// pipes and FIFOs work as well as files.
    /// - Parameter chunkSize: bytes per `read(2)`; the buffer grows only for a record larger than it.
    public init(path: String, chunkSize: Int = CaptureReader.defaultChunkSize) throws(CaptureError) {
        precondition(chunkSize > 0)
        let system = Self.system
        let fd: Int32
        switch path == "-" ? system.duplicate(STDIN_FILENO) : system.open(path, flags: O_RDONLY | O_CLOEXEC, mode: 0, relativeTo: AT_FDCWD) {
        case .success(let opened): fd = opened
        case .failure(let error): throw .cannotOpen(path: path, errno: error.rawValue)
        }
        // At least a pcap file header; records larger than the buffer grow it.
        var buffer = [UInt8](repeating: 0, count: max(chunkSize, 24))
        // Read the file header with the same buffer the records will use.
        var filled = 0
        while filled < 24 {
            let n: Int
            switch buffer.withUnsafeMutableBytes({ system.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: $0[filled...])) }) {
            case .success(let count): n = count
            case .failure(let error):
                system.close(fd)
                throw .readFailed(path: path, errno: error.rawValue)
            }
            if n == 0 { break }
            filled += n
        }
        let detected: Result<CaptureFormat?, CaptureError> = buffer.withUnsafeBytes { raw in
            do throws(CaptureError) {
                return .success(try CaptureFormat.detect(header: UnsafeRawBufferPointer(rebasing: raw[0..<filled])))
            } catch { return .failure(error) }
        }
        let format: CaptureFormat
        switch detected {
        case .success(let f?): format = f
        case .success(nil):
            system.close(fd)
            throw .notACapture(path: path)
        case .failure(let error):
            system.close(fd)
            throw error
        }
        self.path = path
        self.format = format
        self.fd = fd
        self.buffer = buffer
        self.start = format.fileHeaderSize
        self.end = filled
        self.atEOF = filled < 24
    }

    deinit { Self.system.close(fd) }

    /// Files are opened and read through the system-call seam (which retries EINTR).
    private static let system = LiveSystemCalls()

    /// The next HCI packet, or `nil` at the end of the file.
    ///
    /// The packet's bytes are a slice of the reader's buffer: let it go before the next call,
    /// or the buffer is copied when the reader refills it.
    @inlinable
    public mutating func nextPacket() throws(CaptureError) -> CapturedPacket? {
        if case .pcapng = format { return try nextPcapngPacket() }
        let headerSize = format.recordHeaderSize
        while true {
            guard try ensure(headerSize) else { return nil }
            let recordOffset = bufferFileOffset + start
            let format = self.format
            // Record header fields.
            let (included, flags, timestamp): (Int, UInt32, CaptureTimestamp) = buffer.withUnsafeBytes { raw in
                let h = UnsafeRawBufferPointer(rebasing: raw[start..<(start + headerSize)])
                switch format {
                case .btsnoopHCI, .btsnoopH4, .btsnoopMonitor:
                    return (Int(CaptureBytes.uint32(h, BTSnoop.RecordField.includedLength, bigEndian: true)),
                            CaptureBytes.uint32(h, BTSnoop.RecordField.flags, bigEndian: true),
                            CaptureTimestamp(btsnoopMicroseconds: CaptureBytes.uint64BE(h, BTSnoop.RecordField.timestamp)))
                case let .pcapH4(be, ns), let .pcapH4WithPHDR(be, ns), let .pcapLinuxMonitor(be, ns),
                     let .pcapLinkLayer(be, ns), let .pcapLinkLayerWithPHDR(be, ns):
                    // The fraction field is 32 bits: a corrupt one (past a second) carries into the seconds.
                    let seconds = Int64(CaptureBytes.uint32(h, 0, bigEndian: be))
                    let fraction = Int64(CaptureBytes.uint32(h, 4, bigEndian: be)) * (ns ? 1 : 1000)
                    return (Int(CaptureBytes.uint32(h, 8, bigEndian: be)), 0,
                            CaptureTimestamp(unixSeconds: seconds + fraction / 1_000_000_000,
                                             nanosecondOfSecond: Int32(fraction % 1_000_000_000)))
                case .pcapng:  // not reached: pcapng reads blocks (nextPcapngPacket)
                    return (0, 0, CaptureTimestamp(unixSeconds: 0, nanosecondOfSecond: 0))
                }
            }
            guard included <= Self.maximumRecordLength else { throw .recordTooLarge(fileOffset: recordOffset, length: included) }
            guard try ensure(headerSize + included) else {
                throw .truncatedRecord(fileOffset: recordOffset, needed: headerSize + included, available: 0)
            }
            let dataStart = start + headerSize
            let dataEnd = dataStart + included
            start = dataEnd
            recordCount += 1
            if let packet = packet(format: format, data: dataStart..<dataEnd, flags: flags, timestamp: timestamp) {
                return packet
            }
            skippedCount += 1
        }
    }

    /// Calls `body` with every HCI packet of the rest of the file.
    @inlinable
    public mutating func forEachPacket(_ body: (CapturedPacket) -> Void) throws(CaptureError) {
        while let packet = try nextPacket() { body(packet) }
    }

    /// Interprets one record's data; `nil` when it holds no packet.
    @inlinable
    func packet(format: CaptureFormat, data: Range<Int>, flags: UInt32, timestamp: CaptureTimestamp) -> CapturedPacket? {
        let number = recordCount
        switch format {
        case .btsnoopH4:
            return h4Packet(data, direction: flags & BTSnoop.RecordFlags.received != 0 ? .received : .sent, timestamp: timestamp, number: number)
        case .btsnoopHCI:
            let received = flags & BTSnoop.RecordFlags.received != 0
            let type: H4PacketType = flags & BTSnoop.RecordFlags.commandOrEvent == 0 ? .acl : (received ? .event : .command)
            guard !data.isEmpty else { return nil }
            return CapturedPacket(timestamp: timestamp, direction: received ? .received : .sent, type: .hci(type), controllerIndex: 0,
                                  recordNumber: number, bytes: buffer[data])
        case .btsnoopMonitor:
            guard let (type, direction) = MonitorOpcode.packet(UInt16(truncatingIfNeeded: flags)), !data.isEmpty else { return nil }
            return CapturedPacket(timestamp: timestamp, direction: direction, type: .hci(type), controllerIndex: UInt16(flags >> 16),
                                  recordNumber: number, bytes: buffer[data])
        default:
            guard let linkType = format.pcapLinkType else { return nil }
            return linkPacket(linkType, data: data, timestamp: timestamp, controller: 0)
        }
    }

    /// Interprets the data of a pcap record or pcapng packet block of `linkType`; `controller`:
    /// the index for link types whose data does not carry one.
    @inlinable
    func linkPacket(_ linkType: CaptureLinkType, data: Range<Int>, timestamp: CaptureTimestamp, controller: UInt16) -> CapturedPacket? {
        let number = recordCount
        switch linkType {
        case .h4:
            return h4Packet(data, direction: .unknown, timestamp: timestamp, number: number, controller: controller)
        case .h4WithPHDR:
            guard data.count >= 4 else { return nil }
            let direction = buffer.withUnsafeBytes { CaptureBytes.uint32($0, data.lowerBound, bigEndian: true) }
            return h4Packet((data.lowerBound + 4)..<data.upperBound, direction: direction & 1 == 1 ? .received : .sent,
                            timestamp: timestamp, number: number, controller: controller)
        case .linuxMonitor:
            guard data.count > 4 else { return nil }
            let (index, opcode) = buffer.withUnsafeBytes {
                (CaptureBytes.uint16BE($0, data.lowerBound), CaptureBytes.uint16BE($0, data.lowerBound + 2))
            }
            guard let (type, direction) = MonitorOpcode.packet(opcode) else { return nil }
            return CapturedPacket(timestamp: timestamp, direction: direction, type: .hci(type), controllerIndex: index,
                                  recordNumber: number, bytes: buffer[(data.lowerBound + 4)..<data.upperBound])
        case .leLinkLayer:
            guard data.count >= LinkLayerPDU.headerEnd else { return nil }
            return CapturedPacket(timestamp: timestamp, direction: .unknown, type: .linkLayer(rssi: nil), controllerIndex: controller,
                                  recordNumber: number, bytes: buffer[data])
        case .leLinkLayerWithPHDR:
            let header = LinkLayerPDU.RadioHeader.self
            guard data.count >= header.size + LinkLayerPDU.headerEnd else { return nil }
            let flags = buffer.withUnsafeBytes { CaptureBytes.uint16($0, data.lowerBound + header.flags, bigEndian: false) }
            // On the coded PHY a coding indicator precedes the PDU; legacy advertising never uses it.
            guard flags & header.phyMask != header.phyCoded else { return nil }
            let rssi = flags & header.signalPowerValid != 0 ? Int8(bitPattern: buffer[data.lowerBound + header.signalPower]) : nil
            return CapturedPacket(timestamp: timestamp, direction: .unknown, type: .linkLayer(rssi: rssi), controllerIndex: controller,
                                  recordNumber: number, bytes: buffer[(data.lowerBound + header.size)..<data.upperBound])
        }
    }

    /// An H4 packet: indicator, then the packet.
    @inlinable
    func h4Packet(_ data: Range<Int>, direction: CaptureDirection, timestamp: CaptureTimestamp, number: Int,
                  controller: UInt16 = 0) -> CapturedPacket? {
        guard data.count >= 2, let type = H4PacketType(rawValue: buffer[data.lowerBound]) else { return nil }
        return CapturedPacket(timestamp: timestamp, direction: direction, type: .hci(type), controllerIndex: controller,
                              recordNumber: number, bytes: buffer[(data.lowerBound + 1)..<data.upperBound])
    }

    /// Makes `count` unconsumed bytes available; `false` at a clean end of file (no bytes left).
    @inlinable
    mutating func ensure(_ count: Int) throws(CaptureError) -> Bool {
        if end - start >= count { return true }
        return try refill(count)
    }

    /// The slow path of ``ensure(_:)``: moves the unconsumed tail to the front, grows the buffer
    /// if one record needs more, and reads until `count` bytes are there or the file ends.
    @usableFromInline
    mutating func refill(_ count: Int) throws(CaptureError) -> Bool {
        if start == end && atEOF { return false }
        let pending = end - start
        if start > 0 {
            buffer.withUnsafeMutableBytes { raw in
                if pending > 0 { memmove(raw.baseAddress!, raw.baseAddress! + start, pending) }
            }
            bufferFileOffset += start
            start = 0
            end = pending
        }
        if count > buffer.count { buffer.append(contentsOf: repeatElement(0, count: count - buffer.count)) }
        while end < count && !atEOF {
            let fd = self.fd
            let filled = end
            let n: Int
            switch buffer.withUnsafeMutableBytes({ Self.system.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: $0[filled...])) }) {
            case .success(let count): n = count
            case .failure(let error): throw .readFailed(path: path, errno: error.rawValue)
            }
            if n == 0 { atEOF = true } else { end += n }
        }
        if end >= count { return true }
        if end == 0 { return false }
        throw .truncatedRecord(fileOffset: bufferFileOffset, needed: count, available: end)
    }
}
