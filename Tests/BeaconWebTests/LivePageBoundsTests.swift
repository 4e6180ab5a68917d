// SPDX-License-Identifier: GPL-2.0-or-later
@testable import BeaconWeb
import Foundation
import LiveView
import NIOCore
import Testing
import TestSupport

/// What a hostile peer can send the page server (#35 items 1, 5, 6), over real sockets: lines
/// and heads are bounded and refused with 414 or 431, frames with 1009, unmasked or reserved-bit
/// frames with 1002; connections are bounded; `Host` and `Origin` are checked. After each, the
/// page still answers. Every read waits for the server's answer, bounded only against hangs.
@Suite struct LivePageBoundsTests {
    /// The status line of what the server answered.
    static func statusLine(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n").first ?? ""
    }

    /// `GET path` with `headers`, answered: the status line.
    static func get(_ port: UInt16, _ path: String = "/", host: String? = nil, headers: [String] = []) throws -> String {
        let client = try RawTCPClient(port: port)
        let lines = ["GET \(path) HTTP/1.1", "Host: \(host ?? "127.0.0.1:\(port)")", "Connection: close"] + headers
        client.send(lines.joined(separator: "\r\n") + "\r\n\r\n")
        return statusLine(client.readToEnd())
    }

    /// A WebSocket opened on `/live` (RFC 6455 §4.1's sample key), or the status it was refused
    /// with; `rest`: what came after the response's head in the same reads.
    static func openSocket(_ port: UInt16, origin: String? = nil, host: String? = nil) throws -> (client: RawTCPClient, status: String, rest: [UInt8]) {
        let client = try RawTCPClient(port: port)
        var lines = ["GET /live HTTP/1.1", "Host: \(host ?? "127.0.0.1:\(port)")", "Upgrade: websocket", "Connection: Upgrade",
                     "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13"]
        if let origin { lines.append("Origin: \(origin)") }
        client.send(lines.joined(separator: "\r\n") + "\r\n\r\n")
        let head = client.read { String(decoding: $0, as: UTF8.self).contains("\r\n\r\n") }
        let end = (0..<max(head.count - 3, 0)).first { Array(head[$0..<$0 + 4]) == Array("\r\n\r\n".utf8) }.map { $0 + 4 } ?? head.count
        return (client, statusLine(head), Array(head[end...]))
    }

    /// A masked client frame (mask 0: the payload reads as sent).
    static func frame(opcode: UInt8, payload: [UInt8] = [], masked: Bool = true, rsv1: Bool = false) -> [UInt8] {
        var bytes: [UInt8] = [0x80 | (rsv1 ? 0x40 : 0) | opcode, (masked ? 0x80 : 0) | UInt8(payload.count)]
        if masked { bytes += [0, 0, 0, 0] }
        return bytes + payload
    }

    /// The close code of the close frame in what the server sent last, if it sent one.
    static func closeCode(_ bytes: [UInt8]) -> UInt16? {
        guard let start = bytes.lastIndex(of: 0x88), bytes.count >= start + 4, bytes[start + 1] == 2 else { return nil }
        return UInt16(bytes[start + 2]) << 8 | UInt16(bytes[start + 3])
    }

    @Test func aLongRequestLineIsRefusedWith414AndThePageStillAnswers() async throws {
        let server = try await LivePageServer.start(WebAddress(port: 0))
        for size in [9 * 1024, 3 * 1024 * 1024] {
            let client = try RawTCPClient(port: server.address.port)
            client.send("GET /" + String(repeating: "a", count: size) + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(Self.statusLine(client.readToEnd()) == "HTTP/1.1 414 URI Too Long", "a \(size)-byte line")
        }
        #expect(try Self.get(server.address.port) == "HTTP/1.1 200 OK")
        await server.stop()
    }

    @Test func aLongHeaderLineOrHeadIsRefusedWith431() async throws {
        let server = try await LivePageServer.start(WebAddress(port: 0))
        let port = server.address.port
        #expect(try Self.get(port, headers: ["X-Long: " + String(repeating: "b", count: 100_000)]) == "HTTP/1.1 431 Request Header Fields Too Large")
        let many = (0..<20).map { "X-\($0): " + String(repeating: "c", count: 4000) }
        #expect(try Self.get(port, headers: many) == "HTTP/1.1 431 Request Header Fields Too Large", "80 KB of 4 KB lines")
        #expect(try Self.get(port, headers: ["X-Fine: " + String(repeating: "d", count: 4000)]) == "HTTP/1.1 200 OK")
        await server.stop()
    }

    @Test func theHostMustBeOneThePageIsServedAs() async throws {
        let server = try await LivePageServer.start(WebAddress(port: 0), names: ["Laptop.local"])
        let port = server.address.port
        #expect(try Self.get(port, host: "evil.example:\(port)") == "HTTP/1.1 421 Misdirected Request", "DNS rebinding")
        #expect(try Self.get(port, host: "127.0.0.1:\(port + 1)") == "HTTP/1.1 421 Misdirected Request", "another port")
        #expect(try Self.get(port, host: "localhost:\(port)") == "HTTP/1.1 200 OK")
        #expect(try Self.get(port, host: "laptop.local:\(port)") == "HTTP/1.1 200 OK", "a name given with --web-host")
        await server.stop()
    }

    @Test func headersKeepTheBrowserFromSniffingOrFramingThePage() async throws {
        let server = try await LivePageServer.start(WebAddress(port: 0))
        let client = try RawTCPClient(port: server.address.port)
        client.send("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(server.address.port)\r\nConnection: close\r\n\r\n")
        let head = String(decoding: client.readToEnd(), as: UTF8.self).lowercased()
        #expect(head.contains("x-content-type-options: nosniff"))
        #expect(head.contains("content-security-policy: default-src 'none';") && head.contains("connect-src 'self'") && head.contains("frame-ancestors 'self'"))
        await server.stop()
    }

    @Test func aSocketFromAnotherOriginIsRefused() async throws {
        let server = try await LivePageServer.start(WebAddress(port: 0))
        let port = server.address.port
        #expect(try Self.openSocket(port, origin: "http://evil.example").status == "HTTP/1.1 403 Forbidden", "cross-site WebSocket hijacking")
        #expect(try Self.openSocket(port, origin: "null").status == "HTTP/1.1 403 Forbidden")
        #expect(try Self.openSocket(port, origin: "http://127.0.0.1:\(port)").status == "HTTP/1.1 101 Switching Protocols", "the page's own origin")
        #expect(try Self.openSocket(port).status == "HTTP/1.1 101 Switching Protocols", "a program, without Origin")
        await server.stop()
    }

    @Test func aRefusedUpgradeIsAnsweredThenClosed() async throws {
        // NIO's parser stops at an upgrade request's end: kept open, the connection would
        // buffer everything sent after it, unread. (No idle limit to close it instead.)
        let server = try await LivePageServer.start(WebAddress(port: 0), idleLimit: .seconds(3600))
        let (client, status, _) = try Self.openSocket(server.address.port, origin: "http://evil.example")
        #expect(status == "HTTP/1.1 403 Forbidden")
        client.send(String(repeating: "X\r\n\r\n", count: 1000))
        #expect(client.waitForClose(), "closed after the answer")
        await server.stop()
    }

    @Test func aClientThatDoesNotReadItsAnswersIsNotReadEither() async throws {
        // Quiet for 1 s (its reads held), it is closed: its pipelined requests were not all
        // read and answered into memory. 16 MB of requests, more than the sockets hold.
        let server = try await LivePageServer.start(WebAddress(port: 0), idleLimit: .seconds(1))
        let client = try RawTCPClient(port: server.address.port)
        let request = "GET /x HTTP/1.1\r\nHost: 127.0.0.1:\(server.address.port)\r\n\r\n"
        let many = Array(String(repeating: request, count: (16 << 20) / request.utf8.count).utf8)
        #expect(!client.send(many), "the server stopped reading and closed the connection before all was sent")
        await server.stop()
    }

    @Test func aViewerThatStopsReadingIsClosed() async throws {
        let server = try await LivePageServer.start(WebAddress(port: 0))
        let (client, status, _) = try Self.openSocket(server.address.port)
        #expect(status == "HTTP/1.1 101 Switching Protocols")
        try await Self.waitUntil { server.viewerCount == 1 }
        // 1 MB maps, each new, to a viewer that reads none: past the sockets and 4 MiB unsent,
        // it is closed (a close frame could not reach it) and leaves the viewers.
        let map = String(repeating: "m", count: 1 << 20)
        for i in 0..<24 where server.viewerCount > 0 {
            server.publish(LivePageFeedTests.snapshot("\(i)", svg: "<svg>\(i)\(map)</svg>"))
        }
        try await Self.waitUntil { server.viewerCount == 0 }
        _ = client
        await server.stop()
    }

    @Test func aFrameClaimingMoreThanTheLimitClosesWith1009BeforeItIsRead() async throws {
        let server = try await LivePageServer.start(WebAddress(port: 0))
        let (client, status, _) = try Self.openSocket(server.address.port)
        #expect(status == "HTTP/1.1 101 Switching Protocols")
        // A binary frame claiming 2⁶² bytes (64-bit length), masked; none of it follows.
        client.send([0x82, 0x80 | 127, 0x40, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        #expect(Self.closeCode(client.readToEnd()) == 1009)
        #expect(try Self.get(server.address.port) == "HTTP/1.1 200 OK")
        await server.stop()
    }

    @Test(arguments: [(masked: false, rsv1: false), (masked: true, rsv1: true)])
    func anUnmaskedFrameOrAReservedBitClosesWith1002(_ frame: (masked: Bool, rsv1: Bool)) async throws {
        let server = try await LivePageServer.start(WebAddress(port: 0))
        let (client, _, _) = try Self.openSocket(server.address.port)
        client.send(Self.frame(opcode: 0x1, payload: Array("hi".utf8), masked: frame.masked, rsv1: frame.rsv1))
        #expect(Self.closeCode(client.readToEnd()) == 1002)
        await server.stop()
    }

    @Test func aPingIsAnsweredAndAViewerGetsTheStateFirst() async throws {
        let server = try await LivePageServer.start(WebAddress(port: 0))
        server.publish(LivePageFeedTests.snapshot("now"))
        let (client, _, rest) = try Self.openSocket(server.address.port)
        let state = rest + client.read { String(decoding: rest + $0, as: UTF8.self).contains("\"summary\":\"now\"") }
        #expect(String(decoding: state, as: UTF8.self).contains("\"summary\":\"now\""))
        client.send(Self.frame(opcode: 0x9, payload: Array("are you there".utf8)))
        let pong = client.read { $0.count >= 15 }
        #expect(pong == [0x8A, 13] + Array("are you there".utf8), "a pong carries the ping's data, unmasked")
        await server.stop()
    }

    @Test func connectionsPastTheLimitAreClosedAsTheyAreAcceptedAndThePageRecovers() async throws {
        // Quiet connections are kept for the test's length: only the limit closes them.
        let server = try await LivePageServer.start(WebAddress(port: 0), idleLimit: .seconds(3600))
        let port = server.address.port
        var held: [RawTCPClient] = []
        for _ in 0..<LivePageServer.connectionLimit { held.append(try RawTCPClient(port: port)) }
        try await Self.waitUntil { server.connectionCount == LivePageServer.connectionLimit }
        let over = try RawTCPClient(port: port)
        #expect(over.readToEnd().isEmpty, "closed unanswered")
        #expect(!held[0].peerHasClosed, "the ones held stay open")
        try await Self.waitUntil { server.connectionCount == LivePageServer.connectionLimit }
        held.removeAll()
        try await Self.waitUntil { server.connectionCount == 0 }
        #expect(try Self.get(port) == "HTTP/1.1 200 OK")
        await server.stop()
    }

    @Test func theHostRulesAreTheServedAddressLocalhostAndNamedHosts() {
        let loopback = PageHosts(address: WebAddress(host: "127.0.0.1", port: 8080))
        #expect(loopback.allows(host: "127.0.0.1:8080") && loopback.allows(host: "LOCALHOST:8080"))
        #expect(!loopback.allows(host: "127.0.0.1") && !loopback.allows(host: "10.0.0.2:8080") && !loopback.allows(host: nil))
        let every = PageHosts(address: WebAddress(host: "0.0.0.0", port: 80), names: ["pi.local"])
        #expect(every.allows(host: "192.168.1.20") && every.allows(host: "pi.local") && every.allows(host: "localhost:80"))
        #expect(!every.allows(host: "evil.example") && !every.allows(host: "pi.local:81") && !every.allows(host: "pi.local:x"))
        #expect(every.allowsWebSocket(origin: "http://192.168.1.20", host: "192.168.1.20"))
        #expect(!every.allowsWebSocket(origin: "http://evil.example", host: "192.168.1.20"))
        #expect(!every.allowsWebSocket(origin: "https://192.168.1.20", host: "192.168.1.20"))
    }

    /// Waits for `condition` (a hang bound of 30 s, then a failure naming it).
    static func waitUntil(_ condition: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("never came true", sourceLocation: sourceLocation)
                return
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
