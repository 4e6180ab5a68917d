// SPDX-License-Identifier: GPL-2.0-or-later
// libFuzzer target `capture`: arbitrary bytes as a capture file (btsnoop, pcap or pcapng, any link type)
// through CaptureReader and BeaconExtractor. Built and run by scripts/fuzz.
#if canImport(Glibc)
import Glibc
#endif
import BeaconCapture
import BeaconCodec
import HCI

/// The reader takes a path (it streams files with read(2)), so each input is written to one file
/// in /dev/shm (memory, not disk) that this process reuses.
let capturePath = "/dev/shm/beacon-fuzz-capture-\(getpid())"

/// Called by libFuzzer once before the first input: the file goes away with the process (unless
/// it crashes, when the input is saved as an artifact anyway).
@_cdecl("LLVMFuzzerInitialize")
public func captureFuzzInitialize(_ argc: UnsafeMutablePointer<CInt>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> CInt {
    atexit { unlink(capturePath) }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func captureFuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    writeCapture(bytes)
    var choices = InputChoices(seed: bytes)
    // The reader refills its buffer at chunk boundaries; where the boundaries fall must not change
    // what it reads: the default 1 MiB (the whole input in one read) against small random chunks.
    let whole = readCapture(chunkSize: CaptureReader.defaultChunkSize)
    let chunked = readCapture(chunkSize: choices.next(upTo: 64))
    require(whole == chunked, "1 MiB chunks: \(whole.summary), small chunks: \(chunked.summary)")
    if let records = whole.records {
        require(records - whole.skipped == whole.packets.count, "\(records) records, \(whole.skipped) skipped, \(whole.packets.count) packets")
    }
    if case let .truncatedRecord(offset, _, _)? = whole.error {
        require(offset <= size, "truncated record at \(offset) of a \(size)-byte file")
    }
    if case let .malformedBlock(offset, _, _)? = whole.error {
        require(offset < size, "malformed block at \(offset) of a \(size)-byte file")
    }
    // pcapng: the same blocks in the other byte order read the same (every field the reader uses
    // is swapped; packet data is not).
    if let mirrored = pcapngInOtherByteOrder(bytes) {
        mirrored.withUnsafeBytes { writeCapture($0) }
        let other = readCapture(chunkSize: choices.next(upTo: 64))
        require(other == whole, "this byte order: \(whole.summary); the other: \(other.summary)")
    }
    return 0
}

/// A pcapng file of whole blocks (each length consistent and inside the file, from a Section
/// Header with a valid byte-order magic on) with every block's fields in the other byte order:
/// headers and trailers, the Section Header's fields, the Interface Description's link type, snap
/// length and option headers (and if_tsoffset), the packet blocks' fields. `nil` for anything else.
func pcapngInOtherByteOrder(_ b: UnsafeRawBufferPointer) -> [UInt8]? {
    var out = [UInt8](b)
    var bigEndian = false
    func u32(_ i: Int) -> UInt32 {
        let v = b.loadUnaligned(fromByteOffset: i, as: UInt32.self)
        return bigEndian ? UInt32(bigEndian: v) : UInt32(littleEndian: v)
    }
    func u16(_ i: Int) -> UInt16 {
        let v = b.loadUnaligned(fromByteOffset: i, as: UInt16.self)
        return bigEndian ? UInt16(bigEndian: v) : UInt16(littleEndian: v)
    }
    func swap(_ i: Int, _ size: Int) { out[i..<(i + size)].reverse() }
    var i = 0
    while i < b.count {
        guard i + 12 <= b.count else { return nil }
        if UInt32(bigEndian: b.loadUnaligned(fromByteOffset: i, as: UInt32.self)) == Pcapng.BlockType.sectionHeader {
            switch UInt32(bigEndian: b.loadUnaligned(fromByteOffset: i + 8, as: UInt32.self)) {
            case Pcapng.byteOrderMagic: bigEndian = true
            case Pcapng.byteOrderMagic.byteSwapped: bigEndian = false
            default: return nil
            }
        } else if i == 0 {
            return nil
        }
        let type = u32(i)
        let total = Int(u32(i + 4))
        guard total >= Pcapng.minimumLength(type), total % 4 == 0, i + total <= b.count, u32(i + total - 4) == total else { return nil }
        for field in [i, i + 4, i + total - 4] { swap(field, 4) }
        switch type {
        case Pcapng.BlockType.sectionHeader:
            swap(i + 8, 4); swap(i + 12, 2); swap(i + 14, 2); swap(i + 16, 8)
        case Pcapng.BlockType.interfaceDescription:
            swap(i + 8, 2); swap(i + 10, 2); swap(i + 12, 4)
            // The options as the reader walks them: up to the end-of-options, or one that runs past the block.
            let end = i + total - 4
            var o = i + 16
            while o + 4 <= end {
                let code = u16(o), length = Int(u16(o + 2))
                swap(o, 2); swap(o + 2, 2)
                if code == Pcapng.InterfaceOption.endOfOptions || o + 4 + length > end { break }
                if code == Pcapng.InterfaceOption.timestampOffset && length == 8 { swap(o + 4, 8) }
                o += 4 + (length + 3) & ~3
            }
        case Pcapng.BlockType.enhancedPacket:
            for field in stride(from: i + 8, to: i + 28, by: 4) { swap(field, 4) }
        case Pcapng.BlockType.simplePacket:
            swap(i + 8, 4)
        default:
            break
        }
        i += total
    }
    return out
}

func writeCapture(_ bytes: UnsafeRawBufferPointer) {
    let fd = open(capturePath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    require(fd >= 0, "cannot create \(capturePath): errno \(errno)")
    var done = 0
    while done < bytes.count {
        let n = write(fd, bytes.baseAddress! + done, bytes.count - done)
        require(n > 0, "writing \(capturePath) failed: errno \(errno)")
        done += n
    }
    close(fd)
}

/// A packet copied out of the reader's buffer, so reads with different buffers compare.
struct PacketCopy: Equatable {
    var timestamp: CaptureTimestamp, direction: CaptureDirection, type: CapturedPacketType, controller: UInt16, number: Int, bytes: [UInt8]
}

struct CaptureRead: Equatable {
    var packets: [PacketCopy] = []
    var sightings: [CapturedBeacon] = []
    var lenientSightings: [CapturedBeacon] = []
    var records: Int?
    var skipped = 0
    var error: CaptureError?
    var summary: String { "\(packets.count) packets, \(sightings.count) sightings, records \(records ?? -1), error \(error.map { "\($0)" } ?? "none")" }
}

/// Everything the reader and both extractors make of the file, up to the first error.
func readCapture(chunkSize: Int) -> CaptureRead {
    var out = CaptureRead()
    do throws(CaptureError) {
        var reader = try CaptureReader(path: capturePath, chunkSize: chunkSize)
        var strict = BeaconExtractor(options: .strict)
        var lenient = BeaconExtractor(options: .lenient)
        defer { out.records = reader.recordsRead; out.skipped = reader.skippedRecords }
        while let packet = try reader.nextPacket() {
            require(!packet.bytes.isEmpty, "record \(packet.recordNumber): an empty packet")
            out.packets.append(PacketCopy(timestamp: packet.timestamp, direction: packet.direction, type: packet.type,
                                          controller: packet.controllerIndex, number: packet.recordNumber, bytes: Array(packet.bytes)))
            strict.extract(packet) { out.sightings.append($0) }
            lenient.extract(packet) { out.lenientSightings.append($0) }
        }
        // Every beacon a strict reading finds, a lenient one finds too (in the same packets).
        require(out.sightings.count <= out.lenientSightings.count, "strict \(out.sightings.count) > lenient \(out.lenientSightings.count)")
    } catch {
        out.error = error
    }
    return out
}
