// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import Benchmark

/// The AD structure walker over one full extended advertising fragment (254 bytes, 34 structures).
func walkerBenchmarks() {
    let fragment = BenchmarkPayloads.extendedFragment254
    let expectedStructures = 34

    Benchmark("AD walker: 254 B extended fragment (34 structures)") { benchmark in
        withUnsafeTemporaryAllocation(byteCount: fragment.count, alignment: 8) { buffer in
            buffer.copyBytes(from: fragment)
            let raw = UnsafeRawBufferPointer(buffer)
            for i in benchmark.scaledIterations {
                buffer[fragment.count - 1] = UInt8(truncatingIfNeeded: i)  // last data byte of the last structure
                var walker = ADStructureWalker(raw)
                var structures = 0
                var typeSum = 0
                do throws(BeaconDecodingError) {
                    while let s = try walker.next() {
                        structures += 1
                        typeSum &+= Int(s.type.rawValue) &+ Int(s.data[s.data.count - 1])
                    }
                } catch {
                    fatalError("the fragment must walk: \(error)")
                }
                precondition(structures == expectedStructures)
                blackHole(typeSum)
            }
        }
    }

    Benchmark("Decode strictExtended: 254 B extended fragment") { benchmark in
        decodeLoop(benchmark, fragment, BenchmarkPayloads.minorLowByteOffset(beaconStart: IBeaconFormat.flagsStructureSize)) { (raw) throws(BeaconDecodingError) in
            try IBeacon(decoding: raw, options: .strictExtended)
        }
    }
}
