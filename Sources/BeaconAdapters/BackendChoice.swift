// SPDX-License-Identifier: GPL-2.0-or-later
import HCI
import HCITransport

/// Which way `advertise` and `stop` drive a kernel adapter named plainly (`-i hci0`), and why.
///
/// With bluetoothd running, the kernel's own advertising code (hci_sync) manages the controller:
/// it pauses and resumes only its own sets, and bluetoothd clears the controller's sets when it
/// starts. The management API is the way to advertise next to them (instances the kernel keeps,
/// never another program's touched). Without bluetoothd nobody else drives the adapter, and the
/// raw socket gives every HCI feature (the profile's own random address, extended sets,
/// controller-timed turns). `raw:hci0`, `user:hci0` and `mgmt:hci0` force a backend.
public struct BackendChoice: Sendable, Equatable {
    /// The spec to open.
    public var spec: AdapterSpec
    /// Why, in words (nil when the user named the backend); the other backends are named as
    /// `FrontEndTerm`s, which the front end names when it presents the reason.
    public var reason: TermedText?

    public init(spec: AdapterSpec, reason: TermedText?) {
        self.spec = spec
        self.reason = reason
    }

    /// The backend for advertising on `spec`, given the bluetoothd processes running.
    public static func forAdvertising(_ spec: AdapterSpec, bluetoothd: [Int]) -> BackendChoice {
        switch spec {
        case .kernel(let id):
            if bluetoothd.isEmpty {
                return BackendChoice(spec: .raw(id: id), reason: "hci\(id): raw HCI socket, because bluetoothd is not running (with bluetoothd, beacon would use the management API; \(FrontEndTerm.adapter("mgmt:hci\(id)")) forces it)")
            }
            let pids = bluetoothd.map(String.init).joined(separator: ", ")
            return BackendChoice(spec: .management(id: id), reason: "hci\(id): management API, because bluetoothd is running (pid \(pids)): the kernel keeps beacon's instances next to bluetoothd's and resumes them after its own pauses (\(FrontEndTerm.adapter("raw:hci\(id)")) forces the raw socket, \(FrontEndTerm.adapter("user:hci\(id)")) the exclusive user channel)")
        default:
            return BackendChoice(spec: spec, reason: nil)
        }
    }

    /// ``forAdvertising(_:bluetoothd:)`` with the bluetoothd processes running now.
    public static func forAdvertising(_ spec: AdapterSpec) -> BackendChoice {
        forAdvertising(spec, bluetoothd: HostDiagnosis.processes(named: "bluetoothd"))
    }
}
