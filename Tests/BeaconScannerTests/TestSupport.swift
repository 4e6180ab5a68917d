// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
@testable import BeaconScanner
import HCI

/// Fixed instants for the pure logic: `t(1.5)` is 1.5 s after an arbitrary origin.
enum FakeClock {
    static let origin = ContinuousClock.now
    static func t(_ seconds: Double) -> ContinuousClock.Instant { origin + .nanoseconds(Int64((seconds * 1e9).rounded())) }
}

enum Fixtures {
    static let uuid = BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!
    static let otherUUID = BeaconUUID("25795A1D-C318-47F0-A49D-7A2D1D58C79E")!

    /// An iBeacon advertisement written out byte by byte: flags, then Apple's manufacturer data.
    static func payload(uuid: [UInt8] = Fixtures.uuid.bytes, major: UInt16, minor: UInt16, power: Int8) -> [UInt8] {
        [0x02, 0x01, 0x06, 0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15] + uuid
            + [UInt8(major >> 8), UInt8(major & 0xFF), UInt8(minor >> 8), UInt8(minor & 0xFF), UInt8(bitPattern: power)]
    }

    static func identity(_ major: UInt16, _ minor: UInt16, uuid: BeaconUUID = Fixtures.uuid) -> BeaconKey {
        .iBeacon(BeaconIdentity(uuid: uuid, major: major, minor: minor))
    }

    static func sighting(_ major: UInt16, _ minor: UInt16, rssi: Int8?, power: Int8 = -59, at time: Double,
                         uuid: BeaconUUID = Fixtures.uuid) -> BeaconSighting {
        BeaconSighting(beacon: IBeacon(uuid: uuid, major: major, minor: minor, measuredPower: power), rssi: rssi,
                       address: BluetoothAddress(0xC0_11_22_33_44_55), addressType: .random, extendedReport: false,
                       time: FakeClock.t(time))
    }

    /// An LE Advertising Report event (Core Vol 4 Part E §7.7.65.2) with one report, as raw bytes
    /// from the event code on.
    static func legacyReportEvent(eventType: UInt8 = 0x03, address: [UInt8], data: [UInt8], rssi: Int8) -> [UInt8] {
        let parameters: [UInt8] = [0x02, 0x01, eventType, 0x01] + address + [UInt8(data.count)] + data + [UInt8(bitPattern: rssi)]
        return [0x3E, UInt8(parameters.count)] + parameters
    }

    /// An LE Extended Advertising Report event (§7.7.65.13) with one report, as raw bytes.
    static func extendedReportEvent(eventType: UInt16, address: [UInt8], sid: UInt8 = 0xFF, data: [UInt8], rssi: Int8) -> [UInt8] {
        var p: [UInt8] = [0x0D, 0x01, UInt8(eventType & 0xFF), UInt8(eventType >> 8), 0x01] + address
        p += [0x01, 0x00, sid, 0x7F, UInt8(bitPattern: rssi), 0x00, 0x00, 0x00] + [UInt8](repeating: 0, count: 6)
        p += [UInt8(data.count)] + data
        return [0x3E, UInt8(p.count)] + p
    }
}
