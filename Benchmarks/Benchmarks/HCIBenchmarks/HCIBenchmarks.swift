// SPDX-License-Identifier: GPL-2.0-or-later
import Benchmark
import HCI

/// Time and heap allocations of the HCI layer's per-packet work, with `HCI` called from another
/// module in a release build, as `HCITransport`, the scanner and the capture reader call it:
/// whatever is not `@inlinable` (or generic and not specialisable) runs here as it runs there.
///
/// Every benchmark runs 1,000 operations per sample (`scalingFactor: .kilo`) and the harness
/// divides by 1,000: the figures it prints are per packet / per event / per command.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .instructions, .mallocCountTotal, .throughput],
        timeUnits: .nanoseconds,
        scalingFactor: .kilo,
        maxDuration: .seconds(1),
        maxIterations: 1_000_000
    )

    h4StreamBenchmarks()
    eventBenchmarks()
    commandBenchmarks()
}
