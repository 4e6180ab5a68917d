// SPDX-License-Identifier: GPL-2.0-or-later
import Benchmark
import HCI

/// `H4StreamDecoder` splitting a stream of 1,000 LE Advertising Report events (45 bytes each,
/// 45,000 bytes) into packets, the stream cut three ways. One sample = one fresh decoder and the
/// whole stream, so the decoder's own buffer growth is included (amortised over 1,000 packets).
func h4StreamBenchmarks() {
    let chunkings: [(name: String, size: Int)] = [
        ("one 45,000-byte chunk", 45_000),
        ("64-byte chunks", 64),
        ("1-byte chunks", 1),
    ]
    for chunking in chunkings {
        // `feed` is what HCITransport's reader thread calls with each read.
        Benchmark("H4 feed, \(chunking.name): per packet") { benchmark in
            let stream = HCIPayloads.advertisingReportStream
            benchmark.startMeasurement()
            let packets = decodeStream(stream, chunkSize: chunking.size) { (decoder, chunk, sink) throws(H4DecodingError) in
                for packet in try decoder.feed(chunk) { sink(packet) }
            }
            benchmark.stopMeasurement()
            precondition(packets == benchmark.scaledIterations.count, "every packet must come out")
        }
        // `append` then `next()` until nil: no array of packets per call.
        Benchmark("H4 append+next, \(chunking.name): per packet") { benchmark in
            let stream = HCIPayloads.advertisingReportStream
            benchmark.startMeasurement()
            let packets = decodeStream(stream, chunkSize: chunking.size) { (decoder, chunk, sink) throws(H4DecodingError) in
                try decoder.append(chunk)
                while let packet = try decoder.next() { sink(packet) }
            }
            benchmark.stopMeasurement()
            precondition(packets == benchmark.scaledIterations.count, "every packet must come out")
        }
    }
}

/// Feeds `stream` to a new decoder `chunkSize` bytes at a time through `step`, checks that every
/// packet is a whole 44-byte event and returns how many came out.
@inline(__always)
func decodeStream(
    _ stream: [UInt8], chunkSize: Int,
    _ step: (inout H4StreamDecoder, ArraySlice<UInt8>, (H4Packet) -> Void) throws(H4DecodingError) -> Void
) -> Int {
    var decoder = H4StreamDecoder()
    var count = 0
    var start = 0
    while start < stream.count {
        let end = min(start + chunkSize, stream.count)
        do throws(H4DecodingError) {
            try step(&decoder, stream[start..<end]) { packet in
                precondition(packet.type == .event && packet.bytes.count == 44)
                blackHole(packet)
                count += 1
            }
        } catch {
            fatalError("the benchmark stream is valid H4: \(error)")
        }
        start = end
    }
    return count
}
