// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing
import TestSupport

/// The live page of `play`, `cycle` and `scan` in a real browser (Debian's headless Chromium,
/// as LivePageBrowserTests): each beacon's element follows the run's events (a scenario's beacon
/// going off air and another coming on, the cycled beacon changing, the beacons a scan hears),
/// with no console errors, at a laptop's 1280×800 and (the scenario) a phone's 390×844. Every
/// wait is for the page, bounded only against hangs.
@Suite(.serialized) struct LivePageScenarioBrowserTests {
    /// Two beacons handing over, forever: `door` on air and `desk` off for 3 s, then the other
    /// way round for 3 s, and the pass starts again. Looping, so each state comes back whenever
    /// the browser joins: no wait depends on when the page loaded.
    static let handOver = """
        name: hand-over
        fleet:
          name: hall
          defaults: {uuid: 8F0C4E62-3B1A-4C7E-9D52-6A1F0B2C3D4E, major: 30, measured_power: -59, interval: 100}
          beacons:
            - {name: door, minor: 1, position: {x: 0, y: 0}}
            - {name: desk, minor: 2, position: {x: 3, y: 0}}
        hidden: [desk]
        steps:
          - {at: 3s, hide: door, show: desk}
        duration: 6s
        loop: true
        """

    /// True in the page when `on` has its table row and map marker on air (drawn in the on-air
    /// style) and `off` keeps both, off air since it was hidden (`hiddenAt` seconds into a pass
    /// of 6 s) and drawn in the off-air style: a scenario's hidden beacon leaves the plan but not
    /// the page, as it stays in the terminal's view. The title matches `title` (a regular
    /// expression) when one is given.
    static func handOver(on: String, off: String, title: String? = nil) -> String {
        let hiddenAt = off == "door" ? 3 : 0
        return """
        const state = (id) => { const e = document.getElementById(id); return e ? e.dataset.state : null; };
        const drawn = (id, style) => document.getElementById(id)?.classList.contains(style) === true;
        return state("beacon-\(on)") === "on air" && state("m-\(on)") === "on air" && drawn("m-\(on)", "onAir")
          && state("m-\(off)") === state("beacon-\(off)")
          && ((m) => m !== null && (Number(m[1]) - \(hiddenAt)) % 6 === 0)(/^off air since ([0-9]+) s$/.exec(state("beacon-\(off)")))
          && drawn("m-\(off)", "offAir")
          && document.querySelectorAll("#table tbody tr[id^=beacon-]").length === 2
          && \(title.map { "/\($0)/.test(document.getElementById(\"title\").textContent)" } ?? "true");
        """
    }

    /// The scenario's page follows two hand-overs (door → desk → door) with no console error, at
    /// the laptop's size and the phone's, and at the phone's nothing is wider than the screen.
    @Test(arguments: [nil, LivePageScreenSize(width: 390, height: 844)])
    func scenarioPageFollowsABeaconGoingOffAirAndAnotherComingOn(phone: LivePageScreenSize?) async throws {
        let path = try BeaconExecutable.temporaryFile(named: "hand-over.yaml", contents: Self.handOver)
        let (run, url) = try await LivePageBrowserTests.serving(["play", path, "-i", "virtual", "--web", "0"])
        defer { run.send(SIGKILL) }
        try await WebDriver.session(phone: phone.map { ($0.width, $0.height) }) { browser in
            try await browser.open(url)
            for (on, off) in [("door", "desk"), ("desk", "door"), ("door", "desk")] {
                let followed = try await browser.waitUntil(Self.handOver(on: on, off: off))
                let page = try await browser.body()
                #expect(followed, "\(on) on air, \(off) off air since it was hidden: \(page)\n\(run.output)")
            }
            // The title is the live view's: the scenario clock, the pass and the next step (not
            // advertise's "SIGHUP reloads": a scenario has nothing to reload).
            let clock = try await browser.waitUntil(Self.handOver(
                on: "door", off: "desk", title: #"^scenario [0-9.]+ s \(pass [0-9]+\) · next at [0-9]+ s: show desk; hide door — Ctrl-C stops$"#))
            let title = try await browser.run("return document.getElementById('title').textContent") as? String
            #expect(clock, "the page's title: \(title ?? "none")\n\(run.output)")
            if let phone {
                let width = try await browser.run("return window.innerWidth") as? Int
                #expect(width == phone.width, "the window is a phone's: \(width ?? 0)")
                let fits = try await browser.run(LivePageScreenTests.fitsTheWindow) as? Bool
                let sizes = try await browser.run("return [document.documentElement.scrollWidth, document.getElementById('table').getBoundingClientRect().right]")
                #expect(fits == true, "play at \(phone.width)×\(phone.height): scroll width and table right \(sizes ?? "?")")
            }
            try await LivePageBrowserTests.expectNoConsoleErrors(in: browser)
            await LivePageBrowserTests.stop(run)
        }
    }

    /// `cycle`'s page: one beacon of the profile on air at a time, the others not, and the one on
    /// air changes at the next turn.
    @Test func cyclePageShowsOneBeaconOnAirAndFollowsTheSwitch() async throws {
        let room = BeaconExecutable.packageRoot.appendingPathComponent("profiles/room-2m.yaml").path
        let beacons = LivePageBrowserTests.beacons
        let (run, url) = try await LivePageBrowserTests.serving(["cycle", room, "-i", "virtual", "--dwell", "1s", "--web", "0"])
        defer { run.send(SIGKILL) }
        /// The one beacon on air (in its row and on the map) while every other row is waiting for
        /// its turn, or null.
        let theOneOnAir = """
            const names = [\(beacons.map { "\"\($0)\"" }.joined(separator: ","))];
            const state = (id) => { const e = document.getElementById(id); return e ? e.dataset.state : null; };
            if (names.some((n) => document.getElementById("beacon-" + n) === null)) return null;
            const on = names.filter((n) => state("beacon-" + n) === "on air" || state("m-" + n) === "on air");
            const others = names.filter((n) => n !== on[0]);
            return on.length === 1 && state("beacon-" + on[0]) === "on air" && state("m-" + on[0]) === "on air"
              && others.every((n) => state("beacon-" + n) === "waiting") ? on[0] : null;
            """
        try await WebDriver.session { browser in
            try await browser.open(url)
            let shown = try await browser.waitUntil("return (() => { \(theOneOnAir) })() !== null;")
            let page = try await browser.body()
            #expect(shown, "every beacon's row, one on air: \(page)\n\(run.output)")
            let first = try #require(try await browser.run(theOneOnAir) as? String, "\(page)")
            let switched = try await browser.waitUntil("""
                const now = (() => { \(theOneOnAir) })();
                return now !== null && now !== "\(first)";
                """)
            let after = try await browser.body()
            #expect(switched, "another beacon on air after \(first): \(after)\n\(run.output)")
            try await LivePageBrowserTests.expectNoConsoleErrors(in: browser)
            await LivePageBrowserTests.stop(run)
        }
    }

    /// `scan`'s page lists the beacons an advertiser on the same virtual air sends: a row for
    /// each of the room's four identities (`beacon-UUID-MAJOR-MINOR`), each with its proximity
    /// (from (1, 1) the beacons are 1 m and √5 m away: near).
    @Test func scanPageListsTheBeaconsHeard() async throws {
        let air = try SharedAirTests.privateAir()
        defer { try? FileManager.default.removeItem(atPath: air) }
        let advertiser = try SharedAirTests.start(["advertise", SharedAirTests.room, "-i", "virtual", "--json"], air: air)
        defer { advertiser.send(SIGKILL) }
        let scan = try SharedAirTests.start(["scan", "-i", "virtual", "--at", "1,1", "--web", "0"], air: air)
        defer { scan.send(SIGKILL) }
        let url = try #require(await LivePageBrowserTests.url(of: scan), "\(scan.output)")
        let rows = (0...3).map { "beacon-\(SharedAirTests.uuid)-1-\($0)" }
        try await WebDriver.session { browser in
            try await browser.open(url)
            let listed = try await browser.waitUntil("""
                return [\(rows.map { "\"\($0)\"" }.joined(separator: ","))].every((id) => document.getElementById(id)?.dataset.state === "near")
                  && document.querySelectorAll("#table tbody tr[id^=beacon-]").length === \(rows.count);
                """)
            let page = try await browser.body()
            #expect(listed, "the room's four beacons listed: \(page)\n\(scan.output)\n\(advertiser.output)")
            try await LivePageBrowserTests.expectNoConsoleErrors(in: browser)
            await LivePageBrowserTests.stop(scan)
        }
        await LivePageBrowserTests.stop(advertiser)
    }
}

/// A screen size for a parameterised browser test (`nil`: the laptop's 1280×800).
struct LivePageScreenSize: Sendable, CustomTestStringConvertible {
    var width: Int
    var height: Int
    var testDescription: String { "\(width)×\(height)" }
}
