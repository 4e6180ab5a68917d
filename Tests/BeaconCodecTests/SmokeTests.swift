import Testing
import BeaconCodec

@Test func encodesTheAppleExample() throws {
    let uuid = try #require(BeaconUUID("e2c56db5-dffb-48d2-b060-d0f5a71096e0"))
    let beacon = IBeacon(uuid: uuid, major: 1, minor: 2, measuredPower: -59)
    #expect(beacon.advertisingData().description == "0201061AFF4C000215E2C56DB5DFFB48D2B060D0F5A71096E000010002C5")
    #expect(try IBeacon(decoding: beacon.advertisingData()) == beacon)
}
