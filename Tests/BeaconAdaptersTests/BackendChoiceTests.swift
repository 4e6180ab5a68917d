// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import HCITransport
import Testing

/// Which backend `advertise` and `stop` use for a kernel adapter named plainly.
@Suite struct BackendChoiceTests {
    @Test func withBluetoothdRunningHci0MeansTheManagementAPI() throws {
        let choice = BackendChoice.forAdvertising(.kernel(id: 0), bluetoothd: [412])
        #expect(choice.spec == .management(id: 0))
        let reason = try #require(choice.reason).description
        #expect(reason.contains("management API") && reason.contains("bluetoothd is running (pid 412)"), "\(reason)")
        #expect(reason.contains("raw:hci0") && reason.contains("user:hci0"), "says how to force the others: \(reason)")
    }

    @Test func withoutBluetoothdHci0MeansTheRawSocket() throws {
        let choice = BackendChoice.forAdvertising(.kernel(id: 1), bluetoothd: [])
        #expect(choice.spec == .raw(id: 1))
        #expect(try #require(choice.reason).description.contains("bluetoothd is not running"))
    }

    @Test(arguments: [AdapterSpec.raw(id: 0), .userChannel(id: 0), .management(id: 0), .virtual(options: [:]), .tcp(host: "127.0.0.1", port: 9000)])
    func aNamedBackendIsKept(spec: AdapterSpec) {
        #expect(BackendChoice.forAdvertising(spec, bluetoothd: [412]) == BackendChoice(spec: spec, reason: nil))
        #expect(BackendChoice.forAdvertising(spec, bluetoothd: []) == BackendChoice(spec: spec, reason: nil))
    }
}
