// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import HCI
import Testing
@testable import VirtualController

/// The refusals of Core Vol 4 Part E §7.8.52–§7.8.60, each next to the order that succeeds.
@Suite struct ExtendedAdvertisingRuleTests {
    /// A set advertising ADV_NONCONN_IND from its own random address.
    func advertisingSet(_ bench: Bench, _ handle: UInt8, address: BluetoothAddress = staticAddress1) {
        bench.succeed(nonConnectableSet(handle), LESetAdvertisingSetRandomAddress(handle: handle, address: address),
                      LESetExtendedAdvertisingData(handle: handle, data: beaconData(minor: handle)),
                      LESetExtendedAdvertisingEnable(true, sets: [.init(handle: handle)]))
    }

    /// §7.8.53: an enabled set's parameters cannot change.
    @Test func parametersOfEnabledSetAreDisallowed() {
        let bench = Bench()
        advertisingSet(bench, 1)
        #expect(bench.status(nonConnectableSet(1, interval: 0x0100)) == .commandDisallowed)
        // Another set is not affected, and once disabled the set accepts parameters again.
        bench.succeed(nonConnectableSet(2, interval: 0x0100),
                      LESetExtendedAdvertisingEnable(false, sets: [.init(handle: 1)]), nonConnectableSet(1, interval: 0x0100))
    }

    /// §7.8.52: the random address of an enabled set may change unless the set is connectable
    /// (legacy ADV_IND included).
    @Test func randomAddressOfEnabledSet() {
        let bench = Bench()
        advertisingSet(bench, 1)
        bench.succeed(LESetAdvertisingSetRandomAddress(handle: 1, address: staticAddress2))

        let connectable = LESetExtendedAdvertisingParameters(handle: 2, eventProperties: .legacyConnectable, intervalMin: 0xA0,
                                                             intervalMax: 0xA0)
        bench.succeed(connectable, LESetAdvertisingSetRandomAddress(handle: 2, address: staticAddress1),
                      LESetExtendedAdvertisingEnable(true, sets: [.init(handle: 2)]))
        #expect(bench.status(LESetAdvertisingSetRandomAddress(handle: 2, address: staticAddress2)) == .commandDisallowed)
        bench.succeed(LESetExtendedAdvertisingEnable(false, sets: [.init(handle: 2)]),
                      LESetAdvertisingSetRandomAddress(handle: 2, address: staticAddress2))

        // Extended (non-legacy) connectable advertising likewise.
        var extendedConnectable = nonConnectableSet(3, ownAddressType: .random)
        extendedConnectable.eventProperties = .connectable
        bench.succeed(extendedConnectable, LESetAdvertisingSetRandomAddress(handle: 3, address: staticAddress1),
                      LESetExtendedAdvertisingEnable(true, sets: [.init(handle: 3)]))
        #expect(bench.status(LESetAdvertisingSetRandomAddress(handle: 3, address: staticAddress2)) == .commandDisallowed)
    }

    /// §7.8.52/§7.8.54/§7.8.56/§7.8.59: a set that was never created is Unknown Advertising
    /// Identifier; a handle above 0xEF is invalid.
    @Test func unknownSets() {
        let bench = Bench()
        #expect(bench.status(LESetAdvertisingSetRandomAddress(handle: 3, address: staticAddress1)) == .unknownAdvertisingIdentifier)
        #expect(bench.status(LESetExtendedAdvertisingData(handle: 3, data: beaconData())) == .unknownAdvertisingIdentifier)
        #expect(bench.status(LESetExtendedAdvertisingEnable(true, sets: [.init(handle: 3)])) == .unknownAdvertisingIdentifier)
        #expect(bench.status(LERemoveAdvertisingSet(handle: 3)) == .unknownAdvertisingIdentifier)
        #expect(bench.status(nonConnectableSet(0xF0)) == .invalidCommandParameters)
        #expect(bench.status(LERemoveAdvertisingSet(handle: 0xF0)) == .invalidCommandParameters)
        bench.succeed(nonConnectableSet(0xEF), LERemoveAdvertisingSet(handle: 0xEF))
    }

    /// §7.8.53: one set more than the controller supports is Memory Capacity Exceeded; a
    /// removed set frees its place; reconfiguring an existing set needs no new place.
    @Test func setLimit() throws {
        let bench = try Bench(options: ["sets": "4"])
        for handle in UInt8(0)..<4 { bench.succeed(nonConnectableSet(handle)) }
        #expect(bench.status(nonConnectableSet(4)) == .memoryCapacityExceeded)
        bench.succeed(nonConnectableSet(3, interval: 0x0100))
        bench.succeed(LERemoveAdvertisingSet(handle: 0), nonConnectableSet(4))
        #expect(bench.status(nonConnectableSet(5)) == .memoryCapacityExceeded)
        bench.succeed(LEClearAdvertisingSets(), nonConnectableSet(5))
    }

    /// §7.8.56: enabling a set needs it to exist and, with a random Own_Address_Type, its
    /// random address.
    @Test func enableRules() {
        let bench = Bench()
        #expect(bench.status(LESetExtendedAdvertisingEnable(true, sets: [.init(handle: 1)])) == .unknownAdvertisingIdentifier)
        bench.succeed(nonConnectableSet(1))
        #expect(bench.status(LESetExtendedAdvertisingEnable(true, sets: [.init(handle: 1)])) == .invalidCommandParameters)
        bench.succeed(LESetAdvertisingSetRandomAddress(handle: 1, address: staticAddress1),
                      LESetExtendedAdvertisingEnable(true, sets: [.init(handle: 1)]))
        // Public sets need no address.
        bench.succeed(nonConnectableSet(2, ownAddressType: .public), LESetExtendedAdvertisingEnable(true, sets: [.init(handle: 2)]))
        // Enabling with no set, or a set listed twice, is invalid.
        #expect(bench.status(LESetExtendedAdvertisingEnable(true, sets: [])) == .invalidCommandParameters)
        #expect(bench.status(LESetExtendedAdvertisingEnable(true, sets: [.init(handle: 1), .init(handle: 1)])) == .invalidCommandParameters)
        // A refused command enables nothing: set 3 stays off when set 4 is unknown.
        bench.succeed(nonConnectableSet(3, ownAddressType: .public))
        #expect(bench.status(LESetExtendedAdvertisingEnable(true, sets: [.init(handle: 3), .init(handle: 4)])) == .unknownAdvertisingIdentifier)
        #expect(bench.controller.activeAdvertisers() == [.set(1), .set(2)])
    }

    /// §7.8.59/§7.8.60: enabled sets cannot be removed or cleared.
    @Test func removeAndClearWhileEnabled() {
        let bench = Bench()
        advertisingSet(bench, 1)
        #expect(bench.status(LERemoveAdvertisingSet(handle: 1)) == .commandDisallowed)
        #expect(bench.status(LEClearAdvertisingSets()) == .commandDisallowed)
        bench.succeed(LESetExtendedAdvertisingEnable.disableAll, LERemoveAdvertisingSet(handle: 1))
        advertisingSet(bench, 2)
        bench.succeed(LESetExtendedAdvertisingEnable.disableAll, LEClearAdvertisingSets())
        #expect(bench.status(LERemoveAdvertisingSet(handle: 2)) == .unknownAdvertisingIdentifier)
    }

    /// §7.8.53 Table 7.2: with legacy PDUs only five exact property values exist; extended PDUs
    /// cannot be both connectable and scannable.
    @Test(arguments: [UInt16(0x0011), 0x0014, 0x0050, 0x0003, 0x000C, 0x0080])
    func invalidEventProperties(raw: UInt16) {
        var c = nonConnectableSet(1)
        c.eventProperties = LEAdvertisingEventProperties(rawValue: raw)
        #expect(Bench().status(c) == .invalidCommandParameters)
    }

    @Test(arguments: [UInt16(0x0010), 0x0012, 0x0013, 0x0015, 0x0000, 0x0001, 0x0040])
    func validEventProperties(raw: UInt16) {
        var c = nonConnectableSet(1)
        c.eventProperties = LEAdvertisingEventProperties(rawValue: raw)
        #expect(Bench().status(c) == .success)
    }

    @Test func intervalsAndPHYs() {
        let bench = Bench()
        #expect(bench.status(nonConnectableSet(1, interval: 0x1F)) == .invalidCommandParameters)
        var c = nonConnectableSet(1)
        c.intervalMax = 0x9F  // below the minimum 0xA0
        #expect(bench.status(c) == .invalidCommandParameters)
        c = nonConnectableSet(1)
        c.primaryPHY = .leCoded  // legacy PDUs need LE 1M
        #expect(bench.status(c) == .invalidCommandParameters)
        c.eventProperties = []
        #expect(bench.status(c) == .unsupportedFeatureOrParameter)  // no LE Coded here
        c.primaryPHY = .le1M
        c.secondaryPHY = .le2M
        #expect(bench.status(c) == .unsupportedFeatureOrParameter)  // no LE 2M here
        c.secondaryPHY = .le1M
        c.sid = 0x10
        #expect(bench.status(c) == .invalidCommandParameters)
        c.sid = 0x0F
        bench.succeed(c)
        bench.succeed(nonConnectableSet(2, interval: 0xFF_FFFF))
    }

    /// §7.8.54: legacy-PDU sets take at most 31 bytes in one complete operation.
    @Test func legacySetData() {
        let bench = Bench()
        bench.succeed(nonConnectableSet(1))
        #expect(bench.status(LESetExtendedAdvertisingData(handle: 1, data: [UInt8](repeating: 1, count: 32))) == .invalidCommandParameters)
        #expect(bench.status(LESetExtendedAdvertisingData(handle: 1, operation: .firstFragment, data: [1, 2])) == .invalidCommandParameters)
        bench.succeed(LESetExtendedAdvertisingData(handle: 1, data: [UInt8](repeating: 1, count: 31)))
        // A set holding data cannot become a type without data (directed legacy).
        var directed = nonConnectableSet(1)
        directed.eventProperties = LEAdvertisingEventProperties(rawValue: 0x15)
        #expect(bench.status(directed) == .invalidCommandParameters)
    }

    /// §7.8.54: extended data arrives in fragments up to the set's capacity; beyond it the data
    /// is discarded with Memory Capacity Exceeded; a set with a fragment pending cannot be
    /// enabled (§7.8.56: Command Disallowed).
    @Test func extendedSetData() throws {
        let bench = try Bench(options: ["maxdata": "400"])
        var c = nonConnectableSet(1, ownAddressType: .public)
        c.eventProperties = []  // extended, non-connectable, non-scannable
        bench.succeed(c)
        let chunk = [UInt8](repeating: 0x22, count: 200)
        bench.succeed(LESetExtendedAdvertisingData(handle: 1, operation: .firstFragment, data: chunk))
        #expect(bench.status(LESetExtendedAdvertisingEnable(true, sets: [.init(handle: 1)])) == .commandDisallowed)
        bench.succeed(LESetExtendedAdvertisingData(handle: 1, operation: .lastFragment, data: chunk),
                      LESetExtendedAdvertisingEnable(true, sets: [.init(handle: 1)]))
        // Fragments while enabled are disallowed; a complete replacement is fine.
        #expect(bench.status(LESetExtendedAdvertisingData(handle: 1, operation: .firstFragment, data: chunk)) == .commandDisallowed)
        bench.succeed(LESetExtendedAdvertisingData(handle: 1, data: chunk), LESetExtendedAdvertisingEnable.disableAll)
        // 200 + 200 + 1 > 400.
        bench.succeed(LESetExtendedAdvertisingData(handle: 1, operation: .firstFragment, data: chunk),
                      LESetExtendedAdvertisingData(handle: 1, operation: .intermediateFragment, data: chunk))
        #expect(bench.status(LESetExtendedAdvertisingData(handle: 1, operation: .lastFragment, data: [1])) == .memoryCapacityExceeded)
        // The data was discarded, so the set can be enabled (with no data) at once.
        bench.succeed(LESetExtendedAdvertisingEnable(true, sets: [.init(handle: 1)]))
        bench.advance(.milliseconds(1))
        let entry = try #require(bench.controller.airLog().last)
        #expect(entry.pdu == .advExtInd)
        #expect(entry.data.isEmpty)
    }

    /// §7.8.54 and §7.8.56: connectable extended advertising cannot chain, so its data must fit
    /// one AUX_ADV_IND; too much data for an enabled set is Packet Too Long.
    @Test func connectableExtendedDataLimit() {
        let bench = Bench()
        var c = nonConnectableSet(1, ownAddressType: .public)
        c.eventProperties = .connectable
        bench.succeed(c, LESetExtendedAdvertisingData(handle: 1, data: [UInt8](repeating: 3, count: 245)),
                      LESetExtendedAdvertisingEnable(true, sets: [.init(handle: 1)]))
        bench.succeed(LESetExtendedAdvertisingData(handle: 1, data: [UInt8](repeating: 3, count: 200)))
        #expect(bench.status(LESetExtendedAdvertisingData(handle: 1, data: [UInt8](repeating: 3, count: 246))) == .packetTooLong)
        bench.succeed(LESetExtendedAdvertisingEnable.disableAll)
        // Disabled: the data is accepted, but enabling refuses it.
        bench.succeed(LESetExtendedAdvertisingData(handle: 1, data: [UInt8](repeating: 3, count: 246)))
        #expect(bench.status(LESetExtendedAdvertisingEnable(true, sets: [.init(handle: 1)])) == .invalidCommandParameters)
    }

    /// Scannable extended advertising needs scan response data, which this controller cannot be
    /// given: enabling it is Command Disallowed (§7.8.56), and it takes no advertising data.
    @Test func scannableExtendedSet() {
        let bench = Bench()
        var c = nonConnectableSet(1, ownAddressType: .public)
        c.eventProperties = .scannable
        bench.succeed(c)
        #expect(bench.status(LESetExtendedAdvertisingData(handle: 1, data: [1, 2, 3])) == .invalidCommandParameters)
        #expect(bench.status(LESetExtendedAdvertisingEnable(true, sets: [.init(handle: 1)])) == .commandDisallowed)
    }

    /// Unchanged-data operation: only for an enabled extended set that has data.
    @Test func unchangedDataOperation() {
        let bench = Bench()
        var c = nonConnectableSet(1, ownAddressType: .public)
        c.eventProperties = []
        bench.succeed(c, LESetExtendedAdvertisingData(handle: 1, data: [2, 1, 6]))
        #expect(bench.status(LESetExtendedAdvertisingData(handle: 1, operation: .unchangedData, data: [])) == .invalidCommandParameters)
        bench.succeed(LESetExtendedAdvertisingEnable(true, sets: [.init(handle: 1)]),
                      LESetExtendedAdvertisingData(handle: 1, operation: .unchangedData, data: []))
    }
}
