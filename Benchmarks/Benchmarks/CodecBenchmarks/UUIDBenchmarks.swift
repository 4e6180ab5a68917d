// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import Benchmark

/// Parsing a proximity UUID from text (profiles, the command line).
func uuidBenchmarks() {
    let texts = BenchmarkPayloads.uuidTexts  // four spellings, 36 and 32 characters, both cases

    Benchmark("UUID parse: BeaconUUID(String)") { benchmark in
        for i in benchmark.scaledIterations {
            guard let uuid = BeaconUUID(texts[i & 3]) else { fatalError("the benchmark UUIDs must parse") }
            blackHole(uuid)
        }
    }
}
