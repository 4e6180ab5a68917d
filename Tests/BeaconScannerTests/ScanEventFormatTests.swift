// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconJSON
@testable import BeaconScanner
import Testing

/// A scan's events as `beacon scan --json` prints them, and its enter/exit lines, without the binary.
struct ScanEventFormatTests {
    typealias F = Fixtures

    static func format(phone: PhoneProfile = .raw) -> ScanEventFormat {
        ScanEventFormat(adapter: "virtual", region: .any, model: .pathLoss(exponent: 2), phone: phone, start: FakeClock.t(0))
    }

    @Test func scanningNamesTheAdapterRegionModelAndPhone() {
        let json = Self.format().json(.started(.extended), now: FakeClock.t(0.0004)).text
        #expect(json == #"{"time":0,"event":"scanning","adapter":"virtual","mode":"extended","region":{"uuid":null,"major":null,"minor":null},"model":{"name":"pathloss","exponent":2},"as":"raw"}"#)
    }

    @Test func aReportIsBeaconJSONsSightingObject() throws {
        let s = F.sighting(1, 2, rssi: -61, at: 1.2345)
        let json = Self.format().json(.report(s), now: FakeClock.t(9)).text
        let sighting = SightingObject(time: 1.235, beacon: s.beacon, rssi: -61, address: s.address, addressType: s.addressType.rawValue, extended: false)
        #expect(json == sighting.json.text)
        #expect(try TraceSample(line: json)?.rssi == -61, "locate --trace reads it back")
    }

    @Test func anIOSBeaconSilentThisSecondShowsRSSIZeroAndAccuracyMinusOne() {
        let silent = RangedBeacon(identity: F.identity(1, 2), measuredPower: -59, rssi: nil, accuracy: nil, proximity: .unknown,
                                  lastSeen: FakeClock.t(1), reportsPerSecond: 0, address: BluetoothAddress(0xC0_11_22_33_44_55))
        let ios = Self.format(phone: .ios).json(.ranging([silent], at: FakeClock.t(3)), now: FakeClock.t(3)).text
        #expect(ios.contains(#""rssi":0,"accuracy":-1,"proximity":"unknown","last_seen":2"#), "\(ios)")
        let raw = Self.format().json(.ranging([silent], at: FakeClock.t(3)), now: FakeClock.t(3)).text
        #expect(raw.contains(#""rssi":null,"accuracy":null"#), "\(raw)")
    }

    @Test func entersAndExitsAreLinesWithTheRegionWhenItChanged() {
        let enter = RegionEvent(kind: .enter, region: .any, beacon: F.identity(1, 2), time: FakeClock.t(1.25), regionChanged: true)
        #expect(Self.format().line(enter) == "+1.3 s \(F.uuid) 1 2 entered (region any entered)")
        let exit = RegionEvent(kind: .exit, region: .any, beacon: F.identity(1, 2), time: FakeClock.t(40), regionChanged: false)
        #expect(Self.format().line(exit) == "+40.0 s \(F.uuid) 1 2 exited")
        #expect(Self.format().json(.region(exit), now: FakeClock.t(41)).text.hasPrefix(#"{"time":40,"event":"exit","format":"ibeacon","uuid":""#))
    }
}
