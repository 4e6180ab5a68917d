// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import Benchmark
import HCI

/// Decoding received events: the typed path (`HCIEvent(packet:)`, what `HCIController` hands to
/// the scanner) and the allocation-free report walk (`forEachReport`, what the capture reader
/// uses). Each iteration rewrites the minor's low byte so nothing can be hoisted.
func eventBenchmarks() {
    Benchmark("HCIEvent(packet:): LE Advertising Report, 1 iBeacon") { benchmark in
        var packet = HCIPayloads.advertisingReportEvent(minor: 0)
        // Parameters start after code and length: the offset there is 2 less.
        let minorLow = HCIPayloads.minorLowOffsetInAdvertisingReport - 2
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations {
            packet.parameters[minorLow] = UInt8(truncatingIfNeeded: i)
            do throws(HCIDecodingError) {
                guard case .leAdvertisingReport(let event) = try HCIEvent(packet: packet) else { fatalError("wrong event") }
                precondition(event.reports[0].data[28] == UInt8(truncatingIfNeeded: i))
                blackHole(event)
            } catch {
                fatalError("the benchmark event must decode: \(error)")
            }
        }
    }

    Benchmark("HCIEvent(packet:): LE Extended Advertising Report, 1 iBeacon") { benchmark in
        var packet = HCIPayloads.extendedAdvertisingReportEvent(minor: 0)
        let minorLow = HCIPayloads.minorLowOffsetInExtendedReport - 2
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations {
            packet.parameters[minorLow] = UInt8(truncatingIfNeeded: i)
            do throws(HCIDecodingError) {
                guard case .leExtendedAdvertisingReport(let event) = try HCIEvent(packet: packet) else { fatalError("wrong event") }
                precondition(event.reports[0].data[28] == UInt8(truncatingIfNeeded: i))
                blackHole(event)
            } catch {
                fatalError("the benchmark event must decode: \(error)")
            }
        }
    }

    // What HCITransport's reader does per received packet: H4Packet → HCIEventPacket → HCIEvent.
    Benchmark("H4Packet.eventPacket() + HCIEvent(packet:): LE Advertising Report") { benchmark in
        var packet = H4Packet(HCIPayloads.advertisingReportEvent(minor: 0))
        let minorLow = HCIPayloads.minorLowOffsetInAdvertisingReport
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations {
            packet.bytes[minorLow] = UInt8(truncatingIfNeeded: i)
            do throws(HCIDecodingError) {
                guard let raw = try packet.eventPacket(), case .leAdvertisingReport(let event) = try HCIEvent(packet: raw) else {
                    fatalError("wrong event")
                }
                precondition(event.reports[0].data[28] == UInt8(truncatingIfNeeded: i))
                blackHole(event)
            } catch {
                fatalError("the benchmark event must decode: \(error)")
            }
        }
    }

    Benchmark("forEachReport(inEventBytes:): LE Advertising Report, 1 iBeacon") { benchmark in
        var bytes = HCIPayloads.advertisingReportEvent(minor: 0).bytes
        let minorLow = HCIPayloads.minorLowOffsetInAdvertisingReport
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations {
            bytes[minorLow] = UInt8(truncatingIfNeeded: i)
            do throws(HCIDecodingError) {
                var seen = 0
                let isReport = try LEAdvertisingReportEvent.forEachReport(inEventBytes: bytes[...]) { report in
                    precondition(report.data[28] == UInt8(truncatingIfNeeded: i))
                    blackHole(report)
                    seen += 1
                }
                precondition(isReport && seen == 1)
            } catch {
                fatalError("the benchmark event must decode: \(error)")
            }
        }
    }

    // The scanner's whole per-report cost on top of HCIEvent: the strict iBeacon decode.
    Benchmark("forEachReport + IBeacon strict decode: LE Advertising Report") { benchmark in
        var bytes = HCIPayloads.advertisingReportEvent(minor: 0).bytes
        let minorLow = HCIPayloads.minorLowOffsetInAdvertisingReport
        benchmark.startMeasurement()
        for i in benchmark.scaledIterations {
            bytes[minorLow] = UInt8(truncatingIfNeeded: i)
            do throws(HCIDecodingError) {
                _ = try LEAdvertisingReportEvent.forEachReport(inEventBytes: bytes[...]) { report in
                    guard let beacon = try? IBeacon(decoding: report.data, options: .strict) else { fatalError("not an iBeacon") }
                    precondition(beacon.minor & 0xFF == UInt16(truncatingIfNeeded: i) & 0xFF)
                    blackHole(beacon)
                }
            } catch {
                fatalError("the benchmark event must decode: \(error)")
            }
        }
    }
}
