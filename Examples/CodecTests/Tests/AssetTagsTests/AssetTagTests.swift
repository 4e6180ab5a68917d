// SPDX-License-Identifier: GPL-2.0-or-later
import AssetTags
import BeaconCodec
import Testing

@Suite struct AssetTagTests {
    @Test func theAdvertisingDataIsTheIBeaconLayoutByteForByte() {
        let data = Array(AssetTag(number: 0x0001_0203).beacon(measuredPower: -59).advertisingData())
        #expect(data == [
            0x02, 0x01, 0x06,                                   // flags: LE general discoverable, no BR/EDR
            0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15,                 // Apple manufacturer data, iBeacon, 21 bytes
            0x2F, 0x23, 0x44, 0x54, 0xCF, 0x6D, 0x4A, 0x0F, 0xAD, 0xF2, 0xF4, 0x91, 0x1B, 0xA9, 0xFF, 0xA6,
            0x00, 0x01, 0x02, 0x03,                             // major 1, minor 0x0203, big-endian
            0xC5,                                               // -59 dBm
        ])
    }

    @Test(arguments: [UInt32(0), 1, 0xFFFF, 0x1_0000, 0xDEAD_BEEF, .max])
    func aTagSurvivesTheAir(number: UInt32) {
        let data = Array(AssetTag(number: number).beacon().advertisingData())
        #expect(AssetTag(advertisingData: data) == AssetTag(number: number))
    }

    @Test func anotherOrganisationsBeaconIsNoTag() {
        let other = IBeacon(uuid: BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!, major: 1, minor: 2)
        #expect(AssetTag(advertisingData: Array(other.advertisingData())) == nil)
    }

    @Test func aTruncatedAdvertisementIsNoTag() {
        let data = Array(AssetTag(number: 7).beacon().advertisingData())
        #expect(AssetTag(advertisingData: Array(data.dropLast())) == nil)
    }
}
