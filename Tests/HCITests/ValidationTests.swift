// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import HCI
import Testing

@Suite("Validation before sending")
struct ValidationTests {
    let bluetooth42 = HCIControllerInfo(hciVersion: .v4_2)
    let bluetooth50 = HCIControllerInfo(hciVersion: .v5_0, leFeatures: [.leExtendedAdvertising])

    func legacy(_ min: AdvertisingInterval, _ max: AdvertisingInterval, _ type: LEAdvertisingType = .nonConnectableUndirected) -> LESetAdvertisingParameters {
        LESetAdvertisingParameters(intervalMin: min, intervalMax: max, advertisingType: type, ownAddressType: .random)
    }

    @Test func legacyIntervalRange() throws {
        try legacy(0x0020, 0x4000).validate(for: .unknown)
        let low = #expect(throws: HCIValidationError.advertisingIntervalOutOfRange(
            field: "minimum advertising interval", value: 0x1F, allowed: 0x20...0x4000)) {
            try legacy(0x001F, 0x0100).validate(for: .unknown)
        }
        #expect(low?.description == "minimum advertising interval 0x001F (19.375 ms) is outside the allowed 0x0020 (20 ms)…0x4000 (10240 ms)")
        #expect(throws: HCIValidationError.advertisingIntervalOutOfRange(field: "maximum advertising interval", value: 0x4001, allowed: 0x20...0x4000)) {
            try legacy(0x0100, 0x4001).validate(for: .unknown)
        }
        let order = #expect(throws: HCIValidationError.advertisingIntervalMinAboveMax(min: 0x200, max: 0x100)) {
            try legacy(0x0200, 0x0100).validate(for: .unknown)
        }
        #expect(order?.description.contains("make min ≤ max") == true)
        // High duty cycle directed advertising ignores the intervals.
        try legacy(0, 0, .connectableHighDutyCycleDirected).validate(for: .unknown)
    }

    @Test func fastNonConnectableNeedsBluetooth5() throws {
        let fast = legacy(0x0020, 0x0030)
        let error = #expect(throws: HCIValidationError.advertisingIntervalTooShortForController(value: 0x20, minimum: 0xA0, hciVersion: .v4_2)) {
            try fast.validate(for: bluetooth42)
        }
        #expect(error?.description.contains("100 ms") == true)
        #expect(error?.description.contains("Bluetooth 4.2 (0x08)") == true)
        #expect(throws: HCIValidationError.self) { try legacy(0x0020, 0x00A0, .scannableUndirected).validate(for: bluetooth42) }
        // Fine at exactly 100 ms, on 5.0, for connectable advertising, or when the version is unknown.
        try legacy(0x00A0, 0x00A0).validate(for: bluetooth42)
        try fast.validate(for: bluetooth50)
        try legacy(0x0020, 0x0030, .connectableUndirected).validate(for: bluetooth42)
        try fast.validate(for: .unknown)
    }

    @Test func legacyParameterFields() {
        var command = legacy(0xA0, 0xA0)
        command.channelMap = []
        #expect(throws: HCIValidationError.valueOutOfRange(field: "Advertising_Channel_Map", value: 0,
                                                            allowed: "0x01…0x07 (at least one of channels 37, 38, 39)")) {
            try command.validate(for: .unknown)
        }
        command = legacy(0xA0, 0xA0, LEAdvertisingType(rawValue: 5))
        #expect(throws: HCIValidationError.valueOutOfRange(field: "Advertising_Type", value: 5, allowed: "0x00…0x04")) {
            try command.validate(for: .unknown)
        }
    }

    @Test func extendedParameters() throws {
        let good = LESetExtendedAdvertisingParameters(handle: 0xEF, intervalMin: 0x20, intervalMax: 0xFF_FFFF)
        try good.validate(for: bluetooth50)

        var command = good
        command.handle = 0xF0
        let handle = #expect(throws: HCIValidationError.advertisingHandleOutOfRange(0xF0)) { try command.validate(for: bluetooth50) }
        #expect(handle?.description == "advertising set handle 240 (0xF0) is out of range: allowed 0…239 (0x00…0xEF)")

        command = good
        command.intervalMin = 0x1F
        #expect(throws: HCIValidationError.advertisingIntervalOutOfRange(field: "minimum advertising interval", value: 0x1F, allowed: 0x20...0xFF_FFFF)) {
            try command.validate(for: bluetooth50)
        }
        command.intervalMin = 0x20
        command.intervalMax = 0x100_0000
        #expect(throws: HCIValidationError.advertisingIntervalOutOfRange(field: "maximum advertising interval", value: 0x100_0000, allowed: 0x20...0xFF_FFFF)) {
            try command.validate(for: bluetooth50)
        }

        command = good
        command.eventProperties = [.useLegacyPDUs, .connectable]  // ADV_IND needs scannable too
        let legacy = #expect(throws: HCIValidationError.invalidLegacyEventProperties(0x11)) { try command.validate(for: bluetooth50) }
        #expect(legacy?.description.contains("0x0010 (non-connectable)") == true)

        // TxPower in the extended header is impossible with legacy PDUs.
        command.eventProperties = [.useLegacyPDUs, .includeTxPower]
        #expect(throws: HCIValidationError.invalidLegacyEventProperties(0x50)) { try command.validate(for: bluetooth50) }
        for allowed in LEAdvertisingEventProperties.allowedLegacyCombinations {
            command.eventProperties = allowed
            try command.validate(for: bluetooth50)
        }

        command = good
        command.sid = 0x10
        #expect(throws: HCIValidationError.valueOutOfRange(field: "Advertising_SID", value: 0x10, allowed: "0x00…0x0F")) {
            try command.validate(for: bluetooth50)
        }

        command = good
        command.primaryPHY = .le2M
        #expect(throws: HCIValidationError.valueOutOfRange(field: "Primary_Advertising_PHY", value: 2, allowed: "0x01 LE 1M or 0x03 LE Coded")) {
            try command.validate(for: bluetooth50)
        }
    }

    @Test(arguments: [Int8(-127), 0, 20, 0x7F])
    func txPowerAccepted(power: Int8) {
        let command = LESetExtendedAdvertisingParameters(handle: 0, intervalMin: 0xA0, intervalMax: 0xA0, txPower: power)
        #expect(throws: Never.self) { try command.validate(for: .unknown) }
        // Accepted means sent as given: Advertising_TX_Power is the 20th parameter octet, after
        // handle (1), properties (2), the intervals (3 + 3), channel map, own and peer address
        // types (1 each), peer address (6) and filter policy (1) (Core Vol 4 Part E §7.8.53).
        #expect(command.parameterBytes.count == 25)
        #expect(command.parameterBytes[19] == UInt8(bitPattern: power))
    }

    @Test(arguments: [Int8(-128), 21, 126])
    func txPowerRefused(power: Int8) {
        let error = #expect(throws: HCIValidationError.txPowerOutOfRange(power)) {
            try LESetExtendedAdvertisingParameters(handle: 0, intervalMin: 0xA0, intervalMax: 0xA0, txPower: power).validate(for: .unknown)
        }
        #expect(error?.description.contains("−127…20 dBm, or 127 (0x7F) for no preference") == true)
    }

    @Test func extendedCommandsNeedTheFeature() {
        let command = LESetExtendedAdvertisingParameters(handle: 0, intervalMin: 0xA0, intervalMax: 0xA0)
        let noFeature = HCIControllerInfo(hciVersion: .v5_0, leFeatures: [.encryption])
        let error = #expect(throws: HCIValidationError.self) { try command.validate(for: noFeature) }
        #expect(error?.description.contains("LE Extended Advertising feature") == true)
        #expect(throws: HCIValidationError.self) { try LERemoveAdvertisingSet(handle: 0).validate(for: bluetooth42) }
    }

    @Test func advertisingDataLength() throws {
        let data31 = LESetExtendedAdvertisingData(handle: 0, data: [UInt8](repeating: 0, count: 31))
        try data31.validate(for: bluetooth50, legacyPDUs: true)
        let data32 = LESetExtendedAdvertisingData(handle: 0, data: [UInt8](repeating: 0, count: 32))
        try data32.validate(for: bluetooth50)
        let legacy = #expect(throws: HCIValidationError.advertisingDataTooLong(length: 32, maximum: 31, legacyPDUs: true)) {
            try data32.validate(for: bluetooth50, legacyPDUs: true)
        }
        #expect(legacy?.description == "32 bytes of advertising data is more than the 31 allowed with legacy advertising PDUs")
        let data252 = LESetExtendedAdvertisingData(handle: 0, data: [UInt8](repeating: 0, count: 252))
        #expect(throws: HCIValidationError.advertisingDataTooLong(length: 252, maximum: 251, legacyPDUs: false)) {
            try data252.validate(for: bluetooth50)
        }
        #expect(throws: HCIValidationError.advertisingHandleOutOfRange(0xF0)) {
            try LESetExtendedAdvertisingData(handle: 0xF0, data: []).validate(for: bluetooth50)
        }
    }

    @Test func randomAddresses() throws {
        try LESetRandomAddress(staticAddress).validate(for: .unknown)
        try LESetAdvertisingSetRandomAddress(handle: 0, address: BluetoothAddress(0xFF_FF_FF_FF_FF_FE)).validate(for: .unknown)
        for bad: UInt64 in [0xC0_00_00_00_00_00, 0xFF_FF_FF_FF_FF_FF, 0x00_00_00_00_00_00, 0x3F_FF_FF_FF_FF_FF, 0x80_11_22_33_44_55] {
            let address = BluetoothAddress(bad)
            let error = #expect(throws: HCIValidationError.self) { try LESetRandomAddress(address).validate(for: .unknown) }
            #expect(error?.description.hasPrefix("random address \(address) is not valid") == true)
        }
        let error = #expect(throws: HCIValidationError.self) {
            try LESetAdvertisingSetRandomAddress(handle: 0, address: BluetoothAddress(0xC0_00_00_00_00_00)).validate(for: .unknown)
        }
        #expect(error?.description.contains("must not have the other 46 bits all 0 or all 1") == true)
    }

    @Test func extendedEnable() throws {
        try LESetExtendedAdvertisingEnable.disableAll.validate(for: bluetooth50)
        #expect(throws: HCIValidationError.valueOutOfRange(field: "Num_Sets", value: 0, allowed: "1…63 when enabling (0 only disables every set)")) {
            try LESetExtendedAdvertisingEnable(true, sets: []).validate(for: bluetooth50)
        }
        #expect(throws: HCIValidationError.duplicateAdvertisingHandle(1)) {
            try LESetExtendedAdvertisingEnable(true, sets: [.init(handle: 1), .init(handle: 1)]).validate(for: bluetooth50)
        }
        #expect(throws: HCIValidationError.advertisingHandleOutOfRange(0xFF)) {
            try LESetExtendedAdvertisingEnable(true, sets: [.init(handle: 0xFF)]).validate(for: bluetooth50)
        }
    }

    @Test func scanning() throws {
        try LESetScanParameters(interval: 0x10, window: 0x10).validate(for: .unknown)
        #expect(throws: HCIValidationError.scanWindowLongerThanInterval(window: 0x20, interval: 0x10)) {
            try LESetScanParameters(interval: 0x10, window: 0x20).validate(for: .unknown)
        }
        #expect(throws: HCIValidationError.valueOutOfRange(field: "LE_Scan_Interval", value: 3, allowed: "0x0004…0x4000 (2.5 ms…10.24 s)")) {
            try LESetScanParameters(interval: 3, window: 3).validate(for: .unknown)
        }
        #expect(throws: HCIValidationError.scanWindowLongerThanInterval(window: 0x30, interval: 0x20)) {
            try LESetExtendedScanParameters(le1M: .init(interval: 0x20, window: 0x30)).validate(for: bluetooth50)
        }
        #expect(throws: HCIValidationError.self) { try LESetExtendedScanParameters(le1M: nil).validate(for: bluetooth50) }
        #expect(throws: HCIValidationError.self) { try LESetExtendedScanEnable(true, filterDuplicates: 2).validate(for: bluetooth50) }
        try LESetExtendedScanEnable(true, filterDuplicates: 2, duration: 100, period: 1).validate(for: bluetooth50)
    }

    @Test func commandsWithoutRulesAcceptAnything() throws {
        try HCIReset().validate(for: bluetooth42)
        try LESetAdvertisingEnable(true).validate(for: bluetooth42)
    }
}
