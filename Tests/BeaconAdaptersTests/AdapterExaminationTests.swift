// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import HCI
import HCITransport
import Testing

/// Examining one adapter (`doctor`): probed without a reset, closed again, failures kept as words.
@Suite struct AdapterExaminationTests {
    static let host = HostDiagnosis(bluetoothSocket: true, bluetoothd: [], rfkill: [], effectiveCapabilities: nil, isRoot: false)

    @Test func anExtendedControllerIsProbed() async throws {
        let spec = AdapterSpec.virtual(options: ["sets": "6", "version": "5.2"])
        let examination = await AdapterExamination.examine(spec, host: Self.host)
        #expect(examination.error == nil)
        #expect(examination.name == spec.description && examination.transport == spec.transportDescription)
        let caps = try #require(examination.capabilities)
        #expect(caps.hasExtendedAdvertising && caps.advertisingSets == 6)
        #expect(examination.legacyTxPower == nil, "read only without extended advertising")
        #expect(examination.backend == nil && examination.management == nil && !examination.isKernelRaw)
    }

    @Test func aLegacyControllerHasItsChannelPowerRead() async throws {
        let examination = await AdapterExamination.examine(.virtual(options: ["extended": "no"]), host: Self.host)
        let caps = try #require(examination.capabilities)
        #expect(!caps.hasExtendedAdvertising)
        #expect(examination.legacyTxPower != nil)
    }

    /// An adapter that cannot be opened is examined all the same: the error says why.
    @Test func anAdapterThatCannotBeOpenedSaysWhy() async throws {
        let examination = await AdapterExamination.examine(.tcp(host: "127.0.0.1", port: 1), host: Self.host, commandTimeout: .seconds(1))
        #expect(examination.capabilities == nil)
        let error = try #require(examination.error)
        guard case .open(.transport) = error else {
            Issue.record("not an open failure: \(error)")
            return
        }
        #expect(error.description.contains("tcp:127.0.0.1:1") && !error.isNoKernelBluetooth, "\(error)")
    }
}
