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
    return 0
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
