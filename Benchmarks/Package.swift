// swift-tools-version:6.1
// SPDX-License-Identifier: GPL-2.0-or-later
// Benchmarks for beacon, kept in their own package so that the benchmark harness and its malloc
// interposer never become dependencies of the tool or the library. Run from this directory:
//
//     swift package --disable-sandbox benchmark
//
// See ../BENCHMARKS.md for the figures and how they were taken.
import PackageDescription

let package = Package(
    name: "beacon-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // The root package, by path: the benchmarks call the codec across a module boundary, as the
        // tool and any other client do, so what is not `@inlinable` shows up here unspecialised.
        .package(name: "beacon", path: ".."),
        // Only the MallocInterposer trait: on Swift 6.3 it counts mallocs without jemalloc or any
        // system library. Leaving out the default RuntimeInterposer trait (ARC counters on Linux
        // 6.3) keeps swift-runtime-interposer out of the build; we do not measure retain/release.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "CodecBenchmarks",
            dependencies: [
                .product(name: "BeaconCodec", package: "beacon"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/CodecBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // H4 framing, event decoding and command encoding (HCI called across the module boundary).
        .executableTarget(
            name: "HCIBenchmarks",
            dependencies: [
                .product(name: "HCI", package: "beacon"),
                .product(name: "BeaconCodec", package: "beacon"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/HCIBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
