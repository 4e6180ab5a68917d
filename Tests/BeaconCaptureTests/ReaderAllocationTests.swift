// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCapture
import BeaconCodec
import Testing
import AllocationCounting

#if os(Linux) && canImport(Glibc)
import Glibc

@Suite struct ReaderAllocationTests {
    /// Reading and extracting thousands of advertising reports — iBeacons and not, legacy and
    /// extended, across many buffer refills — allocates nothing once the reader is open.
    /// (Commands are decoded with the HCI module's types and may allocate: they are rare.)
    /// Exit status: the allocation count (255: hook unavailable, 254: setup failed).
    @Test func reportsAreReadWithoutAllocating() async {
        await #expect(processExitsWith: .exitCode(0)) {
            let beacon = IBeacon(uuid: BeaconUUID(high: 0xE2C5_6DB5_DFFB_48D2, low: 0xB060_D0F5_A710_96E0), major: 1, minor: 2)
            let legacy = HCIBytes.advertisingReport([
                (BluetoothAddress(0xC0_11_22_33_44_55), 1, HCIBytes.iBeaconPayload(beacon), -60),
                (BluetoothAddress(0xC0_11_22_33_44_66), 1, [0x02, 0x01, 0x06, 0x03, 0xFF, 0x59, 0x00], -70),
            ])
            let extended = HCIBytes.extendedAdvertisingReport(address: BluetoothAddress(0xC1), sid: 1, rssi: -50,
                                                              data: HCIBytes.iBeaconPayload(beacon))
            var file = CaptureFiles.btsnoopHeader(datalink: 1002)
            for i in 0..<4000 {
                file += CaptureFiles.btsnoopRecord(flags: 3, unixMicroseconds: UInt64(i), data: [0x04] + (i % 3 == 0 ? extended : legacy))
            }
            guard let path = try? CaptureFiles.write(file), var reader = try? CaptureReader(path: path, chunkSize: 4096) else { exit(254) }
            var extractor = BeaconExtractor()
            var found = 0
            var failed = false
            let counted = AllocationCounter.allocations {
                do throws(CaptureError) {
                    while let packet = try reader.nextPacket() {
                        extractor.extract(packet) { sighting in found &+= Int(sighting.beacon.iBeacon?.minor ?? 0) }
                    }
                } catch {
                    failed = true
                }
            }
            keep(found)
            guard !failed, found == 4000 * 2 else { exit(253) }
            exit(Int32(min(counted ?? 255, 255)))
        }
    }
}
#endif
