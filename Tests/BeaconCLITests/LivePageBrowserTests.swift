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
    static func url(of run: BackgroundProgram) async -> String? {
        var url: String?
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline, run.process.isRunning {
            url = run.stderr.components(separatedBy: "live page: ").dropFirst().first?.prefix { !$0.isWhitespace }.description
            if let url, !url.isEmpty { return url }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    @Test func pageFollowsTheFleetAndReconnectsAfterARestart() async throws {
        let original = try String(contentsOf: BeaconExecutable.packageRoot.appendingPathComponent("profiles/room-2m.yaml"), encoding: .utf8)
        let path = try BeaconExecutable.temporaryFile(named: "room.yaml", contents: original)
        let run = try BeaconExecutable.start(["advertise", path, "-i", "virtual", "--web", "0"])
        let url = try #require(await Self.url(of: run), "\(run.output)")
        #expect(url.hasPrefix("http://127.0.0.1:"), "bound to loopback by default: \(url)")

        let browser = try await WebDriver.start()
        do {
            try await browser.open(url)
            let shown = try await browser.waitUntil(Self.onAir(Self.beacons))
            let first = try await browser.body()
            #expect(shown, "\(first)\n\(run.output)")
            let rows = try await browser.run("return document.querySelectorAll('#table tbody tr[id^=beacon-]').length") as? Int
            #expect(rows == Self.beacons.count)
            let errors = try await browser.consoleLog().filter { $0.hasPrefix("SEVERE") }
            #expect(errors.isEmpty, "console: \(errors)")

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
        } catch {
            await browser.quit()
            throw error
        }
        await browser.quit()
    }
}
