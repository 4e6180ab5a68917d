// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconProfiles
import Testing
@testable import BeaconEmulator

/// What an Eddystone beacon with `tlm:` has on air at a given time (pure: no clock involved).
@Suite struct LiveTelemetryTests {
    static let uid = EddystoneUID(namespace: EddystoneNamespace("8B0CA750E7A74E14BD99")!, instance: EddystoneInstance(7), txPower: -20)
    static let plan = TelemetryPlan(period: .seconds(10), duration: .seconds(1), batteryMillivolts: 3100,
                                    temperature: EddystoneTLM.fixedPoint(celsius: 22.5)!)
    static let beacon = BeaconProfile(name: "eddy", beacon: .eddystoneUID(uid), telemetry: plan, intervalMilliseconds: 100)
    static let plain = BeaconProfile(name: "plain", beacon: IBeacon(uuid: BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!, major: 1, minor: 2))

    @Test func uidFrameOutsideBurstsTLMInside() {
        for t in [Duration.zero, .seconds(5), .milliseconds(9_999), .seconds(11), .milliseconds(19_999)] {
            #expect(LiveTelemetry.frame(Self.beacon, at: t) == Self.beacon, "at \(t)")
        }
        for t in [Duration.seconds(10), .milliseconds(10_999), .seconds(20), .milliseconds(20_500)] {
            let on = LiveTelemetry.frame(Self.beacon, at: t)
            #expect(on.format == .eddystoneTLM, "at \(t)")
            // Same address and parameters: only the data changes on air.
            #expect(on.address == Self.beacon.address && on.intervalMilliseconds == Self.beacon.intervalMilliseconds)
        }
    }

    @Test func countersAdvanceBatteryAndTemperatureStay() {
        let first = LiveTelemetry.telemetry(Self.beacon, plan: Self.plan, at: .seconds(10))
        let second = LiveTelemetry.telemetry(Self.beacon, plan: Self.plan, at: .seconds(20))
        // 100 ms is 160 units: exactly 10 events a second.
        #expect(first == EddystoneTLM(batteryMillivolts: 3100, temperature: 22 * 256 + 128, advertisingCount: 100, uptimeTenths: 100))
        #expect(second.advertisingCount == 200 && second.uptimeTenths == 200)
        #expect(second.batteryMillivolts == first.batteryMillivolts && second.temperature == first.temperature)
    }

    @Test func beaconsWithoutTelemetryNeverChange() {
        #expect(LiveTelemetry.frames([Self.plain], at: .seconds(10)) == [Self.plain])
        #expect(LiveTelemetry.nextChange([Self.plain], after: .zero) == nil)
    }

    @Test func nextChangeIsEachBurstStartAndEnd() {
        var t = Duration.zero
        var changes: [Duration] = []
        while let next = LiveTelemetry.nextChange([Self.beacon, Self.plain], after: t), next <= .seconds(30) {
            changes.append(next)
            t = next
        }
        #expect(changes == [.seconds(10), .seconds(11), .seconds(20), .seconds(21), .seconds(30)])
    }
}
