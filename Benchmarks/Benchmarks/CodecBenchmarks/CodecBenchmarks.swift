// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import Benchmark

/// Time, instructions and heap allocations per codec operation, with the codec called from
/// another module in a release build: what is not `@inlinable` in BeaconCodec runs here
/// unspecialised, exactly as it does for the `beacon` tool.
///
/// Every benchmark runs 1,000 operations per sample (`scalingFactor: .kilo`); the harness divides
/// by 1,000, so the figures it prints are per operation. Allocation counts are per operation too:
/// the target is 0.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .instructions, .mallocCountTotal, .throughput],
        timeUnits: .nanoseconds,
        scalingFactor: .kilo,
        maxDuration: .seconds(1),
        maxIterations: 1_000_000
    )

    // The cost of the measuring loop itself (loop, blackHole call): subtract it from the others.
    Benchmark("Overhead: loop + blackHole") { benchmark in
        for i in benchmark.scaledIterations {
            blackHole(i)
        }
    }

    encodeBenchmarks()
    decodeBenchmarks()
    walkerBenchmarks()
    failureBenchmarks()
    uuidBenchmarks()
}
