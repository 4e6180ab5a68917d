// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import Benchmark

/// Decoding data that holds no iBeacon: what a scanner does for most advertisements it hears.
///
/// The codec throws a typed `BeaconDecodingError` (a small struct), which costs nothing on the
/// heap as long as the caller keeps it typed. Caught as `any Error`, Swift boxes it: one malloc
/// per failed decode. The three benchmarks show the difference, so callers pick the right form.
func failureBenchmarks() {
    let payload = BenchmarkPayloads.eddystoneUID31
    let varied = BenchmarkPayloads.eddystoneInstanceLastByte

    Benchmark("No iBeacon, strict, typed catch: 31 B Eddystone-UID") { benchmark in
        failureLoop(benchmark, payload, varied) { raw in
            do throws(BeaconDecodingError) {
                blackHole(try IBeacon(decoding: raw, options: .strict))
                return false
            } catch {
                return error.kind == .noIBeacon
            }
        }
    }

    Benchmark("No iBeacon, strict, try?: 31 B Eddystone-UID") { benchmark in
        failureLoop(benchmark, payload, varied) { raw in
            (try? IBeacon(decoding: raw, options: .strict)) == nil
        }
    }

    Benchmark("No iBeacon, strict, catch as any Error: 31 B Eddystone-UID") { benchmark in
        failureLoop(benchmark, payload, varied) { raw in
            do {
                blackHole(try IBeacon(decoding: raw, options: .strict))
                return false
            } catch let error as BeaconDecodingError {  // `error` arrives boxed as `any Error`
                return error.kind == .noIBeacon
            } catch {
                return false
            }
        }
    }

    Benchmark("No iBeacon, lenient, typed catch: 31 B Eddystone-UID") { benchmark in
        failureLoop(benchmark, payload, varied) { raw in
            do throws(BeaconDecodingError) {
                blackHole(try IBeacon(decoding: raw, options: .lenient))
                return false
            } catch {
                return error.kind == .noIBeacon
            }
        }
    }
}

/// Runs `attempt` (which returns whether the decode failed as expected) `scalingFactor` times on
/// a stack copy of `payload`, rewriting byte `varied` first so nothing can be hoisted.
@inline(__always)
func failureLoop(
    _ benchmark: Benchmark, _ payload: [UInt8], _ varied: Int,
    _ attempt: (UnsafeRawBufferPointer) -> Bool
) {
    withUnsafeTemporaryAllocation(byteCount: payload.count, alignment: 8) { buffer in
        buffer.copyBytes(from: payload)
        let raw = UnsafeRawBufferPointer(buffer)
        for i in benchmark.scaledIterations {
            buffer[varied] = UInt8(truncatingIfNeeded: i)
            let failedAsExpected = attempt(raw)
            precondition(failedAsExpected, "an Eddystone payload must not decode as an iBeacon")
            blackHole(failedAsExpected)
        }
    }
}
