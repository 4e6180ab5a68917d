// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import Testing
import AllocationCounting

#if os(Linux) && canImport(Glibc)
import Glibc

@Suite struct AllocationTests {
    /// The counter must see allocations, or the zero below would prove nothing. The exit status
    /// is the count (0 means the hook did not work at all; 255 that it is unavailable).
    @Test func theCounterSeesAllocations() async {
        await #expect(processExitsWith: .exitCode(2)) {
            let n = Int.random(in: 8...16)
            final class Box { var value = 0 }
            let counted = AllocationCounter.allocations {
                keep([UInt8](repeating: 1, count: n))  // one array buffer
                keep(Box())  // one class instance
                keep(n)  // nothing
            }
            exit(Int32(min(counted ?? 255, 255)))
        }
    }

    /// Encoding and strict, extended and lenient decoding of every golden vector, valid and
    /// malformed (so the typed-error paths too), allocate nothing. Exit status: the count.
    @Test func encodeAndDecodeDoNotAllocate() async {
        await #expect(processExitsWith: .exitCode(0)) {
            guard let file = try? GoldenVectorFile.shipped.get() else { exit(254) }
            // Everything the measured block touches is built before it.
            let inputs = file.valid.map(\.bytes) + file.malformed.map(\.bytes)
            let payloads = inputs.compactMap { AdvertisingPayload($0) }
            let beacons = file.valid.map { ($0.beacon, $0.flags) }
            var scratch = [UInt8](repeating: 0, count: 64)
            let options: [BeaconDecodingOptions] = [.strict, .strictExtended, .lenient]
            var outcomes = 0

            let counted = AllocationCounter.allocations {
                for _ in 0..<50 {
                    for (beacon, flags) in beacons {
                        let payload = beacon.advertisingData(flags: flags)
                        outcomes &+= payload.count
                        scratch.withUnsafeMutableBytes { outcomes &+= beacon.encode(flags: flags, into: $0) }
                    }
                    for bytes in inputs {
                        for o in options {
                            do throws(BeaconDecodingError) {
                                outcomes &+= Int(try IBeacon(decoding: bytes, options: o).major)
                            } catch {
                                outcomes &+= error.offset
                            }
                        }
                        bytes.withUnsafeBytes { raw in
                            do throws(BeaconDecodingError) {
                                outcomes &+= Int(try IBeacon(decoding: raw).minor)
                            } catch {
                                outcomes &+= error.offset
                            }
                            var walker = ADStructureWalker(raw)
                            while let s = try? walker.next() { outcomes &+= s.data.count }
                            for s in ADStructures(raw) { outcomes &+= s.offset }
                        }
                    }
                    for payload in payloads {
                        do throws(BeaconDecodingError) {
                            outcomes &+= Int(try IBeacon(decoding: payload).measuredPower)
                        } catch {
                            outcomes &+= error.offset
                        }
                        keep(payload.padded)
                        keep(payload == payloads[0])
                    }
                }
            }
            keep(outcomes)
            exit(Int32(min(counted ?? 255, 255)))
        }
    }

    /// The same for the other formats: encoding every format's vectors, and AnyBeacon's strict,
    /// extended and lenient decoding of all vectors (theirs and iBeacon's, valid and malformed).
    @Test func formatsEncodeAndDecodeDoNotAllocate() async {
        await #expect(processExitsWith: .exitCode(0)) {
            guard let vectors = try? FormatVectorFiles.shipped.get(), let ibeacon = try? GoldenVectorFile.shipped.get() else { exit(254) }
            let inputs = vectors.map(\.bytes) + ibeacon.valid.map(\.bytes) + ibeacon.malformed.map(\.bytes)
            let payloads = inputs.compactMap { AdvertisingPayload($0) }
            let beacons: [(AnyBeacon, BeaconFlags)] = vectors.compactMap { v in
                guard case .beacon(let b) = v.expected, let f = v.flags else { return nil }
                return (b, f)
            }
            var scratch = [UInt8](repeating: 0, count: 64)
            let options: [BeaconDecodingOptions] = [.strict, .strictExtended, .lenient]
            var outcomes = 0

            let counted = AllocationCounter.allocations {
                for _ in 0..<20 {
                    for (beacon, flags) in beacons {
                        outcomes &+= beacon.advertisingData(flags: flags).count
                        scratch.withUnsafeMutableBytes { outcomes &+= beacon.encode(flags: flags, into: $0) }
                        outcomes &+= beacon.encodedSize(flags: flags)
                    }
                    for bytes in inputs {
                        for o in options {
                            do throws(AnyBeaconDecodingError) {
                                outcomes &+= try AnyBeacon(decoding: bytes, options: o).encodedSize(flags: .none)
                            } catch {
                                outcomes &+= error.offset
                            }
                        }
                    }
                    for payload in payloads {
                        do throws(AnyBeaconDecodingError) {
                            keep(try AnyBeacon(decoding: payload).format)
                        } catch {
                            outcomes &+= error.offset
                        }
                    }
                }
            }
            keep(outcomes)
            exit(Int32(min(counted ?? 255, 255)))
        }
    }

    /// Telling which format a payload is (`decode`'s answer, iBeacon first, then any format),
    /// valid or not, allocates nothing either (the reason in words is worked out only when asked).
    @Test func identifyingAPayloadDoesNotAllocate() async {
        await #expect(processExitsWith: .exitCode(0)) {
            guard let vectors = try? FormatVectorFiles.shipped.get(), let ibeacon = try? GoldenVectorFile.shipped.get() else { exit(254) }
            let inputs = vectors.map(\.bytes) + ibeacon.valid.map(\.bytes) + ibeacon.malformed.map(\.bytes)
            let options: [BeaconDecodingOptions] = [.strict, .strictExtended, .lenient]
            var outcomes = 0

            let counted = AllocationCounter.allocations {
                for _ in 0..<20 {
                    for bytes in inputs {
                        for o in options {
                            bytes.withUnsafeBytes { raw in
                                do throws(PayloadDecodingError) {
                                    outcomes &+= try AnyBeacon(identifying: raw, options: o).encodedSize(flags: .none)
                                } catch {
                                    outcomes &+= error.offset &+ error.kind.name.utf8.count
                                }
                            }
                        }
                    }
                }
            }
            keep(outcomes)
            exit(Int32(min(counted ?? 255, 255)))
        }
    }
}
#endif
