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
            exitWithAllocations(reading: try? CaptureFiles.write(file), uncounted: 0, minorSum: 4000 * 2)
        }
    }

    /// The same for pcapng, both byte orders in two sections, with Link Layer packets (251 and 256)
    /// among the reports: blocks straddle refills; nothing is allocated once the interfaces are known.
    @Test func pcapngIsReadWithoutAllocating() async {
        await #expect(processExitsWith: .exitCode(0)) {
            let beacon = IBeacon(uuid: BeaconUUID(high: 0xE2C5_6DB5_DFFB_48D2, low: 0xB060_D0F5_A710_96E0), major: 1, minor: 2)
            let payload = HCIBytes.iBeaconPayload(beacon)
            let report = HCIBytes.advertisingReport([(BluetoothAddress(0xC0_11_22_33_44_55), 1, payload, -60)])
            let pdu = LinkLayerBytes.advertising(pduType: 2, randomAddress: true, address: BluetoothAddress(0xC1), data: payload)
            var file: [UInt8] = []
            for bigEndian in [false, true] {
                let w = PcapngFiles(bigEndian: bigEndian)
                file += w.sectionHeader() + w.interface(linkType: 201, resolution: 9) + w.interface(linkType: 251)
                    + w.interface(linkType: 256)
                for i in 0..<1500 {
                    switch i % 3 {
                    case 0: file += w.enhancedPacket(interface: 0, ticks: UInt64(i), data: CaptureFiles.be32(1) + [0x04] + report)
                    case 1: file += w.enhancedPacket(interface: 1, ticks: UInt64(i), data: pdu) + w.nameResolution()
                    default: file += w.enhancedPacket(interface: 2, ticks: UInt64(i), data: LinkLayerBytes.radioHeader(rssi: -50) + pdu)
                    }
                }
            }
            // The first packet reads the first section's interfaces (an allocation each, as for any header).
            exitWithAllocations(reading: try? CaptureFiles.write(file), uncounted: 1, minorSum: 3000 * 2)
        }
    }
}

/// Reads the capture at `path` in 4 KiB chunks through a ``BeaconExtractor`` and exits with the
/// allocations counted after the first `uncounted` packets (255: hook unavailable, 254: setup
/// failed, 253: a read error or a sum of the beacons' minors other than `minorSum`).
func exitWithAllocations(reading path: String?, uncounted: Int, minorSum: Int) -> Never {
    guard let path, var reader = try? CaptureReader(path: path, chunkSize: 4096) else { exit(254) }
    var extractor = BeaconExtractor()
    var found = 0
    var failed = false
    // Packets read before counting are let go before the buffer refills, as the reader asks.
    for _ in 0..<uncounted {
        guard let packet = try? reader.nextPacket() else { exit(254) }
        extractor.extract(packet) { found &+= Int($0.beacon.iBeacon?.minor ?? 0) }
    }
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
    guard !failed, found == minorSum else { exit(253) }
    exit(Int32(min(counted ?? 255, 255)))
}
#endif