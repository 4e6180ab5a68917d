// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import HCI
import Testing
@testable import VirtualController

/// What the controller puts on the air, computed from an injected clock.
@Suite struct AirLogTests {
    /// Four legacy non-connectable sets at 100 ms for one second: ten events each, at exact
    /// multiples of the interval, each from its own random address with its own data.
    @Test func fourSetsForOneSecond() {
        let bench = Bench()
        for handle in UInt8(1)...4 {
            bench.succeed(nonConnectableSet(handle), LESetAdvertisingSetRandomAddress(handle: handle, address: BluetoothAddress(0xC0_11_22_33_44_00 + UInt64(handle))),
                          LESetExtendedAdvertisingData(handle: handle, data: beaconData(minor: handle)))
        }
        bench.succeed(LESetExtendedAdvertisingEnable(true, sets: (1...4).map { .init(handle: $0) }))
        bench.advance(.seconds(1))

        #expect(bench.controller.advertisingEventCounts() == [.set(1): 10, .set(2): 10, .set(3): 10, .set(4): 10])
        let log = bench.controller.airLog()
        #expect(log.count == 40)
        for handle in UInt8(1)...4 {
            let entries = log.filter { $0.advertiser == .set(handle) }
            #expect(entries.map(\.time) == (0..<10).map { Duration.milliseconds(100 * $0) })
            #expect(entries.allSatisfy {
                $0.pdu == .advNonconnInd && $0.address == BluetoothAddress(0xC0_11_22_33_44_00 + UInt64(handle))
                    && $0.addressType == .random && $0.data == beaconData(minor: handle) && $0.txPower == 0
            })
        }
        // Time order, ties by handle.
        #expect(log.prefix(4).map(\.advertiser) == [.set(1), .set(2), .set(3), .set(4)])
        #expect(log.map(\.sequence) == Array(0..<40))
    }

    @Test func lineFormat() {
        let bench = Bench()
        bench.succeed(nonConnectableSet(1), LESetAdvertisingSetRandomAddress(handle: 1, address: staticAddress1),
                      LESetExtendedAdvertisingData(handle: 1, data: [0x02, 0x01, 0x06]),
                      LESetExtendedAdvertisingEnable(true, sets: [.init(handle: 1)]))
        bench.advance(.milliseconds(101))
        #expect(bench.controller.airLog().map(\.description) == [
            "+0.000 s set 1 C0:11:22:33:44:01 random ADV_NONCONN_IND 020106",
            "+0.100 s set 1 C0:11:22:33:44:01 random ADV_NONCONN_IND 020106",
        ])
    }

    /// A scannable set with legacy PDUs (ADV_SCAN_IND) takes LE Set Extended Scan Response Data
    /// (§7.8.55) and logs what an active scanner's SCAN_REQ would get; a non-scannable set
    /// refuses it; the legacy advertiser logs its LE Set Scan Response Data the same way.
    @Test func scanResponses() {
        let bench = Bench()
        let scannable = LESetExtendedAdvertisingParameters(handle: 1, eventProperties: .legacyScannable, intervalMin: 0x00A0,
                                                           intervalMax: 0x00A0, ownAddressType: .random, txPower: 0x7F)
        let name: [UInt8] = [0x05, 0x09] + Array("Door".utf8)
        bench.succeed(scannable, nonConnectableSet(2), LESetAdvertisingSetRandomAddress(handle: 1, address: staticAddress1),
                      LESetExtendedAdvertisingData(handle: 1, data: beaconData()),
                      LESetExtendedScanResponseData(handle: 1, data: name))
        #expect(bench.status(LESetExtendedScanResponseData(handle: 2, data: name)) == .invalidCommandParameters)
        #expect(bench.status(LESetExtendedScanResponseData(handle: 1, operation: .firstFragment, data: name)) == .invalidCommandParameters)
        bench.succeed(LESetExtendedAdvertisingEnable(true, sets: [.init(handle: 1)]))
        // Replaced while enabled: allowed for legacy PDUs.
        bench.succeed(LESetExtendedScanResponseData(handle: 1, data: [0x03, 0x09] + Array("Go".utf8)))
        bench.advance(.milliseconds(101))
        let log = bench.controller.airLog()
        #expect(log.map(\.pdu) == [.advScanInd, .advScanInd])
        #expect(log.map(\.scanResponse) == [[0x03, 0x09] + Array("Go".utf8), [0x03, 0x09] + Array("Go".utf8)])
        #expect(log.first?.description.hasSuffix("ADV_SCAN_IND \(Hex.string(beaconData())) scan response 0309476F") == true)

        let legacy = Bench()
        legacy.succeed(LESetAdvertisingParameters(intervalMin: 0x00A0, intervalMax: 0x00A0, advertisingType: .scannableUndirected),
                       LESetAdvertisingData(AdvertisingPayload(beaconData())!), LESetScanResponseData(AdvertisingPayload(name)!),
                       LESetAdvertisingEnable(true))
        legacy.advance(.milliseconds(1))
        #expect(legacy.controller.airLog().map(\.scanResponse) == [name])
    }

    /// The legacy advertiser: its PDU type, the public address, the data; nothing after disable.
    @Test func legacyAdvertiser() {
        let bench = Bench()
        bench.succeed(LESetAdvertisingParameters(intervalMin: 0x0030, intervalMax: 0x0040, advertisingType: .scannableUndirected),
                      LESetAdvertisingData(AdvertisingPayload(beaconData())!), LESetAdvertisingEnable(true))
        bench.advance(.milliseconds(100))  // 30 ms interval (the minimum): 0, 30, 60, 90
        bench.succeed(LESetAdvertisingEnable(false))
        bench.advance(.seconds(1))
        let log = bench.controller.airLog()
        #expect(log.map(\.time) == [.zero, .milliseconds(30), .milliseconds(60), .milliseconds(90)])
        #expect(log.allSatisfy { $0.advertiser == .legacy && $0.pdu == .advScanInd && $0.address == BluetoothAddress(0x00_11_22_33_44_55)
            && $0.addressType == .public && $0.data == beaconData() })
    }

    /// Reading since a sequence number returns only what came after.
    @Test func readSince() {
        let bench = Bench()
        bench.succeed(nonConnectableSet(0, ownAddressType: .public), LESetExtendedAdvertisingEnable(true, sets: [.init(handle: 0)]))
        bench.advance(.milliseconds(250))
        let mark = bench.controller.airLogEnd
        #expect(mark == 3)
        bench.advance(.milliseconds(200))
        #expect(bench.controller.airLog(since: mark).map(\.time) == [.milliseconds(300), .milliseconds(400)])
    }

    /// The log keeps its newest entries; counts keep everything.
    @Test func boundedRingBuffer() {
        var configuration = VirtualController.Configuration()
        configuration.airLogCapacity = 8
        let bench = Bench(configuration)
        bench.succeed(nonConnectableSet(0, interval: 0x20, ownAddressType: .public), LESetExtendedAdvertisingEnable(true, sets: [.init(handle: 0)]))
        bench.advance(.seconds(1))  // 20 ms: 50 events
        let log = bench.controller.airLog()
        #expect(log.count == 8)
        #expect(log.map(\.sequence) == Array(42..<50))
        #expect(log.last?.time == .milliseconds(980))
        #expect(bench.controller.advertisingEventCounts()[.set(0)] == 50)
        // A long unobserved stretch is counted without being replayed.
        bench.advance(.seconds(3600))
        #expect(bench.controller.advertisingEventCounts()[.set(0)] == 50 + 180_000)
        #expect(bench.controller.airLog().last?.time == .milliseconds(3_600_980))
    }

    /// Duration and Max_Extended_Advertising_Events end a set by themselves, and the host hears
    /// LE Advertising Set Terminated once it unmasked it (0x3C timeout, 0x43 limit reached).
    @Test func setTerminatesByItself() {
        let bench = Bench()
        bench.succeed(HCISetEventMask(.default.union(.leMeta)), LESetEventMask(.default.union(.advertisingSetTerminated)),
                      nonConnectableSet(1, ownAddressType: .public), nonConnectableSet(2, ownAddressType: .public),
                      LESetExtendedAdvertisingEnable(true, sets: [.init(handle: 1, duration: 35), .init(handle: 2, maxExtendedAdvertisingEvents: 2)]))
        bench.advance(.seconds(1))
        // Set 1: 350 ms → events at 0…300; set 2: two events.
        #expect(bench.controller.advertisingEventCounts() == [.set(1): 4, .set(2): 2])
        // Set 2 stops at its second event (100 ms), set 1 at 350 ms.
        #expect(bench.controller.takeEvent() == [0x04, 0x3E, 0x06, 0x12, 0x43, 0x02, 0x00, 0x00, 0x02])
        #expect(bench.controller.takeEvent() == [0x04, 0x3E, 0x06, 0x12, 0x3C, 0x01, 0x00, 0x00, 0x04])
        #expect(bench.controller.takeEvent() == nil)
        #expect(bench.controller.activeAdvertisers().isEmpty)
    }

    /// Masked by default: no event, but the set still stops.
    @Test func terminationMaskedByDefault() {
        let bench = Bench()
        bench.succeed(nonConnectableSet(1, ownAddressType: .public), LESetExtendedAdvertisingEnable(true, sets: [.init(handle: 1, duration: 10)]))
        bench.advance(.seconds(1))
        #expect(bench.controller.takeEvent() == nil)
        #expect(bench.controller.advertisingEventCounts() == [.set(1): 1])
    }

    /// advDelay: every gap is the interval plus 0–10 ms, and a seed repeats the run exactly.
    @Test func advertisingDelayIsBoundedAndReproducible() {
        func run(seed: UInt64) -> [Duration] {
            var configuration = VirtualController.Configuration()
            configuration.advertisingDelay = true
            configuration.seed = seed
            let bench = Bench(configuration)
            bench.succeed(nonConnectableSet(1, ownAddressType: .public), LESetExtendedAdvertisingEnable(true, sets: [.init(handle: 1)]))
            bench.advance(.seconds(2))
            return bench.controller.airLog().map(\.time)
        }
        let times = run(seed: 7)
        #expect(times == run(seed: 7))
        #expect(times != run(seed: 8))
        #expect(times.count >= 18 && times.count <= 20)
        #expect(times[0] <= .milliseconds(10))
        for (a, b) in zip(times, times.dropFirst()) {
            #expect(b - a >= .milliseconds(100) && b - a <= .milliseconds(110))
        }
    }

    /// Reset stops all advertising; the log keeps what happened.
    @Test func resetStopsAdvertising() {
        let bench = Bench()
        bench.succeed(nonConnectableSet(1, ownAddressType: .public), LESetExtendedAdvertisingEnable(true, sets: [.init(handle: 1)]))
        bench.advance(.milliseconds(150))
        bench.succeed(HCIReset())
        bench.advance(.seconds(1))
        #expect(bench.controller.airLog().count == 2)
        #expect(bench.controller.activeAdvertisers().isEmpty)
    }

    /// A non-connectable set may change its random address while enabled (§7.8.52): later events
    /// use the new one.
    @Test func addressRotationWhileEnabled() {
        let bench = Bench()
        bench.succeed(nonConnectableSet(1), LESetAdvertisingSetRandomAddress(handle: 1, address: staticAddress1),
                      LESetExtendedAdvertisingEnable(true, sets: [.init(handle: 1)]))
        bench.advance(.milliseconds(150))
        bench.succeed(LESetAdvertisingSetRandomAddress(handle: 1, address: staticAddress2))
        bench.advance(.milliseconds(100))
        #expect(bench.controller.airLog().map(\.address) == [staticAddress1, staticAddress1, staticAddress2])
    }
}

/// Legacy high duty cycle directed advertising: ADV_DIRECT_IND every 3.75 ms, no data, and it
/// stops by itself after 1.28 s (Core Vol 6 Part B §4.4.2.4.3).
@Suite struct HighDutyCycleDirectedTests {
    @Test func stopsAfter1280Milliseconds() {
        let bench = Bench()
        bench.succeed(LESetAdvertisingParameters(intervalMin: 0, intervalMax: 0, advertisingType: .connectableHighDutyCycleDirected,
                                                 peerAddress: staticAddress2),
                      LESetAdvertisingData(AdvertisingPayload(beaconData())!), LESetAdvertisingEnable(true))
        bench.advance(.seconds(2))
        let log = bench.controller.airLog()
        // Events at 0, 3.75, … below 1280 ms: 1280 / 3.75 = 341.3 → 342 events.
        #expect(log.count == 342)
        #expect(log.last?.time == .microseconds(341 * 3750))
        #expect(log.allSatisfy { $0.pdu == .advDirectInd && $0.data.isEmpty })
        #expect(bench.controller.activeAdvertisers().isEmpty)
    }
}
