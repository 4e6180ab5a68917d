// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing
import TestSupport

/// `--web` against peers that mean harm (#35 items 1, 5, 6, 14), through the real binary: a
/// stop is honoured while a client sends an endless line; connections that exhaust the
/// descriptors are said and retried, and the page answers once they go; another origin's page,
/// in Chromium, reads nothing; an address that is not this machine's is refused at once, in
/// words. Every wait is for an event, bounded only against hangs.
@Suite(.serialized) struct LivePageHostileTests {
    static func port(of url: String) throws -> UInt16 {
        try #require(url.split(separator: ":").last.flatMap { UInt16($0.trimmingCharacters(in: CharacterSet(charactersIn: "/"))) })
    }

    @Test func aStopIsHonouredWhileAClientSendsAnEndlessLine() async throws {
        let (run, url) = try await LivePageBrowserTests.serving(["advertise", "profiles/room-2m.yaml", "-i", "virtual", "--web", "0"])
        defer { run.send(SIGKILL) }
        let port = try Self.port(of: url)
        // Two clients sending 3 MB lines at once (the page never answered again on FlyingFox).
        let senders = (0..<2).map { _ in
            Task.detached { () -> String in
                guard let client = try? RawTCPClient(port: port) else { return "no connection" }
                client.send("GET /" + String(repeating: "x", count: 3 << 20))
                return String(decoding: client.readToEnd(), as: UTF8.self).components(separatedBy: "\r\n").first ?? ""
            }
        }
        for sender in senders { #expect(await sender.value == "HTTP/1.1 414 URI Too Long") }
        let client = try RawTCPClient(port: port)
        client.send("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
        #expect(String(decoding: client.readToEnd(), as: UTF8.self).hasPrefix("HTTP/1.1 200 OK"), "the page answers after them")
        // One more, still sending when the stop comes.
        let sending = try RawTCPClient(port: port)
        sending.send("GET /" + String(repeating: "y", count: 4096))
        run.send(SIGTERM)
        #expect(await run.waitForExit(timeout: .seconds(30)) == 0, "\(run.output)")
        #expect(run.stdout.contains("room-south off air") || run.stderr.contains("room-south off air"), "\(run.output)")
    }

    @Test func descriptorsRunningOutAreSaidAndThePageAnswersOnceTheyAreBack() async throws {
        let prlimit = try Executables.require("prlimit", install: "apt-get install util-linux")
        let beacon = try BeaconExecutable.location.get()
        // 40 descriptors: the run needs about 17; 40 connections take the rest.
        let run = try BackgroundProgram(prlimit, ["--nofile=40:40", beacon.path, "advertise", "profiles/room-2m.yaml", "-i", "virtual", "--web", "0"])
        defer { run.send(SIGKILL) }
        let url = try #require(await run.livePageURL(), "\(run.output)")
        let port = try Self.port(of: url)
        var held: [RawTCPClient] = []
        for _ in 0..<40 { held.append(try RawTCPClient(port: port)) }
        #expect(await run.waitForOutput { _ in run.stderr.contains("live page: cannot accept a connection (Too many open files); retrying each second") }, "\(run.output)")
        held.removeAll()
        // The retry accepts again; a request then gets the page, and the run says so once.
        let client = try RawTCPClient(port: port)
        client.send("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
        #expect(String(decoding: client.readToEnd(), as: UTF8.self).hasPrefix("HTTP/1.1 200 OK"), "\(run.output)")
        #expect(await run.waitForOutput { _ in run.stderr.contains("live page: accepting connections again") }, "\(run.output)")
        // Said at each change, never at each retry: failing and accepting again alternate.
        let said = run.stderr.split(separator: "\n").filter { $0.hasPrefix("live page: cannot accept") || $0.hasPrefix("live page: accepting") }
        #expect(said.enumerated().allSatisfy { $0.element.contains($0.offset.isMultiple(of: 2) ? "cannot accept" : "accepting connections again") }, "\(run.output)")
        run.send(SIGTERM)
        #expect(await run.waitForExit(timeout: .seconds(30)) == 0, "\(run.output)")
    }

    @Test func anAddressNotOfThisMachineIsRefusedInWords() throws {
        let result = try BeaconExecutable.run(["advertise", "profiles/room-2m.yaml", "-i", "virtual", "--web", "192.0.2.1:80", "--duration", "5"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("--web: cannot serve on 192.0.2.1:80: Cannot assign requested address"), "\(result.stderr)")
        #expect(!result.stderr.contains("IOError") && !result.stderr.contains("errno"), "in words, not a Swift value: \(result.stderr)")
        #expect(!result.stdout.contains("on air"), "nothing went on air: \(result.stdout)")
        let named = try BeaconExecutable.run(["advertise", "profiles/room-2m.yaml", "-i", "virtual", "--web-host", "laptop.local"])
        #expect(named.status != 0 && named.stderr.contains("--web-host: names a host for --web, which is not given"), "\(named.stderr)")
        let bad = try BeaconExecutable.run(["advertise", "profiles/room-2m.yaml", "-i", "virtual", "--web", "0", "--web-host", "evil/../x"])
        #expect(bad.status != 0 && bad.stderr.contains("--web-host: 'evil/../x' is not a host name"), "\(bad.stderr)")
    }

    @Test func aPageFromAnotherOriginReadsNothingFromTheLiveSocket() async throws {
        let (run, url) = try await LivePageBrowserTests.serving(["advertise", "profiles/room-2m.yaml", "-i", "virtual", "--web", "0"])
        defer { run.send(SIGKILL) }
        // The attacker's page, from another origin (Python's file server on another port, no
        // policy of its own): its script opens the run's socket and keeps what it reads.
        let attack = """
            <!doctype html><title>attack</title><script>
            window.stolen = []; window.refused = false;
            const s = new WebSocket("\(url.replacingOccurrences(of: "http://", with: "ws://"))live");
            s.onmessage = (e) => window.stolen.push(e.data);
            s.onclose = () => { window.refused = true; };
            </script>
            """
        let page = try BeaconExecutable.temporaryFile(named: "attack.html", contents: attack)
        let python = try Executables.require("python3", install: "apt-get install python3")
        let server = try BackgroundProgram(python, ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", (page as NSString).deletingLastPathComponent])
        defer { server.send(SIGKILL) }
        #expect(await server.waitForOutput(containing: "port "), "\(server.output)")
        let attackerPort = try #require(server.stdout.components(separatedBy: "port ").dropFirst().first?.prefix { $0.isNumber }, "\(server.output)")
        try await WebDriver.session { browser in
            try await browser.open("http://127.0.0.1:\(attackerPort)/attack.html")
            let refused = try await browser.waitUntil("return window.refused === true")
            let log = try await browser.consoleLog()
            #expect(refused, "the socket is refused: \(log)")
            #expect(log.contains { $0.contains("Unexpected response code: 403") }, "refused by the server, not by the browser: \(log)")
            #expect(try await browser.run("return window.stolen.length") as? Int == 0, "nothing read")
            // The page's own origin reads it.
            try await browser.open(url)
            #expect(try await browser.waitUntil(LivePageBrowserTests.onAir(LivePageBrowserTests.beacons)))
        }
        await LivePageBrowserTests.stop(run)
    }
}
