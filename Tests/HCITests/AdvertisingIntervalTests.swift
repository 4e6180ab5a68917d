// SPDX-License-Identifier: GPL-2.0-or-later
import HCI
import Testing

struct AdvertisingIntervalTests {
    @Test(arguments: [(20.0, UInt32(32)), (100, 160), (100.3, 160), (100.32, 161), (152.5, 244), (30.3, 48), (10240, 16384),
                      (0.3125, 1), (0.3, 0), (-5, 0), (.nan, 0), (.infinity, UInt32.max)])
    func millisecondsRoundToTheNearestUnit(milliseconds: Double, units: UInt32) {
        #expect(AdvertisingInterval(milliseconds: milliseconds).rawValue == units)
    }

    @Test func unitsConvertBackExactly() {
        let interval = AdvertisingInterval(milliseconds: 30.3)
        #expect(interval.milliseconds == 30)
        #expect(interval.duration == .microseconds(30_000))
        #expect(AdvertisingInterval(units: 1).milliseconds == 0.625)
    }

    @Test func rangesAreTheSpecificationsOnes() {
        #expect(AdvertisingInterval.legacyRange.lowerBound.rawValue == 0x0020)
        #expect(AdvertisingInterval.legacyRange.upperBound.rawValue == 0x4000)
        #expect(AdvertisingInterval.extendedRange.upperBound.rawValue == 0xFF_FFFF)
        #expect(AdvertisingInterval.legacyMillisecondRange == 20...10240)
        #expect(AdvertisingInterval.pre5NonConnectableMinimum.milliseconds == 100)
    }

    @Test func descriptionShowsUnitsAndMilliseconds() {
        #expect(AdvertisingInterval(units: 0xA0).description == "0x00A0 (100 ms)")
        #expect(AdvertisingInterval(units: 1).description == "0x0001 (0.625 ms)")
        #expect(AdvertisingInterval(units: 0x12_3456).description == "0x123456 (745653.75 ms)")
    }

    /// A cap (FleetPlanner: one event per rotation turn) rounds down, never past the duration.
    @Test func atMostRoundsDownToWholeUnits() {
        #expect(AdvertisingInterval(atMost: .milliseconds(100)).rawValue == 160)
        #expect(AdvertisingInterval(atMost: .microseconds(100_624)).rawValue == 160)
        #expect(AdvertisingInterval(atMost: .microseconds(100_625)).rawValue == 161)
        #expect(AdvertisingInterval(atMost: .milliseconds(50)).duration <= .milliseconds(50))
        #expect(AdvertisingInterval(atMost: .zero).rawValue == 0)
        #expect(AdvertisingInterval(atMost: .milliseconds(-5)).rawValue == 0)
    }
}
