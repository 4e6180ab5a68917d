// SPDX-License-Identifier: GPL-2.0-or-later
import Testing
import BeaconCodec
import BeaconRadio
import BeaconScanner
import HCI
import VirtualController

/// A region scenario on the virtual air, in virtual time: an advertiser and a scanner, both
/// virtual controllers on one manual clock, joined through `AirReception` (the code `AirLink`
/// runs) on the `office` channel; the scanner's HCI events go through the `ScanEngine` of
/// `beacon scan --as ios|android`, ticked at the profile's update interval. The beacon goes off
/// air and comes back; the exit and the new enter must come at the times the profile's rules
/// give. Nothing waits: the clock is moved by hand.
@Suite("region scenario on the virtual air, per phone profile")
struct PhoneRegionScenarioTests {
    static let uuid = BeaconUUID(bytes: (0..<16).map { UInt8($0) + 0x10 })!
    static let address = BluetoothAddress(0xC0_AA_BB_CC_DD_01)

    struct Outcome {
        var reports: [Duration] = []
        /// Region events: kind, the event's own time, and when the scan noticed it.
        var regions: [(kind: RegionEvent.Kind, time: Duration, noticed: Duration)] = []
        /// Per ranging update: its time and the beacon's entry, if listed.
        var ranging: [(time: Duration, beacon: RangedBeacon?)] = []
    }

    /// Runs the beacon on air for `on`, off for `off`, on again for `back`, heard by a phone
    /// scanning like `phone`.
    static func run(_ phone: PhoneScanning, on: Duration, off: Duration, back: Duration) throws -> Outcome {
        let clock = ManualClock()
        var configuration = VirtualController.Configuration()
        configuration.advertisingDelay = true
        configuration.seed = 21
        let advertiser = VirtualController(configuration: configuration, clock: clock)
        let scanner = VirtualController(clock: clock)
        func command(_ controller: VirtualController, _ c: some HCICommand) {
            _ = controller.exchange(c.h4Bytes)
        }
        let data = IBeacon(uuid: uuid, major: 1, minor: 2, measuredPower: -59).advertisingData()
        command(advertiser, LESetExtendedAdvertisingParameters(handle: 1, eventProperties: .legacyNonConnectable, intervalMin: 0x00A0,
                                                               intervalMax: 0x00A0, ownAddressType: .random, txPower: 0x7F))
        command(advertiser, LESetAdvertisingSetRandomAddress(handle: 1, address: address))
        command(advertiser, LESetExtendedAdvertisingData(handle: 1, payload: data))
        command(scanner, HCISetEventMask(.default.union(.leMeta)))
        command(scanner, LESetScanEnable(true))
        #expect(scanner.isScanning)

        let region = try BeaconRegion(uuid: uuid)
        var engine = ScanEngine(regions: [region], ranging: phone.ranging, exitAfter: phone.exitAfter)
        var reception = AirReception(channel: .office)
        let origin = ContinuousClock.now
        var outcome = Outcome()
        var next: UInt64 = 0
        var nextTick = phone.updateInterval
        func take(_ updates: [ScanUpdate]) {
            for update in updates {
                switch update {
                case .report(let s): outcome.reports.append(s.time - origin)
                case .region(let e): outcome.regions.append((e.kind, e.time - origin, clock.now))
                case .ranging(let list, let at): outcome.ranging.append((at - origin, list.first))
                default: break
                }
            }
        }
        // 10 ms steps: reports are stamped within 10 ms of their event, ticks come on time.
        func pass(_ span: Duration) {
            let end = clock.now + span
            while clock.now < end {
                clock.advance(by: .milliseconds(10))
                let entries = advertiser.airLog(since: next)
                if let last = entries.last { next = last.sequence + 1 }
                for entry in entries {
                    let t = AirTransmission(entry, position: Point(x: 2, y: 0))
                    for (heard, rssi) in reception.take(t, at: Point(x: 0, y: 0)) { scanner.hear(heard, rssi: rssi) }
                }
                // Judged as AirLink does, once nothing later can overlap (here: the clock is the air's).
                for (heard, rssi) in reception.settle(before: clock.now) { scanner.hear(heard, rssi: rssi) }
                while let bytes = scanner.takeEvent() {
                    guard let packet = try? HCIEventPacket(bytes: Array(bytes.dropFirst())), let event = try? HCIEvent(packet: packet) else { continue }
                    take(engine.ingest(event, at: origin + clock.now))
                }
                if clock.now >= nextTick {
                    take(engine.tick(at: origin + clock.now))
                    nextTick += phone.updateInterval
                }
            }
        }
        let enable = { (on: Bool) in command(advertiser, LESetExtendedAdvertisingEnable(on, sets: [.init(handle: 1)])) }
        enable(true)
        pass(on)
        enable(false)
        pass(off)
        enable(true)
        pass(back)
        return outcome
    }

    /// Checks one run: enter at the first report; exit at the last report before the gap plus
    /// the profile's delay, noticed within one update; enter again at the first report back.
    static func checkExitAndReturn(_ phone: PhoneScanning, delay: Duration, on: Duration, off: Duration) throws {
        let outcome = try run(phone, on: on, off: off, back: .seconds(5))
        let before = outcome.reports.filter { $0 < on }, after = outcome.reports.filter { $0 >= on + off }
        let lastBefore = try #require(before.last), firstBack = try #require(after.first)
        #expect(before.count > Int(on / .milliseconds(120)), "heard through the office air: \(before.count) reports")
        #expect(outcome.regions.map(\.kind) == [.enter, .exit, .enter])
        guard outcome.regions.count == 3 else { return }
        #expect(outcome.regions[0].time == outcome.reports[0])
        #expect(outcome.regions[1].time == lastBefore + delay, "exit at the last report plus \(delay)")
        #expect(outcome.regions[1].noticed >= outcome.regions[1].time && outcome.regions[1].noticed < outcome.regions[1].time + phone.updateInterval + .milliseconds(10))
        #expect(outcome.regions[2].time == firstBack)
        #expect(firstBack - (on + off) < .milliseconds(130), "back within one interval plus advDelay")
    }

    @Test("ios: exit 30 s after the last report, enter again on return; silent but listed as unknown until then")
    func ios() throws {
        let phone = PhoneScanning(.ios)
        #expect(phone.exitAfter == .seconds(30))
        try Self.checkExitAndReturn(phone, delay: .seconds(30), on: .seconds(10), off: .seconds(40))
        // While silent: listed with no RSSI, no accuracy, proximity unknown (the CLI prints 0 / −1), then gone.
        let outcome = try Self.run(phone, on: .seconds(10), off: .seconds(40), back: .seconds(2))
        let lastBefore = try #require(outcome.reports.filter { $0 < .seconds(10) }.last)
        let silent = outcome.ranging.filter { $0.time > lastBefore + .seconds(1) && $0.time < .seconds(50) }
        let listed = silent.filter { $0.beacon != nil }
        #expect(!listed.isEmpty && listed.allSatisfy { $0.beacon!.rssi == nil && $0.beacon!.accuracy == nil && $0.beacon!.proximity == .unknown })
        #expect(silent.allSatisfy { ($0.beacon != nil) == ($0.time - lastBefore < .seconds(30)) }, "listed exactly until the exit delay")
    }

    @Test("android: exit 10 s after the last report, enter again on return; listed only in a cycle with a report")
    func android() throws {
        let phone = PhoneScanning(.android)
        #expect(phone.exitAfter == .seconds(10))
        try Self.checkExitAndReturn(phone, delay: .seconds(10), on: .seconds(10), off: .seconds(15))
        let outcome = try Self.run(phone, on: .seconds(10), off: .seconds(15), back: .seconds(2))
        let lastBefore = try #require(outcome.reports.filter { $0 < .seconds(10) }.last)
        let silent = outcome.ranging.filter { $0.time > lastBefore && $0.time < .seconds(25) }
        // The library's RangeState (tracking cache off by default) lists a beacon only in a cycle
        // that heard it: the first update after the last report, then no more.
        #expect(!silent.isEmpty && silent.allSatisfy { ($0.beacon != nil) == ($0.time - lastBefore < PhoneProfile.androidScanPeriod) },
                "listed only in the cycle of its last report")
    }

    @Test("a gap shorter than the delay exits nothing: ios 20 s, android 8 s")
    func shortGaps() throws {
        for (phone, off) in [(PhoneScanning(.ios), Duration.seconds(20)), (PhoneScanning(.android), .seconds(8))] {
            let outcome = try Self.run(phone, on: .seconds(5), off: off, back: .seconds(5))
            #expect(outcome.regions.map(\.kind) == [.enter], "\(phone.profile)")
        }
    }

    @Test("a configured delay is the one used: ios with 12 s")
    func configuredDelay() throws {
        try Self.checkExitAndReturn(PhoneScanning(.ios, exitAfter: .seconds(12)), delay: .seconds(12), on: .seconds(5), off: .seconds(20))
    }
}
