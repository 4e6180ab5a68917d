// SPDX-License-Identifier: GPL-2.0-or-later
#if canImport(Glibc)
import Glibc  // inet_pton/inet_ntop: library functions (no system call), so not on SystemCalls
#endif

/// What `-i/--adapter` names: which controller to talk to, and how.
public enum AdapterSpec: Hashable, Sendable, CustomStringConvertible {
    /// `hci0` or `0`: a kernel adapter. Commands that need HCI (scan, doctor, locate) use the raw
    /// socket; `advertise` and `stop` choose the backend (see `BackendChoice` in BeaconAdapters):
    /// the management API when bluetoothd is running, the raw socket otherwise.
    case kernel(id: UInt16)
    /// `raw:hci0`: the kernel's raw HCI socket, whatever runs next to it.
    case raw(id: UInt16)
    /// `user:hci0`: the kernel's exclusive HCI user channel.
    case userChannel(id: UInt16)
    /// `mgmt:hci0`: the kernel's management API (HCI control channel): advertising instances the
    /// kernel manages next to bluetoothd's, never touching other programs' advertising.
    case management(id: UInt16)
    /// `tcp:HOST:PORT`: H4 over TCP.
    case tcp(host: String, port: UInt16)
    /// `serial:/dev/ttyACM0[@BAUD][,nortscts]`: H4 over a UART, by default at 1000000 baud with
    /// RTS/CTS flow control, as Zephyr's `hci_uart` and ESP-IDF's `controller_hci_uart` need it
    /// (ESP32's rate is set in its menuconfig: `@921600` for its default). `,nortscts` for a UART
    /// wired without RTS and CTS; `,rtscts` is accepted and is the default.
    case serial(path: String, baud: Int, flowControl: Bool)
    /// `virtual[:key=value,…]`: the built-in virtual controller (keys: `sets`, `version`,
    /// `extended`=yes|no, `legacy` as a shorthand for extended=no).
    case virtual(options: [String: String])
    /// `all`: every kernel adapter.
    case allKernel

    /// Parses one adapter (no commas; see ``list(_:)`` for several).
    public init(parsing text: String) throws(TransportError) {
        let t = text.trimmingSpaces
        if t == "all" { self = .allKernel; return }
        if let id = Self.hciID(t) { self = .kernel(id: id); return }
        if t.hasPrefix("user:") {
            guard let id = Self.hciID(String(t.dropFirst(5))) else {
                throw .invalidAdapter(text, reason: "user: needs a kernel adapter name, e.g. user:hci0")
            }
            self = .userChannel(id: id)
            return
        }
        if t.hasPrefix("raw:") {
            guard let id = Self.hciID(String(t.dropFirst(4))) else {
                throw .invalidAdapter(text, reason: "raw: needs a kernel adapter name, e.g. raw:hci0")
            }
            self = .raw(id: id)
            return
        }
        if t.hasPrefix("mgmt:") {
            guard let id = Self.hciID(String(t.dropFirst(5))) else {
                throw .invalidAdapter(text, reason: "mgmt: needs a kernel adapter name, e.g. mgmt:hci0")
            }
            self = .management(id: id)
            return
        }
        if t.hasPrefix("tcp:") {
            let rest = t.dropFirst(4)
            guard let colon = rest.lastIndex(of: ":"), let port = UInt16(rest[rest.index(after: colon)...]), port > 0 else {
                throw .invalidAdapter(text, reason: "tcp: needs HOST:PORT with a port from 1 to 65535, e.g. tcp:127.0.0.1:9000")
            }
            var host = String(rest[..<colon])
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            guard !host.isEmpty else { throw .invalidAdapter(text, reason: "tcp: needs a host, e.g. tcp:127.0.0.1:9000") }
            self = .tcp(host: host, port: port)
            return
        }
        if t.hasPrefix("serial:") {
            var rest = Substring(t.dropFirst(7))
            var flow = true
            if rest.hasSuffix(",rtscts") { rest = rest.dropLast(7) } else if rest.hasSuffix(",nortscts") { flow = false; rest = rest.dropLast(9) }
            var baud = 1_000_000
            if let at = rest.lastIndex(of: "@") {
                guard let b = Int(rest[rest.index(after: at)...]), b > 0 else {
                    throw .invalidAdapter(text, reason: "the baud rate after @ must be a number, e.g. serial:/dev/ttyACM0@1000000")
                }
                baud = b
                rest = rest[..<at]
            }
            guard rest.hasPrefix("/") else { throw .invalidAdapter(text, reason: "serial: needs a device path, e.g. serial:/dev/ttyACM0") }
            self = .serial(path: String(rest), baud: baud, flowControl: flow)
            return
        }
        if t == "virtual" || t.hasPrefix("virtual:") {
            var options: [String: String] = [:]
            for item in t.dropFirst(8).split(separator: ",") where !item.isEmpty {
                let kv = item.split(separator: "=", maxSplits: 1)
                options[String(kv[0])] = kv.count == 2 ? String(kv[1]) : "yes"
            }
            self = .virtual(options: options)
            return
        }
        throw .invalidAdapter(text, reason: "not an adapter name")
    }

    /// Parses `hci0,hci1` or `virtual` or `all` into adapters. Virtual options use commas too, so
    /// a `virtual:…` item takes the rest of the list.
    /// The same controller named twice, in any spelling, is an error.
    public static func list(_ text: String) throws(TransportError) -> [AdapterSpec] {
        if text.hasPrefix("virtual") { return [try AdapterSpec(parsing: text)] }
        var out: [(spec: AdapterSpec, spelling: String)] = []
        for part in text.split(separator: ",") {
            let spelling = String(part).trimmingSpaces
            let spec = try AdapterSpec(parsing: spelling)
            if let earlier = out.first(where: { $0.spec.reachesSameController(as: spec) }) {
                throw .sameController(first: earlier.spelling, second: spelling,
                                      controller: earlier.spec == AdapterSpec.allKernel ? spec.controllerName : earlier.spec.controllerName)
            }
            out.append((spec, spelling))
        }
        guard !out.isEmpty else { throw .invalidAdapter(text, reason: "empty adapter list") }
        return out.map(\.spec)
    }

    /// The controller a spec reaches, whatever the spelling: `hci0`, `0`, `hci00` and
    /// `user:hci0` all reach hci0; a `tcp:` host compares numerically or without case. `nil` for `virtual`
    /// (each one is a controller of its own) and `all` (every kernel adapter).
    var controllerKey: String? {
        switch self {
        case let .kernel(id), let .raw(id), let .userChannel(id), let .management(id): "hci\(id)"
        case let .tcp(host, port): "tcp:\(Self.canonicalHost(host)):\(port)"
        case let .serial(path, _, _): "serial:\(path)"
        case .virtual, .allKernel: nil
        }
    }

    /// A numeric address in its canonical form (`0:0:0:0:0:0:0:1` → `::1`), a name in lower
    /// case. Names are not resolved: that would wait on DNS while parsing arguments.
    static func canonicalHost(_ host: String) -> String {
        var v4 = in_addr()
        var v6 = in6_addr()
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        if inet_pton(AF_INET, host, &v4) == 1, inet_ntop(AF_INET, &v4, &text, socklen_t(text.count)) != nil {
            return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        if inet_pton(AF_INET6, host, &v6) == 1, inet_ntop(AF_INET6, &v6, &text, socklen_t(text.count)) != nil {
            return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return host.lowercased()
    }

    /// `hci0` for every kernel channel, otherwise the spec.
    var controllerName: String { controllerKey.map { $0.hasPrefix("hci") ? $0 : description } ?? description }

    /// Whether two specs of one `-i` list would open one controller twice; `all` reaches every
    /// kernel adapter, so it clashes with any of them and with itself.
    func reachesSameController(as other: AdapterSpec) -> Bool {
        if self == .allKernel || other == .allKernel {
            let rest = self == .allKernel ? other : self
            if rest == .allKernel { return true }
            if case .kernel = rest { return true }
            if case .raw = rest { return true }
            if case .userChannel = rest { return true }
            if case .management = rest { return true }
            return false
        }
        guard let key = controllerKey else { return false }
        return key == other.controllerKey
    }

    /// How beacon talks to the controller, in words (for `doctor`).
    public var transportDescription: String {
        switch self {
        case let .kernel(id), let .raw(id): return "kernel HCI socket: AF_BLUETOOTH, SOCK_RAW, BTPROTO_HCI, raw channel, bound to hci\(id) (libbluetooth)"
        case let .userChannel(id): return "kernel HCI socket: AF_BLUETOOTH, SOCK_RAW, BTPROTO_HCI, user channel (exclusive), bound to hci\(id)"
        case let .management(id): return "kernel management API: AF_BLUETOOTH, SOCK_RAW, BTPROTO_HCI, control channel (HCI_CHANNEL_CONTROL), commands for hci\(id)"
        case let .tcp(host, port): return "H4 over TCP to \(host):\(port)"
        case let .serial(path, baud, flow): return "H4 over the UART \(path) at \(baud) baud" + (flow ? " with RTS/CTS" : "")
        case .virtual: return "the built-in virtual controller (in this process)"
        case .allKernel: return "every kernel adapter"
        }
    }

    /// The kernel adapter id of `hci0`, `raw:hci0`, `user:hci0`, `mgmt:hci0`; nil for the others.
    public var kernelID: UInt16? {
        switch self {
        case let .kernel(id), let .raw(id), let .userChannel(id), let .management(id): id
        default: nil
        }
    }

    static func hciID(_ t: String) -> UInt16? {
        if let n = UInt16(t) { return n }
        if t.hasPrefix("hci"), let n = UInt16(t.dropFirst(3)) { return n }
        return nil
    }

    public var description: String {
        switch self {
        case let .kernel(id): return "hci\(id)"
        case let .raw(id): return "raw:hci\(id)"
        case let .userChannel(id): return "user:hci\(id)"
        case let .management(id): return "mgmt:hci\(id)"
        case let .tcp(host, port): return host.contains(":") ? "tcp:[\(host)]:\(port)" : "tcp:\(host):\(port)"
        case let .serial(path, baud, flow): return "serial:\(path)@\(baud)" + (flow ? "" : ",nortscts")
        case let .virtual(options):
            return options.isEmpty ? "virtual" : "virtual:" + options.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
        case .allKernel: return "all"
        }
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
