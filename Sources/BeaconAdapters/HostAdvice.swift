// SPDX-License-Identifier: GPL-2.0-or-later
import HCI
import HCITransport

/// One piece of advice `doctor` gives: what stands in the way of advertising here, or that
/// nothing does. The library decides which apply; a front end words them (and names its own
/// commands and options in them).
public enum HostAdvice: Hashable, Sendable {
    /// The kernel has no Bluetooth support, so no kernel adapter can work; the adapter list's
    /// error (with its own advice, its terms for the front end to name).
    case noKernelBluetooth(TermedText)
    /// The adapter could not be opened or probed, and why.
    case unusable(adapter: String, error: TermedText)
    /// Every advertising instance of the kernel's adapter is held by other programs.
    case everyInstanceTaken(adapter: String, maxInstances: Int)
    /// The controller has extended advertising, but refuses it until its next reset (legacy
    /// commands were used since the last one; Core Vol 4 Part E §3.1.1).
    case lockedToLegacy(adapter: String)
    /// The controller has no extended advertising: one beacon on air at a time, taking turns.
    case noExtendedAdvertising(adapter: String)
    /// A raw HCI socket next to a running bluetoothd: the kernel can switch the advertising off
    /// and the watchdog restores it; the plain kernel adapter `hci<id>` would use the management
    /// API instead.
    case rawSocketNextToBluetoothd(adapter: String, id: UInt16)
    /// Advertising would use the management API (bluetoothd is running), but it is unavailable.
    case managementAPIUnavailable(adapter: String, error: TermedText)
    /// Advertising uses the management API next to bluetoothd (the raw socket can be forced).
    case managementAPINextToBluetoothd(adapter: String)
    /// This process lacks a capability the backend in use needs, and which one grants least.
    case privilege(Privilege)
    /// A Bluetooth radio is hard blocked (a switch or firmware): rfkill cannot unblock it.
    case hardBlocked
    /// A Bluetooth radio is soft blocked: rfkill can unblock it.
    case softBlocked
    /// Nothing stands in the way.
    case nothingToFix

    /// The least privilege for the backend advertising would use.
    public struct Privilege: Hashable, Sendable {
        /// Whether the management API is the backend (CAP_NET_ADMIN), or the raw socket (CAP_NET_RAW).
        public var usesManagementAPI: Bool
        /// Whether this process has the capability that backend needs.
        public var hasCapability: Bool

        /// The advice for the backend and what this process has.
        public init(usesManagementAPI: Bool, hasCapability: Bool) {
            self.usesManagementAPI = usesManagementAPI
            self.hasCapability = hasCapability
        }
    }

    /// The advice for `examinations` on `host`, in the order to print.
    public static func advice(_ examinations: [AdapterExamination], _ host: HostDiagnosis) -> [HostAdvice] {
        var out: [HostAdvice] = []
        if host.bluetoothSocket == false, let e = host.socketError {
            out.append(.noKernelBluetooth(e.termedText))
        }
        for r in examinations {
            // Without kernel Bluetooth, each kernel adapter's own AF_BLUETOOTH error says it again.
            if let error = r.error, host.bluetoothSocket != false || !error.isNoKernelBluetooth {
                out.append(.unusable(adapter: r.name, error: error.termedText))
            }
            if let api = r.capabilities?.managementAPI {
                if api.freeInstances.isEmpty { out.append(.everyInstanceTaken(adapter: r.name, maxInstances: api.maxInstances)) }
            } else if let caps = r.capabilities, caps.leFeatures.contains(.leExtendedAdvertising), !caps.hasExtendedAdvertising {
                out.append(.lockedToLegacy(adapter: r.name))
            } else if let caps = r.capabilities, !caps.hasExtendedAdvertising {
                out.append(.noExtendedAdvertising(adapter: r.name))
            }
        }
        if !host.bluetoothd.isEmpty {
            for r in examinations {
                guard let spec = try? AdapterSpec(parsing: r.name), case .raw(let id) = spec else { continue }
                out.append(.rawSocketNextToBluetoothd(adapter: r.name, id: id))
            }
        }
        for r in examinations {
            guard let backend = r.backend, case .management = backend.spec else { continue }
            if r.management == nil, let e = r.managementError {
                out.append(.managementAPIUnavailable(adapter: r.name, error: e.termedText))
            } else {
                out.append(.managementAPINextToBluetoothd(adapter: r.name))
            }
        }
        if let privilege = privilege(examinations, host) { out.append(.privilege(privilege)) }
        if host.rfkill.contains(where: \.hard) { out.append(.hardBlocked) }
        if host.rfkill.contains(where: { $0.soft && !$0.hard }) { out.append(.softBlocked) }
        if out.isEmpty { out.append(.nothingToFix) }
        return out
    }

    /// The privilege advice, when a kernel adapter is examined by a process that is not root
    /// and lacks CAP_NET_RAW or CAP_NET_ADMIN.
    static func privilege(_ examinations: [AdapterExamination], _ host: HostDiagnosis) -> Privilege? {
        let kernel = examinations.contains { $0.isKernelRaw || $0.name.hasPrefix("mgmt:") || $0.name.hasPrefix("raw:") }
        guard kernel, !host.isRoot, host.hasNetRaw == false || host.hasNetAdmin == false else { return nil }
        let usesManagement = examinations.contains { r in
            if r.name.hasPrefix("mgmt:") { return true }
            if case .management? = r.backend?.spec { return true }
            return false
        }
        return Privilege(usesManagementAPI: usesManagement,
                         hasCapability: (usesManagement ? host.hasNetAdmin : host.hasNetRaw) == true)
    }
}
