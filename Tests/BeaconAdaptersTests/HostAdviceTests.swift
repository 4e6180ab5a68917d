// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconSystem
import BeaconAdapters
import HCI
import HCITransport
import Mgmt
import Testing

/// Which advice `doctor` gives for what it examined (the words are the front end's).
@Suite struct HostAdviceTests {
    /// A host with kernel Bluetooth, no bluetoothd, no rfkill switch, run by root.
    static let fineHost = HostDiagnosis(bluetoothSocket: true, bluetoothd: [], rfkill: [], effectiveCapabilities: ~0, isRoot: true)

    static func examined(_ name: String, _ caps: ControllerCapabilities?, kernel: Bool = false) -> AdapterExamination {
        AdapterExamination(name: name, capabilities: caps, isKernelRaw: kernel)
    }

    static func management(max: Int, taken: [UInt8]) -> ManagementAPIInfo {
        ManagementAPIInfo(version: "1.22", extendedCommands: true, maxInstances: max, takenInstances: taken, supportedFlags: [])
    }

    @Test func anExtendedControllerOnAFineHostNeedsNothing() {
        let advice = HostAdvice.advice([Self.examined("virtual", .assumedExtended(adapter: "virtual", sets: 16))], Self.fineHost)
        #expect(advice == [.nothingToFix])
    }

    @Test func aLegacyOnlyControllerTakesTurns() {
        let advice = HostAdvice.advice([Self.examined("hci1", .assumedLegacy(adapter: "hci1"))], Self.fineHost)
        #expect(advice == [.noExtendedAdvertising(adapter: "hci1")])
    }

    /// Feature bit 12 set, but no sets usable: legacy commands were used since the last reset.
    @Test func extendedRefusedUntilAResetIsLockedToLegacy() {
        let locked = ControllerCapabilities(adapter: "hci0", hciVersion: .v5_0, leFeatures: [.leExtendedAdvertising], advertisingSets: 0, maximumDataLength: 31)
        #expect(HostAdvice.advice([Self.examined("hci0", locked)], Self.fineHost) == [.lockedToLegacy(adapter: "hci0")])
    }

    @Test func anAdapterThatFailedIsUnusable() {
        let refused = AdapterOpenError.transport(.system(SystemCallError(call: "connect", errno: .connectionRefused), adapter: "tcp:127.0.0.1:1"))
        let failed = AdapterExamination(name: "tcp:127.0.0.1:1", error: .open(refused), isKernelRaw: false)
        #expect(HostAdvice.advice([failed], Self.fineHost) == [.unusable(adapter: "tcp:127.0.0.1:1", error: refused.termedText)])
    }

    /// Without kernel Bluetooth the host's advice says it once; each kernel adapter's own
    /// AF_BLUETOOTH error is not repeated.
    @Test func noKernelBluetoothIsSaidOnce() {
        let socketError = TransportError.invalidAdapter("hci0", reason: "AF_BLUETOOTH is missing")
        var host = Self.fineHost
        host.bluetoothSocket = false
        host.socketError = socketError
        let noFamily = SystemCallError(call: "socket(AF_BLUETOOTH)", errno: .addressFamilyNotSupported)
        let failed = AdapterExamination(name: "hci0", error: .open(.transport(.system(noFamily, adapter: "hci0"))), isKernelRaw: true)
        let refused = AdapterOpenError.transport(.system(SystemCallError(call: "connect", errno: .connectionRefused), adapter: "tcp:127.0.0.1:1"))
        let other = AdapterExamination(name: "tcp:127.0.0.1:1", error: .open(refused), isKernelRaw: false)
        #expect(HostAdvice.advice([failed, other], host) == [
            .noKernelBluetooth(socketError.termedText), .unusable(adapter: "tcp:127.0.0.1:1", error: refused.termedText),
        ])
        // With kernel Bluetooth, a kernel adapter's own failure is advice of its own.
        #expect(HostAdvice.advice([failed], Self.fineHost) == [.unusable(adapter: "hci0", error: failed.error!.termedText)])
    }

    @Test func everyInstanceTakenLeavesNoneForBeacon() {
        var caps = ControllerCapabilities.assumedExtended(adapter: "mgmt:hci0", sets: 0)
        caps.managementAPI = Self.management(max: 2, taken: [1, 2])
        let advice = HostAdvice.advice([Self.examined("mgmt:hci0", caps)], Self.fineHost)
        #expect(advice == [.everyInstanceTaken(adapter: "mgmt:hci0", maxInstances: 2)])
    }

    @Test func theRawSocketNextToBluetoothdIsExplained() {
        var host = Self.fineHost
        host.bluetoothd = [412]
        let advice = HostAdvice.advice([Self.examined("raw:hci1", .assumedExtended(adapter: "raw:hci1", sets: 4), kernel: true)], host)
        #expect(advice == [.rawSocketNextToBluetoothd(adapter: "raw:hci1", id: 1)])
        #expect(HostAdvice.advice([Self.examined("raw:hci1", .assumedExtended(adapter: "raw:hci1", sets: 4), kernel: true)], Self.fineHost) == [.nothingToFix])
    }

    @Test func thePlainKernelAdapterNamesTheManagementAPIOrWhyItFailed() {
        var host = Self.fineHost
        host.bluetoothd = [412]
        var hci0 = Self.examined("hci0", .assumedExtended(adapter: "hci0", sets: 4), kernel: true)
        hci0.backend = BackendChoice.forAdvertising(.kernel(id: 0), bluetoothd: host.bluetoothd)
        hci0.management = Self.management(max: 4, taken: [])
        #expect(HostAdvice.advice([hci0], host) == [.managementAPINextToBluetoothd(adapter: "hci0")])
        hci0.management = nil
        hci0.managementError = .noAdvertisingFeatures
        #expect(HostAdvice.advice([hci0], host) == [.managementAPIUnavailable(adapter: "hci0", error: "the management API gave no advertising features")])
    }

    /// The capability named is the one the backend in use needs.
    @Test func theLeastPrivilegeFollowsTheBackend() {
        let netRawOnly = UInt64(1) << UInt64(HostDiagnosis.capNetRaw)
        var host = HostDiagnosis(bluetoothSocket: true, bluetoothd: [], rfkill: [], effectiveCapabilities: netRawOnly, isRoot: false)
        let raw = Self.examined("hci0", .assumedExtended(adapter: "hci0", sets: 4), kernel: true)
        #expect(HostAdvice.advice([raw], host) == [.privilege(.init(usesManagementAPI: false, hasCapability: true))])
        var managed = raw
        host.bluetoothd = [412]
        managed.backend = BackendChoice.forAdvertising(.kernel(id: 0), bluetoothd: host.bluetoothd)
        managed.management = Self.management(max: 4, taken: [])
        #expect(HostAdvice.advice([managed], host) == [
            .managementAPINextToBluetoothd(adapter: "hci0"), .privilege(.init(usesManagementAPI: true, hasCapability: false)),
        ])
        // Root, or an adapter that is not the kernel's, needs no capability.
        host.isRoot = true
        #expect(!HostAdvice.advice([managed], host).contains { if case .privilege = $0 { true } else { false } })
        host.isRoot = false
        #expect(HostAdvice.advice([Self.examined("virtual", .assumedExtended(adapter: "virtual", sets: 4))], host) == [.nothingToFix])
    }

    @Test func rfkillBlocksAreTold() {
        var host = Self.fineHost
        host.rfkill = [.init(name: "hci0", soft: true, hard: false)]
        let ok = [Self.examined("virtual", .assumedExtended(adapter: "virtual", sets: 4))]
        #expect(HostAdvice.advice(ok, host) == [.softBlocked])
        host.rfkill.append(.init(name: "phy1", soft: true, hard: true))
        #expect(HostAdvice.advice(ok, host) == [.hardBlocked, .softBlocked])
    }
}
