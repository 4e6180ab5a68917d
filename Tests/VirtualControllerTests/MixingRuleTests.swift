// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import HCI
import Testing
@testable import VirtualController

/// Core Vol 4 Part E §3.1.1: after the first legacy advertising command, extended ones are
/// Command Disallowed, and the other way round, until Reset.
@Suite struct MixingRuleTests {
    static let legacyCommands: [any HCICommand] = [
        LESetAdvertisingParameters(intervalMin: 0xA0, intervalMax: 0xA0), LEReadAdvertisingPhysicalChannelTxPower(),
        LESetAdvertisingData(AdvertisingPayload()), LESetScanResponseData(AdvertisingPayload()), LESetAdvertisingEnable(false),
        LESetScanParameters(), LESetScanEnable(false),
    ]
    static let extendedCommands: [any HCICommand] = [
        nonConnectableSet(0), LESetAdvertisingSetRandomAddress(handle: 0, address: staticAddress1),
        LESetExtendedAdvertisingData(handle: 0, data: []), LESetExtendedAdvertisingEnable.disableAll,
        LEReadMaximumAdvertisingDataLength(), LEReadNumberOfSupportedAdvertisingSets(), LERemoveAdvertisingSet(handle: 0),
        LEClearAdvertisingSets(), LESetExtendedScanParameters(le1M: .init(interval: 16, window: 16)), LESetExtendedScanEnable(false),
    ]

    @Test(arguments: 0..<legacyCommands.count)
    func legacyFirstThenExtendedIsDisallowed(first: Int) {
        let bench = Bench()
        bench.succeed(Self.legacyCommands[first])
        for command in Self.extendedCommands {
            #expect(bench.status(command) == .commandDisallowed, "\(type(of: command).name)")
        }
        // Reset lifts it: extended commands now work, and legacy ones are the refused ones.
        bench.succeed(HCIReset(), nonConnectableSet(0))
        for command in Self.legacyCommands {
            #expect(bench.status(command) == .commandDisallowed, "\(type(of: command).name)")
        }
    }

    @Test(arguments: 0..<extendedCommands.count)
    func extendedFirstThenLegacyIsDisallowed(first: Int) {
        let bench = Bench()
        // The first extended command may itself fail (an unknown set): it still chose the family.
        _ = bench.status(Self.extendedCommands[first])
        for command in Self.legacyCommands {
            #expect(bench.status(command) == .commandDisallowed, "\(type(of: command).name)")
        }
        bench.succeed(HCIReset(), LESetAdvertisingParameters(intervalMin: 0xA0, intervalMax: 0xA0))
    }

    /// Commands outside both lists (§3.1.1) never choose a family.
    @Test func neutralCommands() {
        let bench = Bench()
        bench.succeed(LESetRandomAddress(staticAddress1), LEReadTransmitPower(), LEReadLocalSupportedFeatures(),
                      HCIReadLocalVersionInformation(), nonConnectableSet(0))
        bench.succeed(HCIReset(), LESetRandomAddress(staticAddress1), LESetAdvertisingParameters(intervalMin: 0xA0, intervalMax: 0xA0))
    }

    /// A controller without extended advertising has no such rule.
    @Test func legacyOnlyControllerHasNoRule() throws {
        let bench = try Bench(options: ["version": "4.2"])
        for command in Self.legacyCommands { bench.succeed(command) }
        #expect(bench.status(LEReadNumberOfSupportedAdvertisingSets()) == .unknownCommand)
        bench.succeed(LESetAdvertisingEnable(false))
    }
}
