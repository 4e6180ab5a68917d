// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import Benchmark
import HCI

/// Encoding the two commands a rotation slot sends per set, as the bytes an H4 transport writes
/// (`h4Bytes`): the command value is built in the loop too, as `AdvertisingProgram` builds it.
func commandBenchmarks() {
    Benchmark("h4Bytes: LE Set Extended Advertising Data (30 B iBeacon)") { benchmark in
        let payloads = (0..<4).map { HCIPayloads.iBeacon(minor: UInt16($0)) }
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations {
            let command = LESetExtendedAdvertisingData(handle: UInt8(i & 0x0F), payload: payloads[i & 3])
            let bytes = command.h4Bytes
            precondition(bytes.count == 1 + 3 + 4 + 30)
            blackHole(bytes)
        }
    }

    Benchmark("h4Bytes: LE Set Extended Advertising Data, command built outside the loop") { benchmark in
        let command = LESetExtendedAdvertisingData(handle: 0, payload: HCIPayloads.iBeacon(minor: 1))
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let bytes = command.h4Bytes
            precondition(bytes.count == 38)
            blackHole(bytes)
        }
    }

    Benchmark("h4Bytes: LE Set Extended Advertising Parameters") { benchmark in
        for i in benchmark.scaledIterations {
            // 100 ms (0x00A0 × 0.625 ms), legacy non-connectable, as an iBeacon set is configured.
            let command = LESetExtendedAdvertisingParameters(
                handle: UInt8(i & 0x0F), eventProperties: .legacyNonConnectable, intervalMin: 0xA0, intervalMax: AdvertisingInterval(units: 0xA0 + UInt32(i & 1)))
            let bytes = command.h4Bytes
            precondition(bytes.count == 1 + 3 + 25)
            blackHole(bytes)
        }
    }
}
