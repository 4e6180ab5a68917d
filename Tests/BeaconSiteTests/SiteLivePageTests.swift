// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing
import TestSupport

/// `beacon site SITE --web` with two `beacon agent`s on a real Mosquitto, seen in headless
/// Chromium: each beacon's row and map label say which radio and advertising set carries it, and
/// the page follows the controller's re-placements, after SIGHUP (an edited site file) and after
/// a host dies (failover). Every wait is for the page, bounded only against hangs.
@Suite(.serialized) struct SiteLivePageTests {
    static let uuid = ControllerTests.uuid

    /// True in the page once `name`'s row says it is on air on `radio` on some set, and its map
    /// label says the same.
    static func carried(_ name: String, by radio: String) -> String {
        """
        (() => {
          const row = document.getElementById("beacon-\(name)");
          if (!row || row.dataset.state !== "on air") return false;
          const cells = [...row.cells].map((c) => c.textContent);
          if (cells[0] !== "\(radio)" || cells[1] !== "\(name)" || !/^set \\d+$/.test(cells[2])) return false;
          const label = "\(name) · \(radio) " + cells[2];
          return [...document.querySelectorAll("#labels text")].some((t) => t.textContent === label);
        })()
        """
    }

    /// The beacon marker `name`'s position on the plan, metres.
    static func at(_ name: String, _ x: Double, _ y: Double) -> String {
        "(() => { const m = document.getElementById('m-\(name)'); return m !== null && Number(m.dataset.x) === \(x) && Number(m.dataset.y) === \(y); })()"
    }

    /// The cells of row `id` (`beacon-ID`), for a failure's message.
    static func cells(_ id: String) -> String {
        "const r = document.getElementById('beacon-\(id)'); return r ? [...r.cells].map((c) => c.textContent).join(' | ') : 'no row';"
    }

    @Test func thePageShowsEachBeaconsRadioAndSetAndFollowsSIGHUPAndFailover() async throws {
        let site = try await SiteFixture(hosts: ["pi-a", "pi-b"], radios: ControllerTests.radios, beacons: ControllerTests.beacons)
        let controller = try site.start(["site", site.siteFile, "--web", "0", "--json"], as: SiteFixture.controller)
        let a = try site.start(["agent", "--site", site.siteFile, "--host", "pi-a", "--json"], as: SiteFixture.hostUser("pi-a"))
        let b = try site.start(["agent", "--site", site.siteFile, "--host", "pi-b", "--json"], as: SiteFixture.hostUser("pi-b"))
        let all = [controller, a, b]
        defer { for p in all { p.send(SIGKILL) } }
        func output() -> String { all.map(\.output).joined(separator: "\n") }
        let url = try #require(await controller.livePageURL(), "\(output())")
        /// Waits (60 s at most, against hangs) for the controller to say each beacon is on air on
        /// its radio; the page is then checked within the browser's own bound.
        func controllerSays(_ carried: [(String, String)]) async -> Bool {
            await controller.waitForOutput(timeout: .seconds(60)) { _ in
                carried.allSatisfy { ControllerTests.onAir(controller, "8b0c3b1e-6e2a-4c55-9b8f-3d1a2e4f5061-7-\($0.0)", on: $0.1) }
            }
        }
        #expect(await controllerSays([("1", "pi-a/virtual"), ("2", "pi-b/virtual")]), "\(output())")

        try await WebDriver.session { browser in
            try await browser.open(url)
            let first = try await browser.waitUntil("return \(Self.carried("door", by: "pi-a/virtual")) && \(Self.carried("desk", by: "pi-b/virtual"));")
            let page = try await browser.body()
            #expect(first, "\(page)\n\(output())")

            // The site edited: a shorter reach sends the desk, moved west, to pi-a; a shelf joins
            // on pi-b. SIGHUP: the controller places them again, and the page follows.
            let text = try String(contentsOfFile: site.siteFile, encoding: .utf8)
            let edited = text.replacingOccurrences(of: "max_distance: 50", with: "max_distance: 10")
                .replacingOccurrences(of: "minor: 2, position: {x: 9, y: 0}", with: "minor: 2, position: {x: -5, y: 0}")
                + "  - {name: shelf, uuid: \(Self.uuid), major: 7, minor: 3, position: {x: 6, y: 0}}\n"
            #expect(edited.contains("x: -5") && edited.contains("max_distance: 10"), "the fixture's site file changed: \(text)")
            try edited.write(toFile: site.siteFile, atomically: true, encoding: .utf8)
            let before = ControllerTests.events(controller).count
            controller.send(SIGHUP)
            let moved = await controller.waitForOutput(timeout: .seconds(60)) { _ in
                let after = ControllerTests.events(controller).dropFirst(before)
                return after.contains { $0["event"] as? String == "beacon" && $0["name"] as? String == "desk" && $0["radio"] as? String == "pi-a/virtual" && $0["on_air"] as? Bool == true }
                    && after.contains { $0["event"] as? String == "beacon" && $0["name"] as? String == "shelf" && $0["on_air"] as? Bool == true }
            }
            #expect(moved, "\(output())")
            let replaced = try await browser.waitUntil("""
                return \(Self.carried("desk", by: "pi-a/virtual")) && \(Self.at("desk", -5, 0)) && \(Self.carried("shelf", by: "pi-b/virtual"))
                  && \(Self.carried("door", by: "pi-a/virtual"))
                  && document.getElementById("beacon-radio-pi-b-virtual").cells[1].textContent === "1 of 1 on air";
                """)
            let desk = try await browser.run(Self.cells("desk"))
            let afterEdit = try await browser.body()
            #expect(replaced, "desk: \(desk ?? "?")\n\(afterEdit)\n\(output())")

            // pi-b dies: its Last Will says offline, the shelf (in reach of pi-a) goes to pi-a.
            b.send(SIGKILL)
            #expect(await controllerSays([("3", "pi-a/virtual")]), "\(output())")
            let failedOver = try await browser.waitUntil("""
                return \(Self.carried("shelf", by: "pi-a/virtual"))
                  && document.getElementById("beacon-radio-pi-b-virtual").dataset.state === "offline"
                  && document.getElementById("beacon-radio-pi-a-virtual").cells[1].textContent === "3 of 3 on air"
                  && [...document.querySelectorAll("#labels text")].some((t) => t.textContent === "pi-b/virtual (unavailable)");
                """)
            let shelf = try await browser.run(Self.cells("shelf"))
            let last = try await browser.body()
            #expect(failedOver, "shelf: \(shelf ?? "?")\n\(last)\n\(output())")
            let errors = try await browser.consoleLog().filter { $0.hasPrefix("SEVERE") }
            #expect(errors.isEmpty, "console: \(errors)")
        }
        // The controller's --json lines, the new placed events and the beacons' sets included,
        // match their schema.
        let verdict = try SiteSchemaTests.validateLines([("site-event.schema.json", controller.stdout)])
        #expect(verdict.status == 0, "\(verdict)")
        #expect(ControllerTests.events(controller).contains { $0["event"] as? String == "placed" && $0["placed"] as? Int == 3 }, "\(controller.output)")
        controller.send(SIGTERM)
        #expect(await controller.waitForExit(timeout: .seconds(10)) == 0, "\(controller.output)")
    }
}
