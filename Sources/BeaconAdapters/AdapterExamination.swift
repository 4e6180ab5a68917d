// SPDX-License-Identifier: GPL-2.0-or-later
import HCI
import HCITransport
import Mgmt

/// What examining one adapter found (`doctor`): its capabilities or why it cannot be used, and
/// for a kernel adapter named plainly, which backend advertising would use and the management
/// API's view of it.
public struct AdapterExamination: Sendable {
    /// The adapter as named (the spec's `description`).
    public var name: String
    /// How the controller is reached (kernel socket, TCP, …).
    public var transport: String
    /// What the probe found; nil when the adapter could not be opened or probed.
    public var capabilities: ControllerCapabilities?
    /// The legacy advertising channel power (read only when there is no extended advertising).
    public var legacyTxPower: Int8?
    /// Why the adapter cannot be used; nil when it can.
    public var error: Failure?
    /// Whether the adapter is a kernel one reached through an HCI socket (`hci0`, `raw:hci0`).
    public var isKernelRaw: Bool
    /// For a kernel adapter named plainly: the backend advertising would use, and why.
    public var backend: BackendChoice?
    /// For a kernel adapter named plainly: the management API's view (or why it failed).
    public var management: ManagementAPIInfo?
    /// Why the management API's view could not be had.
    public var managementError: ManagementViewFailure?

    /// An examination with what is known so far (the rest is filled in as it is learned).
    public init(name: String, transport: String = "", capabilities: ControllerCapabilities? = nil, legacyTxPower: Int8? = nil,
                error: Failure? = nil, isKernelRaw: Bool, backend: BackendChoice? = nil,
                management: ManagementAPIInfo? = nil, managementError: ManagementViewFailure? = nil) {
        self.name = name
        self.transport = transport
        self.capabilities = capabilities
        self.legacyTxPower = legacyTxPower
        self.error = error
        self.isKernelRaw = isKernelRaw
        self.backend = backend
        self.management = management
        self.managementError = managementError
    }

    /// Opens `spec`, probes it without a reset (a controller that only does legacy advertising
    /// also has its legacy channel power read) and closes it again; for a kernel adapter named
    /// plainly, also the backend advertising would use with `host`'s bluetoothd, and the
    /// management API's view. Never throws: what failed is in ``error`` and ``managementError``.
    public static func examine(_ spec: AdapterSpec, host: HostDiagnosis, commandTimeout: Duration = AdapterOpening.standardCommandTimeout,
                               btsnoop: BTSnoopWriter? = nil) async -> AdapterExamination {
        var examination = await probe(spec, commandTimeout: commandTimeout, btsnoop: btsnoop)
        if case .kernel(let id) = spec {
            examination.backend = BackendChoice.forAdvertising(spec, bluetoothd: host.bluetoothd)
            switch await managementView(id, commandTimeout: commandTimeout) {
            case .success(let api): examination.management = api
            case .failure(let failure): examination.managementError = failure
            }
        }
        return examination
    }

    static func probe(_ spec: AdapterSpec, commandTimeout: Duration, btsnoop: BTSnoopWriter?) async -> AdapterExamination {
        var report = AdapterExamination(name: spec.description, transport: spec.transportDescription,
                                        isKernelRaw: { switch spec { case .kernel, .raw: true; default: false } }())
        let connection: AdapterConnection
        do throws(AdapterOpenError) { connection = try AdapterConnection.open(spec, commandTimeout: commandTimeout, btsnoop: btsnoop) } catch {
            report.error = .open(error)
            return report
        }
        defer { connection.close() }
        switch connection.session {
        case .management(let mgmt):
            do throws(MgmtControllerError) {
                report.capabilities = await ControllerProbe.measureUsableInstances(mgmt, try await ControllerProbe.probe(management: mgmt))
            } catch {
                report.error = .managementProbe(error)
            }
        case .hci(let hci):
            do throws(HCIControllerError) {
                let caps = try await ControllerProbe.probe(hci, reset: false)
                report.capabilities = caps
                // A legacy-only controller has no mode to lose by a legacy command.
                if !caps.hasExtendedAdvertising { report.legacyTxPower = await ControllerProbe.legacyTxPower(hci) }
            } catch {
                report.error = .hciProbe(error)
            }
        }
        return report
    }

    /// The management API's view of kernel adapter `id`, or why it could not be had.
    public static func managementView(_ id: UInt16, commandTimeout: Duration = AdapterOpening.standardCommandTimeout) async -> Result<ManagementAPIInfo, ManagementViewFailure> {
        let connection: AdapterConnection
        do throws(AdapterOpenError) { connection = try AdapterConnection.open(.management(id: id), commandTimeout: commandTimeout) } catch {
            return .failure(.open(error))
        }
        defer { connection.close() }
        guard let management = connection.management else {
            return .failure(.noManagementSession)
        }
        do throws(MgmtControllerError) {
            let caps = try await ControllerProbe.probe(management: management)
            guard let api = await ControllerProbe.measureUsableInstances(management, caps).managementAPI else {
                return .failure(.noAdvertisingFeatures)
            }
            return .success(api)
        } catch {
            return .failure(.probe(error))
        }
    }
}
