// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import HCI
import Testing
@testable import VirtualController

/// The refusals of Core Vol 4 Part E §7.8.4–§7.8.9, each next to the order that succeeds.
@Suite struct LegacyAdvertisingRuleTests {
    let beaconParameters = LESetAdvertisingParameters(intervalMin: 0x00A0, intervalMax: 0x00A0, ownAddressType: .random)

    /// §7.8.5: parameters may not change while advertising; §7.8.4: nor the random address.
    @Test func changesWhileAdvertisingAreDisallowed() {
        let bench = Bench()
        bench.succeed(LESetRandomAddress(staticAddress1), beaconParameters, LESetAdvertisingEnable(true))
        #expect(bench.status(beaconParameters) == .commandDisallowed)
        #expect(bench.status(LESetRandomAddress(staticAddress2)) == .commandDisallowed)
        // Data may change while advertising.
        #expect(bench.status(LESetAdvertisingData(AdvertisingPayload(beaconData(minor: 2))!)) == .success)
        // Disabled again: both are accepted.
        bench.succeed(LESetAdvertisingEnable(false), beaconParameters, LESetRandomAddress(staticAddress2))
    }

    /// §7.8.9: a random Own_Address_Type with no random address set is Invalid HCI Command
    /// Parameters; setting the address first makes the same enable succeed.
    @Test func randomAddressMustBeSetBeforeEnabling() {
        let bench = Bench()
        bench.succeed(beaconParameters)
        #expect(bench.status(LESetAdvertisingEnable(true)) == .invalidCommandParameters)
        var rpaOrRandom = beaconParameters
        rpaOrRandom.ownAddressType = .resolvableOrRandom  // no resolving list: needs the random address too
        bench.succeed(rpaOrRandom)
        #expect(bench.status(LESetAdvertisingEnable(true)) == .invalidCommandParameters)
        bench.succeed(LESetRandomAddress(staticAddress1), LESetAdvertisingEnable(true))
        // Public needs nothing.
        let other = Bench()
        other.succeed(LESetAdvertisingParameters(intervalMin: 0x00A0, intervalMax: 0x00A0, ownAddressType: .public),
                      LESetAdvertisingEnable(true))
    }

    @Test(arguments: [
        (AdvertisingInterval(0x001F), AdvertisingInterval(0x00A0)),  // min below 20 ms
        (0x00A0, 0x4001),  // max above 10.24 s
        (0x0100, 0x00A0),  // min > max
    ])
    func intervalRange(min: AdvertisingInterval, max: AdvertisingInterval) {
        let bench = Bench()
        #expect(bench.status(LESetAdvertisingParameters(intervalMin: min, intervalMax: max)) == .invalidCommandParameters)
        // The edges themselves are fine.
        bench.succeed(LESetAdvertisingParameters(intervalMin: 0x0020, intervalMax: 0x4000))
    }

    /// High duty cycle directed advertising ignores the intervals.
    @Test func highDutyCycleIgnoresIntervals() {
        let bench = Bench()
        bench.succeed(LESetAdvertisingParameters(intervalMin: 0, intervalMax: 0, advertisingType: .connectableHighDutyCycleDirected,
                                                 peerAddress: staticAddress2))
    }

    @Test func reservedValuesAreInvalid() {
        let bench = Bench()
        let valid = LESetAdvertisingParameters(intervalMin: 0x00A0, intervalMax: 0x00A0)
        var c = valid
        c.advertisingType = LEAdvertisingType(rawValue: 0x05)
        #expect(bench.status(c) == .invalidCommandParameters)
        c = valid
        c.ownAddressType = LEOwnAddressType(rawValue: 0x04)
        #expect(bench.status(c) == .invalidCommandParameters)
        c = valid
        c.channelMap = []
        #expect(bench.status(c) == .invalidCommandParameters)
        c = valid
        c.channelMap = LEAdvertisingChannelMap(rawValue: 0x08)
        #expect(bench.status(c) == .invalidCommandParameters)
        c = valid
        c.filterPolicy = LEAdvertisingFilterPolicy(rawValue: 0x04)
        #expect(bench.status(c) == .invalidCommandParameters)
        bench.succeed(valid)
    }

    /// Before Bluetooth 5.0, ADV_SCAN_IND and ADV_NONCONN_IND could not go below 100 ms (Core 4.2
    /// Vol 2 Part E §7.8.5); from 5.0 on 20 ms is fine. ADV_IND never had the floor.
    @Test(arguments: ["4.0", "4.1", "4.2", "5.0", "5.4"])
    func hundredMillisecondFloorByVersion(version: String) throws {
        let bench = try Bench(options: ["version": version])
        let old = bench.controller.configuration.hciVersion < .v5_0
        for type in [LEAdvertisingType.nonConnectableUndirected, .scannableUndirected] {
            let fast = LESetAdvertisingParameters(intervalMin: 0x009F, intervalMax: 0x00A0, advertisingType: type)
            #expect(bench.status(fast) == (old ? .invalidCommandParameters : .success), "type \(type.rawValue)")
            bench.succeed(LESetAdvertisingParameters(intervalMin: 0x00A0, intervalMax: 0x00A0, advertisingType: type))
        }
        bench.succeed(LESetAdvertisingParameters(intervalMin: 0x0020, intervalMax: 0x0020, advertisingType: .connectableUndirected))
    }

    /// More than 31 bytes cannot be expressed by LE Set Advertising Data: the length octet says
    /// so and the controller refuses it.
    @Test func advertisingDataLongerThan31() {
        let bench = Bench()
        var packet: [UInt8] = [0x01, 0x08, 0x20, 0x20, 31]
        packet += [UInt8](repeating: 0x11, count: 31)
        #expect(bench.controller.exchange(packet) == [commandComplete(0x2008, [0x00])])
        packet[4] = 32
        #expect(bench.controller.exchange(packet) == [commandComplete(0x2008, [0x12])])
    }

    /// Enabling while enabled and disabling while disabled are harmless (Core 5.x §7.8.9).
    @Test func enableTwiceAndDisableTwice() {
        let bench = Bench()
        bench.succeed(LESetAdvertisingEnable(false), LESetAdvertisingEnable(true), LESetAdvertisingEnable(true),
                      LESetAdvertisingEnable(false), LESetAdvertisingEnable(false))
    }
}
