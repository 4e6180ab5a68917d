// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import Benchmark

/// Advertising data → iBeacon, strict and lenient, on the two legacy payloads.
func decodeBenchmarks() {
    let cases: [(name: String, bytes: [UInt8], beaconStart: Int)] = [
        ("30 B flags+iBeacon", BenchmarkPayloads.flagsAndBeacon30, IBeaconFormat.flagsStructureSize),
        ("31 B UUIDs then iBeacon", BenchmarkPayloads.otherThenBeacon31, BenchmarkPayloads.serviceUUIDStructure.count),
    ]
    for c in cases {
        let minorLow = BenchmarkPayloads.minorLowByteOffset(beaconStart: c.beaconStart)

        Benchmark("Decode strict: \(c.name)") { benchmark in
            decodeLoop(benchmark, c.bytes, minorLow) { (raw) throws(BeaconDecodingError) in try IBeacon(decoding: raw, options: .strict) }
        }
        Benchmark("Decode lenient: \(c.name)") { benchmark in
            decodeLoop(benchmark, c.bytes, minorLow) { (raw) throws(BeaconDecodingError) in try IBeacon(decoding: raw, options: .lenient) }
        }
    }

    // The `[UInt8]` entry point, which the CLI uses on hex it has parsed.
    Benchmark("Decode strict [UInt8]: 30 B flags+iBeacon") { benchmark in
        // Building the array allocates once per sample: keep it out of the measured region.
        var bytes = BenchmarkPayloads.flagsAndBeacon30
        let minorLow = BenchmarkPayloads.minorLowByteOffset(beaconStart: IBeaconFormat.flagsStructureSize)
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations {
            bytes[minorLow] = UInt8(truncatingIfNeeded: i)
            do {
                blackHole(try IBeacon(decoding: bytes, options: .strict))
            } catch {
                fatalError("the benchmark payload must decode: \(error)")
            }
        }
    }
}

/// Copies `payload` to stack memory, then decodes it `scalingFactor` times, rewriting the minor's
/// low byte before each decode so the optimiser cannot hoist the decode out of the loop.
@inline(__always)
func decodeLoop(
    _ benchmark: Benchmark, _ payload: [UInt8], _ minorLow: Int,
    _ decode: (UnsafeRawBufferPointer) throws(BeaconDecodingError) -> IBeacon
) {
    withUnsafeTemporaryAllocation(byteCount: payload.count, alignment: 8) { buffer in
        buffer.copyBytes(from: payload)
        let raw = UnsafeRawBufferPointer(buffer)
        for i in benchmark.scaledIterations {
            buffer[minorLow] = UInt8(truncatingIfNeeded: i)
            do throws(BeaconDecodingError) {
                let beacon = try decode(raw)
                precondition(beacon.minor & 0xFF == UInt16(truncatingIfNeeded: i) & 0xFF)
                blackHole(beacon)
            } catch {
                fatalError("the benchmark payload must decode: \(error)")
            }
        }
    }
}
