// SPDX-License-Identifier: GPL-2.0-or-later

/// Where the live page listens: `--web [HOST:]PORT`. Without a host, 127.0.0.1 (this machine
/// only); port 0 lets the system pick a free one.
public struct WebAddress: Sendable, Equatable, CustomStringConvertible {
    /// An IPv4 address in dotted form (`localhost` is read as 127.0.0.1).
    public var host: String
    public var port: UInt16

    public init(host: String = "127.0.0.1", port: UInt16) {
        self.host = host
        self.port = port
    }

    /// Reads `PORT` or `HOST:PORT`; the error says what was wrong and what is allowed.
    public init(parsing text: String) throws(LivePageError) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2, let portText = parts.last, let port = UInt16(portText) else {
            throw .badAddress("'\(text)' is not [HOST:]PORT (PORT from 0 to 65535, 0 for any free port; HOST an IPv4 address such as 127.0.0.1 or 0.0.0.0)")
        }
        var host = parts.count == 2 ? String(parts[0]) : "127.0.0.1"
        if host == "localhost" { host = "127.0.0.1" }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets.allSatisfy({ $0.count <= 3 && UInt8($0) != nil }) else {
            throw .badAddress("'\(host)' in '\(text)' is not an IPv4 address (such as 127.0.0.1, the default, or 0.0.0.0 for every interface)")
        }
        self.init(host: host, port: port)
    }

    public var description: String { "\(host):\(port)" }
}

/// Why the live page could not be served.
public enum LivePageError: Error, Equatable, CustomStringConvertible {
    /// The address given is not `[HOST:]PORT`.
    case badAddress(String)
    /// The server could not listen (the port is taken, the address is not this machine's).
    case cannotListen(address: String, reason: String)

    public var description: String {
        switch self {
        // The front end says which of its options or settings gave the address.
        case .badAddress(let text): text
        case let .cannotListen(address, reason): "cannot serve on \(address): \(reason)"
        }
    }
}
