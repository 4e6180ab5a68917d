// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconSystem
import BeaconCodec
import HCI
import HCITransport
import VirtualController
import BeaconRadio

/// An open controller: the HCI session (or, for `mgmt:hci0`, the kernel management API session)
/// and, for the built-in virtual controller, the controller itself (to read its air log).
public struct AdapterConnection: Sendable {
    public var spec: AdapterSpec
    /// How the controller is driven: an HCI session, or (`mgmt:hci0`) the kernel's management API.
    public var session: Session
    public var virtual: VirtualController?

    /// How a connection reaches its controller.
    public enum Session: Sendable {
        /// HCI commands: raw socket, user channel, TCP, UART, or the virtual controller.
        case hci(HCIController)
        /// The kernel's management API, which only advertises (`mgmt:hci0`).
        case management(MgmtController)
    }

    /// The HCI session; nil only for a `mgmt:` connection, which has ``management`` instead.
    /// Commands that need HCI (scan, stop, doctor, locate) get it through ``requireHCI(for:)``.
    public var hci: HCIController? { if case .hci(let hci) = session { hci } else { nil } }
    /// The management API session of a `mgmt:` connection.
    public var management: MgmtController? { if case .management(let mgmt) = session { mgmt } else { nil } }
    /// The virtual controller's place on the shared air, when it joined one.
    public var airLink: AirLink?
    /// Whether the kernel drives this controller too (the raw socket: `hci0`, `raw:hci0`), so
    /// the kernel's commands can take beacon's advertising off the air and a watchdog must put
    /// it back. Tests set it to put a scripted "kernel" next to another transport.
    public var sharedWithKernel: Bool
    /// Why this backend, when beacon chose it (`-i hci0` for advertising, see ``BackendChoice``).
    public var backendReason: TermedText?

    public init(spec: AdapterSpec, hci: HCIController, virtual: VirtualController? = nil) {
        self.spec = spec
        session = .hci(hci)
        self.virtual = virtual
        switch spec {
        case .kernel, .raw: sharedWithKernel = true
        default: sharedWithKernel = false
        }
    }

    public init(spec: AdapterSpec, management: MgmtController) {
        self.spec = spec
        session = .management(management)
        sharedWithKernel = false
    }

    /// The adapter as the user named it.
    public var adapterName: AdapterName {
        switch session {
        case .hci(let hci): AdapterName(hci.adapterName)
        case .management(let mgmt): AdapterName(mgmt.adapterName)
        }
    }

    public func close() {
        airLink?.close()
        switch session {
        case .hci(let hci): hci.close()
        case .management(let mgmt): mgmt.close()
        }
    }

    /// The HCI session, or the reason this connection has none: the management API advertises
    /// through the kernel and has no HCI commands for `purpose`.
    public func requireHCI(for purpose: String) throws(TransportError) -> HCIController {
        guard let hci else {
            throw .invalidAdapter(spec.description, reason: "the kernel's management API only advertises; to \(purpose), use the raw socket (hci\(spec.kernelID ?? 0)) or the user channel")
        }
        return hci
    }

    /// Whether we own the controller and may reset it: not on the shared kernel raw socket, where
    /// bluetoothd and the kernel use it too.
    public var mayReset: Bool {
        switch spec {
        case .kernel, .raw: return false
        default: return true
        }
    }

    /// Opens one adapter. Never falls back to another adapter (the virtual one included). A
    /// virtual controller joins `air` when given, hearing it from `receiver`.
    public static func open(_ spec: AdapterSpec, commandTimeout: Duration = .seconds(2), btsnoop: BTSnoopWriter? = nil,
                            air: SharedAir? = nil, receiver: Point = Point(x: 0, y: 0),
                            channel: AirChannel = .clean) throws(AdapterOpenError) -> AdapterConnection {
        switch spec {
        case .virtual(let options):
            return try openVirtual(spec, options: options, commandTimeout: commandTimeout, btsnoop: btsnoop, air: air, receiver: receiver, channel: channel)
        case .allKernel:
            throw .notExpanded(spec)
        case .kernel, .raw, .management, .userChannel, .tcp, .serial:
            do throws(TransportError) { return try openTransport(spec, commandTimeout: commandTimeout, btsnoop: btsnoop) } catch { throw .transport(error) }
        }
    }

    /// Opens an adapter reached through a transport (not `virtual`, not `all`).
    private static func openTransport(_ spec: AdapterSpec, commandTimeout: Duration, btsnoop: BTSnoopWriter?) throws(TransportError) -> AdapterConnection {
        switch spec {
        case .kernel(let id), .raw(let id):
            return AdapterConnection(spec: spec, hci: HCIController(transport: try KernelTransport.openRaw(id: id), commandTimeout: commandTimeout, btsnoop: btsnoop))
        case .management(let id):
            // Without CAP_NET_ADMIN the kernel binds the control socket all the same but as
            // untrusted, and refuses advertising commands one by one, with a reply that it can fail
            // to queue (seen as ENOMEM on the write). Say so before sending anything.
            if let caps = HostDiagnosis.effectiveCapabilities(), caps & (1 << UInt64(HostDiagnosis.capNetAdmin)) == 0 {
                throw TransportError.system(SystemCallError(call: "the management API (CAP_NET_ADMIN)", errno: .notPermitted), adapter: spec.description)
            }
            // Commands name the adapter by index in their header; the socket is bound to none.
            return AdapterConnection(spec: spec, management: MgmtController(transport: try KernelTransport.openControl(id: id), index: id, commandTimeout: commandTimeout))
        case .userChannel(let id):
            return AdapterConnection(spec: spec, hci: HCIController(transport: try KernelTransport.openUserChannel(id: id), commandTimeout: commandTimeout, btsnoop: btsnoop))
        case let .tcp(host, port):
            return AdapterConnection(spec: spec, hci: HCIController(transport: try TCPTransport.connect(host: host, port: port, timeout: commandTimeout), commandTimeout: commandTimeout, btsnoop: btsnoop))
        case let .serial(path, baud, flow):
            return AdapterConnection(spec: spec, hci: HCIController(transport: try SerialTransport.open(path: path, baud: baud, flowControl: flow), commandTimeout: commandTimeout, btsnoop: btsnoop))
        case .virtual, .allKernel:
            throw .invalidAdapter(spec.description, reason: "not reached through a transport")
        }
    }

    private static func openVirtual(_ spec: AdapterSpec, options: [String: String], commandTimeout: Duration, btsnoop: BTSnoopWriter?,
                                    air: SharedAir?, receiver: Point, channel: AirChannel) throws(AdapterOpenError) -> AdapterConnection {
        var configuration: VirtualController.Configuration
        do throws(VirtualControllerConfigurationError) { configuration = try VirtualController.Configuration(options: options) } catch {
            throw .virtualConfiguration(error)
        }
        if air != nil {
            // On the shared air, events keep the spec's 0–10 ms advDelay unless the spec says
            // otherwise, each process with its own seed: without it two advertisers at one
            // interval keep their phase for ever, colliding on every event or never.
            if options["advdelay"] == nil { configuration.advertisingDelay = true }
            if options["seed"] == nil { configuration.seed = UInt64(LiveSystemCalls().processID) }
        }
        let controller = VirtualController(configuration: configuration)
        let transport = VirtualTransport(controller: controller, adapterName: spec.description)
        let link: AirLink?
        do throws(SharedAirError) {
            link = try air.map { air throws(SharedAirError) in try AirLink(controller: controller, air: air, receiver: receiver, channel: channel) }
        } catch {
            throw .sharedAir(error)
        }
        var connection = AdapterConnection(spec: spec, hci: HCIController(transport: transport, commandTimeout: commandTimeout, btsnoop: btsnoop), virtual: controller)
        connection.airLink = link
        return connection
    }

    /// Opens `spec` for advertising (or `stop`): a plain kernel adapter gets the backend
    /// ``BackendChoice`` picks, and the connection says why.
    public static func openForAdvertising(_ spec: AdapterSpec, commandTimeout: Duration = .seconds(2), btsnoop: BTSnoopWriter? = nil,
                                          air: SharedAir? = nil, receiver: Point = Point(x: 0, y: 0)) throws(AdapterOpenError) -> AdapterConnection {
        let choice = BackendChoice.forAdvertising(spec)
        var connection = try open(choice.spec, commandTimeout: commandTimeout, btsnoop: btsnoop, air: air, receiver: receiver)
        connection.backendReason = choice.reason
        return connection
    }

    /// Replaces `all` with every kernel adapter; an error when there are none.
    public static func expand(_ specs: [AdapterSpec]) throws(TransportError) -> [AdapterSpec] {
        var out: [AdapterSpec] = []
        for s in specs {
            if s == .allKernel {
                let ids = try KernelTransport.adapters().map(\.id)
                if ids.isEmpty { throw .noSuchAdapter("all", existing: []) }
                out += ids.map { AdapterSpec.kernel(id: $0) }
            } else {
                out.append(s)
            }
        }
        return out
    }
}

extension AdapterConnection {
    /// On the shared virtual air, tells the scanners where the walker of `beacon walk` is
    /// (metres, the profiles' frame; see VirtualController's `AirLink.announceWalker(at:)`); nothing elsewhere.
    public func announceWalker(at point: Point) {
        airLink?.announceWalker(at: point)
    }
}
