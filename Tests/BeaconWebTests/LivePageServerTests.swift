// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconWeb
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LiveView
import Testing

@Suite struct WebAddressTests {
    @Test func portAloneMeansLoopback() throws {
        #expect(try WebAddress(parsing: "8080") == WebAddress(host: "127.0.0.1", port: 8080))
        #expect(try WebAddress(parsing: "0.0.0.0:0") == WebAddress(host: "0.0.0.0", port: 0))
        #expect(try WebAddress(parsing: "localhost:9") == WebAddress(host: "127.0.0.1", port: 9))
    }

    @Test(arguments: ["", "http", "70000", "-1", "1:2:3", "example.org:80", "1.2.3:80", "256.0.0.1:80"])
    func badValuesAreRefusedWithTheAllowedForm(_ text: String) {
        #expect(throws: LivePageError.self) { try WebAddress(parsing: text) }
    }
}

/// The server on loopback: the page, the read-only routes, a port picked by the system.
@Suite struct LivePageServerTests {
    static func get(_ url: String, method: String = "GET") async throws -> (status: Int, body: String) {
        var request = URLRequest(url: try #require(URL(string: url)), timeoutInterval: 10)
        request.httpMethod = method
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    @Test func servesTheSelfContainedPageAndNothingThatChangesState() async throws {
        let server = try await LivePageServer.start(WebAddress(port: 0))
        #expect(server.address.port != 0)
        let page = try await Self.get(server.url)
        #expect(page.status == 200)
        #expect(page.body.contains("new WebSocket"))
        // Self-contained: no script, style or image is fetched from anywhere.
        #expect(!page.body.contains("src=") && !page.body.contains("http:") && !page.body.contains("https:"))
        #expect(try await Self.get(server.url + "nothing").status == 404)
        #expect(try await Self.get(server.url, method: "POST").status == 404)
        await server.stop()
    }

    @Test func aSecondServerOnATakenPortSaysWhy() async throws {
        let first = try await LivePageServer.start(WebAddress(port: 0))
        await #expect(throws: LivePageError.self) { _ = try await LivePageServer.start(first.address) }
        await first.stop()
    }
}
