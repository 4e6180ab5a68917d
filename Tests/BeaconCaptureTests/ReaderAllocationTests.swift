// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCapture
import BeaconCodec
import Testing

#if os(Linux) && canImport(Glibc)
import Glibc

/// Counts Swift heap allocations (array and string storage, class instances, closure contexts,
/// boxes) while `body` runs, through the runtime's `_swift_allocObject` hook — the method of
/// Tests/BeaconCodecTests/AllocationTests.swift, whose comments explain why the hook may only be
/// live in an exit test's child process and why Swift Testing's will-throw handlers are removed
/// while measuring.
enum CaptureAllocationCounter {
    typealias AllocObject = @convention(c) (UnsafeRawPointer?, Int, Int) -> UnsafeMutableRawPointer?

    nonisolated(unsafe) static var count = 0
    nonisolated(unsafe) static var original: AllocObject?

    static func allocations(in body: () -> Void) -> Int? {
        let rtldDefault = UnsafeMutableRawPointer(bitPattern: 0)
        guard let slotSymbol = dlsym(rtldDefault, "_swift_allocObject"),
              let flagSymbol = dlsym(rtldDefault, "_swift_enableSwizzlingOfAllocationAndRefCountingFunctions_forInstrumentsOnly")
        else { return nil }
        let slot = slotSymbol.assumingMemoryBound(to: AllocObject?.self)
        let flag = flagSymbol.assumingMemoryBound(to: Bool.self)
        guard let saved = slot.pointee else { return nil }
        let wasSwizzling = flag.pointee
        let willThrowSlots = [dlsym(rtldDefault, "_swift_willThrow"), dlsym(rtldDefault, "_swift_willThrowTypedImpl")]
            .map { $0?.assumingMemoryBound(to: UnsafeRawPointer?.self) }
        let handlers = willThrowSlots.map { $0?.pointee }
        for s in willThrowSlots { s?.pointee = nil }
        defer { for (s, h) in zip(willThrowSlots, handlers) { s?.pointee = h } }
        original = saved
        count = 0
        slot.pointee = { metadata, size, alignmentMask in
            CaptureAllocationCounter.count += 1
            return CaptureAllocationCounter.original.unsafelyUnwrapped(metadata, size, alignmentMask)
        }
        body()
        slot.pointee = saved
        flag.pointee = wasSwizzling
        return count
    }
}

@inline(never) func keepCaptureValue<T>(_ value: T) { withExtendedLifetime(value) {} }

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
            let counted = CaptureAllocationCounter.allocations {
                do throws(CaptureError) {
                    while let packet = try reader.nextPacket() {
                        extractor.extract(packet) { sighting in found &+= Int(sighting.beacon.minor) }
                    }
                } catch {
                    failed = true
                }
            }
            keepCaptureValue(found)
            guard !failed, found == 4000 * 2 else { exit(253) }
            exit(Int32(min(counted ?? 255, 255)))
        }
    }
}
#endif
