// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import Benchmark

/// iBeacon → advertising data, by value and into a caller's buffer.
func encodeBenchmarks() {
    let beacon = BenchmarkPayloads.beacon

    Benchmark("Encode: advertisingData() (30 B by value)") { benchmark in
        var b = beacon
        for i in benchmark.scaledIterations {
            b.minor = UInt16(truncatingIfNeeded: i)  // fresh input each time: nothing to hoist
            blackHole(b.advertisingData())
        }
    }

    Benchmark("Encode: encode(into:) (30 B into a buffer)") { benchmark in
        var b = beacon
        withUnsafeTemporaryAllocation(byteCount: AdvertisingPayload.capacity, alignment: 8) { buffer in
            for i in benchmark.scaledIterations {
                b.minor = UInt16(truncatingIfNeeded: i)
                blackHole(b.encode(into: buffer))
            }
            blackHole(buffer.baseAddress)
        }
    }
}
