// SPDX-License-Identifier: GPL-2.0-or-later

/// Which `Host` and `Origin` the page answers: the defence against DNS rebinding (a page on
/// `evil.example` whose name the attacker points at 127.0.0.1 sends `Host: evil.example`) and
/// against cross-site WebSocket hijacking (a page from another origin opens `ws://…/live`; the
/// browser sends that page's `Origin`).
///
/// A `Host` is answered when its port is the one served and its name is an IPv4 address (the
/// served one; any for 0.0.0.0, since a literal address cannot be rebound), `localhost`, or a
/// name given with `--web-host`. A WebSocket is opened only without `Origin` (a program, not a
/// browser page: it could read the page anyway) or with the origin the page itself has,
/// `http://` and the request's `Host`.
public struct PageHosts: Sendable, Equatable {
    /// The address listened on (0.0.0.0: every interface).
    public var address: WebAddress
    /// Further names the page is reached by (a machine's DNS or mDNS name), lower case.
    public var names: [String]

    public init(address: WebAddress, names: [String] = []) {
        self.address = address
        self.names = names.map { $0.lowercased() }
    }

    /// Whether a request with this `Host` header is answered.
    public func allows(host header: String?) -> Bool {
        guard let header, let (name, port) = Self.split(header.lowercased()) else { return false }
        guard port == address.port else { return false }
        if Self.isIPv4(name) { return address.host == "0.0.0.0" || name == address.host }
        if name == "localhost" { return address.host == "127.0.0.1" || address.host == "0.0.0.0" }
        return names.contains(name)
    }

    /// Whether a WebSocket with this `Origin` (nil: none sent) may be opened by a request with
    /// this `Host`.
    public func allowsWebSocket(origin: String?, host: String?) -> Bool {
        guard allows(host: host), let host else { return false }
        guard let origin else { return true }
        return origin.lowercased() == "http://" + host.lowercased()
    }

    /// What a refused request is told: the names that are served.
    var served: String {
        var list = address.host == "0.0.0.0" ? ["any IPv4 address of this machine", "localhost"] : [address.host]
        if address.host == "127.0.0.1" { list.append("localhost") }
        list += names
        return list.joined(separator: ", ") + " (port \(address.port))"
    }

    /// `name[:port]` (port 80 when none is given); nil when the port is not a number.
    static func split(_ header: String) -> (String, UInt16)? {
        guard let colon = header.lastIndex(of: ":") else { return (header, 80) }
        guard let port = UInt16(header[header.index(after: colon)...]) else { return nil }
        return (String(header[..<colon]), port)
    }

    static func isIPv4(_ name: String) -> Bool {
        let octets = name.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets.allSatisfy { !$0.isEmpty && $0.count <= 3 && UInt8($0) != nil }
    }
}
