// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconProfiles
import HCI
import Testing
@testable import BeaconScanner

/// `scan --save`: what was heard becomes a fleet profile that reads back to the same beacons.
@Suite struct HeardFleetTests {
    static let uuid = BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!
    static let uid = EddystoneUID(namespace: EddystoneNamespace("8B0CA750E7A74E14BD99")!, instance: EddystoneInstance(0xA1), txPower: -20)
    static let url = try! EddystoneURL(url: "https://www.example.com/", txPower: -21)
    static let alt = AltBeacon(id: AltBeaconID(prefix: uuid, suffix: 0x0003_0004), referenceRSSI: -60, reserved: 7)
    static let ib = IBeacon(uuid: uuid, major: 1, minor: 2, measuredPower: -59)

    static func sighting(_ beacon: AnyBeacon, _ address: UInt64, rssi: Int8?, type: LEAddressType = .random) -> BeaconSighting {
        BeaconSighting(beacon: beacon, rssi: rssi, address: BluetoothAddress(address), addressType: type, extendedReport: false, time: FakeClock.t(0))
    }

    static func mixed() -> HeardFleet {
        var heard = HeardFleet()
        for rssi in [-50, -54] as [Int8] {
            heard.record(sighting(.iBeacon(ib), 0xC0_00_00_00_00_01, rssi: rssi))
            heard.record(sighting(.altBeacon(alt), 0xC0_00_00_00_00_02, rssi: rssi))
            heard.record(sighting(.eddystoneUID(uid), 0xC0_00_00_00_00_03, rssi: rssi))
            heard.record(sighting(.eddystoneURL(url), 0xC0_00_00_00_00_04, rssi: rssi))
        }
        // The UID's address also sends TLM; the URL beacon changed address once (resolvable-style).
        heard.record(sighting(.eddystoneTLM(EddystoneTLM(batteryMillivolts: 2900, temperature: 5760, advertisingCount: 9, uptimeTenths: 3)),
                              0xC0_00_00_00_00_03, rssi: -52))
        heard.record(sighting(.eddystoneURL(url), 0xC0_00_00_00_00_05, rssi: nil))
        return heard
    }

    @Test func savedFleetReadsBackToTheSameBeacons() throws {
        let profiles = Self.mixed().profiles(namePrefix: "site", powerFromRSSI: false)
        // In identity order: formats as BeaconFormat lists them.
        #expect(profiles.map(\.format) == [.iBeacon, .eddystoneUID, .eddystoneURL, .altBeacon])
        #expect(profiles.map(\.beacon) == [.iBeacon(Self.ib), .eddystoneUID(Self.uid), .eddystoneURL(Self.url), .altBeacon(Self.alt)])
        let text = FleetWriter.yaml(name: "site", beacons: profiles, comment: "test")
        let loaded = try ProfileLoader.parse(text, file: "site.yaml").beacons
        #expect(loaded.map(\.beacon) == profiles.map(\.beacon), "\(text)")
        #expect(loaded.map(\.name) == ["site-1", "site-2", "site-3", "site-4"])
        // Fixed addresses kept; the URL beacon used two, so it gets a derived one.
        #expect(loaded.map { $0.addressIsDerived ? nil : $0.address } == [
            BluetoothAddress(0xC0_00_00_00_00_01), BluetoothAddress(0xC0_00_00_00_00_03), nil, BluetoothAddress(0xC0_00_00_00_00_02),
        ])
        #expect(loaded[1].telemetry == TelemetryPlan(batteryMillivolts: 2900, temperature: 5760))
        #expect(loaded.map(\.telemetry).compactMap { $0 }.count == 1)
    }

    @Test func atOneMetreTheMeanRSSIBecomesThePower() throws {
        let profiles = Self.mixed().profiles(namePrefix: "site", powerFromRSSI: true)
        // Mean of -50 and -54: -52 at 1 m; Eddystone's 0 m power is 41 dB more.
        #expect(profiles.map(\.beacon.powerAt1m) == [-52, -52, -52, -52])
        if case .eddystoneUID(let u) = profiles[1].beacon { #expect(u.txPower == -11) } else { Issue.record("not UID") }
        let loaded = try ProfileLoader.parse(FleetWriter.yaml(name: "site", beacons: profiles), file: "site.yaml").beacons
        #expect(loaded.map(\.beacon) == profiles.map(\.beacon))
    }

    @Test func publicAddressesAndSharedOnesAreNotKept() {
        var heard = HeardFleet()
        heard.record(Self.sighting(.iBeacon(Self.ib), 0x00_11_22_33_44_55, rssi: -60, type: .public))
        // One device sending a UID and a URL frame from one address: only the first keeps it.
        heard.record(Self.sighting(.eddystoneUID(Self.uid), 0xC0_00_00_00_00_09, rssi: -60))
        heard.record(Self.sighting(.eddystoneURL(Self.url), 0xC0_00_00_00_00_09, rssi: -60))
        let profiles = heard.profiles(namePrefix: "x", powerFromRSSI: false)
        #expect(profiles.map(\.addressIsDerived) == [true, false, true])
    }

    @Test func theIntervalHeardIsSavedFromTheShortestGapBetweenEvents() throws {
        var heard = HeardFleet()
        // Events 152.5 ms apart plus 0–10 ms of advDelay, each heard on two or three channels
        // within a millisecond; one event missed (a gap of two intervals).
        let delays = [3.1, 0.4, 9.8, 6.0, 1.2, 7.7, 0.9]
        var t = 0.0
        for (k, delay) in delays.enumerated() {
            t += 152.5 + delay + (k == 3 ? 152.5 : 0)
            for channel in 0..<(k % 2 == 0 ? 3 : 2) {
                var s = Self.sighting(.iBeacon(Self.ib), 0xC0_00_00_00_00_01, rssi: -60)
                s.time = FakeClock.t(0) + .microseconds(Int64((t + Double(channel) * 0.4) * 1000))
                heard.record(s)
            }
        }
        // A beacon heard only twice: no interval from one gap.
        heard.record(Self.sighting(.altBeacon(Self.alt), 0xC0_00_00_00_00_02, rssi: -60))
        let profiles = heard.profiles(namePrefix: "x", powerFromRSSI: false)
        // The shortest gap is 152.5 + 0.4 ms: 244 units, 152.5 ms.
        #expect(profiles[0].intervalMilliseconds == 152.5)
        #expect(profiles[1].intervalMilliseconds == BeaconProfile.defaultIntervalMilliseconds)
        let loaded = try ProfileLoader.parse(FleetWriter.yaml(name: "x", beacons: profiles), file: "x.yaml").beacons
        #expect(loaded[0].intervalMilliseconds == 152.5)
    }

    @Test func tlmBurstsKeepTheirPeriodAndDurationAsHeard() {
        var heard = HeardFleet()
        let address: UInt64 = 0xC0_00_00_00_00_03
        let tlm = EddystoneTLM(batteryMillivolts: 2900, temperature: 5760, advertisingCount: 9, uptimeTenths: 3)
        func at(_ seconds: Double, _ beacon: AnyBeacon) {
            var s = Self.sighting(beacon, address, rssi: -60)
            s.time = FakeClock.t(seconds)
            heard.record(s)
        }
        // The UID frame every 0.1 s; every 7.5 s a burst of TLM frames for 0.5 s.
        for k in 0..<300 {
            let t = Double(k) * 0.1
            let inBurst = t.truncatingRemainder(dividingBy: 7.5) < 0.5 - 1e-9
            at(t, inBurst ? .eddystoneTLM(tlm) : .eddystoneUID(Self.uid))
        }
        let plan = heard.profiles(namePrefix: "x", powerFromRSSI: false).first?.telemetry
        #expect(plan?.period == .milliseconds(7500) && plan?.duration == .milliseconds(500), "\(String(describing: plan))")
        #expect(plan?.batteryMillivolts == 2900)
        // One burst heard: the defaults stay.
        var once = HeardFleet()
        for k in 0..<20 {
            var s = Self.sighting(k < 5 ? .eddystoneTLM(tlm) : .eddystoneUID(Self.uid), address, rssi: -60)
            s.time = FakeClock.t(Double(k) * 0.1)
            once.record(s)
        }
        #expect(once.profiles(namePrefix: "x", powerFromRSSI: false).first?.telemetry?.period == TelemetryPlan.defaultPeriod)
    }
}
