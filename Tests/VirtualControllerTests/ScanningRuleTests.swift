// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import HCI
import Testing
@testable import VirtualController

/// Scanning rules of Core Vol 4 Part E §7.8.4, §7.8.10, §7.8.11, §7.8.64, §7.8.65.
@Suite struct ScanningRuleTests {
    @Test func legacyScanning() {
        let bench = Bench()
        #expect(bench.status(LESetScanParameters(interval: 0x0003, window: 0x0003)) == .invalidCommandParameters)
        #expect(bench.status(LESetScanParameters(interval: 0x0010, window: 0x0011)) == .invalidCommandParameters)
        #expect(bench.status(LESetScanParameters(interval: 0x4001, window: 0x0010)) == .invalidCommandParameters)
        bench.succeed(LESetScanParameters(interval: 0x0010, window: 0x0010, ownAddressType: .random))
        // Random own address with none set.
        #expect(bench.status(LESetScanEnable(true)) == .invalidCommandParameters)
        bench.succeed(LESetRandomAddress(staticAddress1), LESetScanEnable(true))
        // While scanning: no new parameters, no new random address.
        #expect(bench.status(LESetScanParameters()) == .commandDisallowed)
        #expect(bench.status(LESetRandomAddress(staticAddress2)) == .commandDisallowed)
        bench.succeed(LESetScanEnable(false), LESetScanParameters(), LESetRandomAddress(staticAddress2))
    }

    @Test func extendedScanning() {
        let bench = Bench()
        let coded = LESetExtendedScanParameters(le1M: nil, leCoded: .init(interval: 0x10, window: 0x10))
        #expect(bench.status(coded) == .unsupportedFeatureOrParameter)
        #expect(bench.status(LESetExtendedScanParameters(le1M: .init(interval: 0x10, window: 0x20))) == .invalidCommandParameters)
        #expect(bench.status(LESetExtendedScanParameters(le1M: nil)) == .invalidCommandParameters)
        bench.succeed(LESetExtendedScanParameters(le1M: .init(interval: 0x10, window: 0x10)))
        // Filter_Duplicates 2 needs a duration and a period; Duration must be shorter than Period.
        #expect(bench.status(LESetExtendedScanEnable(true, filterDuplicates: 2)) == .invalidCommandParameters)
        #expect(bench.status(LESetExtendedScanEnable(true, filterDuplicates: 3)) == .invalidCommandParameters)
        #expect(bench.status(LESetExtendedScanEnable(true, duration: 128, period: 1)) == .invalidCommandParameters)  // 1.28 s ≥ 1.28 s
        bench.succeed(LESetExtendedScanEnable(true, filterDuplicates: 2, duration: 127, period: 1))
        #expect(bench.status(LESetExtendedScanParameters(le1M: .init(interval: 0x10, window: 0x10))) == .commandDisallowed)
        bench.succeed(LESetExtendedScanEnable(false))
    }
}
