// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing
import TestSupport

/// `advertise --web` seen in a real browser (Debian's headless Chromium through chromedriver):
/// the page loads without console errors, shows one element per beacon with its state, follows a
/// beacon going off air, and picks the state up again after the server restarts. Every wait is
/// for an event in the page, bounded only against hangs.
@Suite(.serialized) struct LivePageBrowserTests {
    static let beacons = ["room-west", "room-north", "room-east", "room-south"]

    /// True in the page once every named beacon has a table row and a map marker on air.
    static func onAir(_ names: [String]) -> String {
        let list = names.map { "\"\($0)\"" }.joined(separator: ",")
        return """
            return [\(list)].every((n) => {
              const row = document.getElementById("beacon-" + n), marker = document.getElementById("m-" + n);
              return row !== null && marker !== null && row.dataset.state === "on air" && marker.dataset.state === "on air";
            });
            """
    }

    /// Waits for `live page: URL` on standard error.
    static func url(of run: BackgroundProgram) async -> String? { await run.livePageURL() }

    /// `beacon arguments…` (with `--web 0`) started, and its page's URL; the run is killed when
    /// it never says one.
    static func serving(_ arguments: [String]) async throws -> (run: BackgroundProgram, url: String) {
        let run = try BeaconExecutable.start(arguments)
        guard let url = await url(of: run) else {
            run.send(SIGKILL)
            throw WebDriver.Failure(description: "no live page URL from beacon \(arguments.joined(separator: " ")):\n\(run.output)")
        }
        return (run, url)
    }

    /// Expects no error in the browser's console since the last look (a script that failed, a
    /// socket refused).
    static func expectNoConsoleErrors(in browser: WebDriver, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let errors = try await browser.consoleLog().filter { $0.hasPrefix("SEVERE") }
        #expect(errors.isEmpty, "console: \(errors)", sourceLocation: sourceLocation)
    }

    /// Stops `run` with SIGINT and expects it to end with status 0.
    static func stop(_ run: BackgroundProgram) async {
        run.send(SIGINT)
        #expect(await run.waitForExit(timeout: .seconds(60)) == 0, "\(run.output)")
    }

    @Test func pageFollowsTheFleetAndReconnectsAfterARestart() async throws {
        let original = try String(contentsOf: BeaconExecutable.packageRoot.appendingPathComponent("profiles/room-2m.yaml"), encoding: .utf8)
        let path = try BeaconExecutable.temporaryFile(named: "room.yaml", contents: original)
        let run = try BeaconExecutable.start(["advertise", path, "-i", "virtual", "--web", "0"])
        let url = try #require(await Self.url(of: run), "\(run.output)")
        #expect(url.hasPrefix("http://127.0.0.1:"), "bound to loopback by default: \(url)")

        try await WebDriver.session { browser in
            try await browser.open(url)
            let shown = try await browser.waitUntil(Self.onAir(Self.beacons))
            let first = try await browser.body()
            #expect(shown, "\(first)\n\(run.output)")
            let rows = try await browser.run("return document.querySelectorAll('#table tbody tr[id^=beacon-]').length") as? Int
            #expect(rows == Self.beacons.count)
            try await Self.expectNoConsoleErrors(in: browser)

            // A reload without room-south: its row and marker go, the others stay on air.
            let withoutSouth = original.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains("room-south") }.joined(separator: "\n")
            try Data(withoutSouth.utf8).write(to: URL(fileURLWithPath: path))
            run.send(SIGHUP)
            let gone = try await browser.waitUntil("""
                return document.getElementById("beacon-room-south") === null && document.getElementById("m-room-south") === null;
                """)
            let page = try await browser.body()
            #expect(gone, "\(page)\n\(run.output)")
            let othersStay = try await browser.waitUntil(Self.onAir(Array(Self.beacons.dropLast())))
            #expect(othersStay)

            // The server goes away with the run (a stop signal), the page says so; a new run on
            // the same port with all four beacons is picked up by the same page.
            run.send(SIGTERM)
            let stopped = await run.waitForExit(timeout: .seconds(60))
            #expect(stopped == 0, "\(run.output)")
            let offline = try await browser.waitUntil("return document.getElementById('connection').className === 'offline'")
            #expect(offline)
            let port = String(url.split(separator: ":").last?.prefix { $0.isNumber } ?? "")
            try Data(original.utf8).write(to: URL(fileURLWithPath: path))
            let again = try BeaconExecutable.start(["advertise", path, "-i", "virtual", "--web", port])
            let sameURL = await Self.url(of: again)
            #expect(sameURL == url, "\(again.output)")
            let reconnected = try await browser.waitUntil(Self.onAir(Self.beacons))
            let last = try await browser.body()
            #expect(reconnected, "\(last)\n\(again.output)")
            again.send(SIGINT)
            let status = await again.waitForExit(timeout: .seconds(60))
            #expect(status == 0, "\(again.output)")
        }
    }

    /// The estimate and the true position on the page's map, metres (their markers' data-x and
    /// data-y), or nil while either is missing.
    static let positions = """
        const at = (style) => { const g = document.querySelector("#markers g." + style); return g ? [Number(g.dataset.x), Number(g.dataset.y)] : null; };
        const e = at("estimate"), t = at("truth");
        return e && t ? [e[0], e[1], t[0], t[1]] : null;
        """

    @Test func walkPageShowsTheEstimateNearTheWalkerAsItMoves() async throws {
        let room = BeaconExecutable.packageRoot.appendingPathComponent("profiles/room-2m.yaml").path
        let (run, url) = try await Self.serving(["walk", room, "-i", "virtual", "--path", "square", "--loop", "--duration", "60s", "--web", "0"])
        defer { run.send(SIGKILL) }
        try await WebDriver.session { browser in
            try await browser.open(url)
            let drawn = try await browser.waitUntil("""
                return document.querySelector("#markers g.estimate") !== null && document.querySelector("#markers g.truth") !== null
                  && document.querySelectorAll("#circles circle.ranging").length === \(Self.beacons.count);
                """)
            let page = try await browser.body()
            #expect(drawn, "\(page)\n\(run.output)")
            let statesShown = try await browser.waitUntil(Self.onAir(Self.beacons))
            #expect(statesShown, "the board's states on the page")
            let first = try #require(await browser.run(Self.positions) as? [Double])
            // The map's SVG element is tagged: a fix moves the layer's shapes, the map stays (not sent again).
            _ = try await browser.run("document.querySelector('#map svg').dataset.tagged = 'yes'")
            // The walker moves on (half a metre: the square's next side), and the estimate with it.
            let moved = try await browser.waitUntil("""
                const p = (() => { \(Self.positions) })();
                return p !== null && Math.hypot(p[2] - \(first[2]), p[3] - \(first[3])) > 0.5;
                """)
            #expect(moved, "\(run.output)")
            let kept = try await browser.run("return document.querySelector('#map svg').dataset.tagged === 'yes'") as? Bool
            #expect(kept == true, "the map was drawn again for a fix")
            let second = try #require(await browser.run(Self.positions) as? [Double])
            for p in [first, second] {
                // The receiver's ranges are the walk's measured powers quantised to whole dBm: a few centimetres off.
                #expect(hypot(p[0] - p[2], p[1] - p[3]) < 0.3, "estimate (\(p[0]), \(p[1])) against the walker at (\(p[2]), \(p[3]))")
            }
            try await Self.expectNoConsoleErrors(in: browser)
            await Self.stop(run)
        }
    }

    /// A site of two radios on cables of this host (no broker), a beacon next to each.
    static let hall = TwoRadioSite.yaml(name: "hall", major: 9)

    @Test func sitePageShowsRadiosOnlineAndTheirBeaconsOnAir() async throws {
        let air = try SharedAirTests.privateAir()
        defer { try? FileManager.default.removeItem(atPath: air) }
        let siteFile = try BeaconExecutable.temporaryFile(named: "hall.yaml", contents: Self.hall)
        let site = try SharedAirTests.start(["site", siteFile, "--web", "0"], air: air)
        defer { site.send(SIGKILL) }
        let url = try #require(await Self.url(of: site), "\(site.output)")
        try await WebDriver.session { browser in
            try await browser.open(url)
            let shown = try await browser.waitUntil("""
                const state = (id) => { const e = document.getElementById(id); return e ? e.dataset.state : null; };
                return ["beacon-radio-box-virtual-a", "m-radio-box-virtual-a", "beacon-radio-box-virtual-b"].every((id) => state(id) === "online")
                  && state("m-door") === "on air" && state("m-desk") === "on air"
                  && document.querySelector("#m-radio-box-virtual-a").classList.contains("radio");
                """)
            let page = try await browser.body()
            #expect(shown, "\(page)\n\(site.output)")
            try await Self.expectNoConsoleErrors(in: browser)
            await Self.stop(site)
        }
    }

    @Test func locateLivePageShowsEachFixNextToWhereTheReceiverStands() async throws {
        let room = BeaconExecutable.packageRoot.appendingPathComponent("profiles/room-2m.yaml").path
        let air = try SharedAirTests.privateAir()
        defer { try? FileManager.default.removeItem(atPath: air) }
        let advertiser = try SharedAirTests.start(["advertise", room, "-i", "virtual", "--json"], air: air)
        defer { advertiser.send(SIGKILL) }
        #expect(await advertiser.waitForOutput(timeout: .seconds(60)) { $0.contains("\"event\":\"on_air\",\"beacon\":\"room-south\"") },
                "\(advertiser.output)")
        let locate = try SharedAirTests.start(["locate", room, "--live", "-i", "virtual", "--at", "0.5,0.2", "--duration", "60s", "--web", "0"], air: air)
        defer { locate.send(SIGKILL) }
        let url = try #require(await Self.url(of: locate), "\(locate.output)")
        try await WebDriver.session { browser in
            try await browser.open(url)
            // A fix from all four beacons: four ranging circles, each row ranged.
            let fixed = try await browser.waitUntil("""
                return document.querySelectorAll("#circles circle.ranging").length === \(Self.beacons.count)
                  && \(Self.beacons.map { "document.getElementById('beacon-\($0)')?.dataset.state === 'ranged'" }.joined(separator: " && "));
                """)
            let page = try await browser.body()
            #expect(fixed, "\(page)\n\(locate.output)")
            let p = try #require(await browser.run(Self.positions) as? [Double])
            #expect(p[2] == 0.5 && p[3] == 0.2, "the true position where --at put the receiver: \(p)")
            #expect(hypot(p[0] - p[2], p[1] - p[3]) < 0.3, "the estimate (\(p[0]), \(p[1])) next to it")
            await Self.stop(locate)
        }
        await Self.stop(advertiser)
    }
}

