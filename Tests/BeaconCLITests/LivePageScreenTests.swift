// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing
import TestSupport

/// The live page as drawn: markers at the pixels the plan's geometry says (a screenshot read
/// back), a phone's 390×844 screen with nothing wider than it, and several viewers at once that
/// all follow a beacon going off air. Every wait is for the page, bounded only against hangs.
@Suite(.serialized) struct LivePageScreenTests {
    static let room = BeaconExecutable.packageRoot.appendingPathComponent("profiles/room-2m.yaml").path
    static let beacons = LivePageBrowserTests.beacons

    /// Each marker's centre on the screen (CSS pixels, the screenshot's at scale 1) with its plan
    /// position in metres: `{name: [screenX, screenY, metresX, metresY]}` for the beacons
    /// (`m-NAME`) and the estimate.
    static let markerCentres = """
        const out = {};
        for (const g of document.querySelectorAll("#markers g")) {
          const shape = g.querySelector("circle");
          if (!shape) continue;
          const name = g.id ? g.id.slice(2) : (g.classList.contains("estimate") ? "estimate" : null);
          if (name === null) continue;
          const svg = shape.ownerSVGElement, p = svg.createSVGPoint();
          p.x = Number(shape.getAttribute("cx")); p.y = Number(shape.getAttribute("cy"));
          const s = p.matrixTransform(shape.getScreenCTM());
          out[name] = [s.x, s.y, Number(g.dataset.x), Number(g.dataset.y)];
        }
        return out;
        """

    @Test func markersAreAtThePixelsThePlanSays() async throws {
        // Standing still at (0.3, 0.2): the page does not change between the DOM read and the screenshot.
        let (run, url) = try await LivePageBrowserTests.serving(["walk", Self.room, "-i", "virtual", "--path", "still", "--duration", "60s", "--web", "0"])
        defer { run.send(SIGKILL) }
        try await WebDriver.session { browser in
            try await browser.open(url)
            let drawn = try await browser.waitUntil("""
                return document.querySelector("#markers g.estimate") !== null
                  && ["room-west", "room-north", "room-east", "room-south"].every((n) => { const m = document.getElementById("m-" + n); return m && m.dataset.state === "on air"; });
                """)
            let page = try await browser.body()
            #expect(drawn, "\(page)\n\(run.output)")
            let centres = try #require(await browser.run(Self.markerCentres) as? [String: [Double]])
            let image = try await browser.screenshot()
            let west = try #require(centres["room-west"]), east = try #require(centres["room-east"])
            let north = try #require(centres["room-north"]), south = try #require(centres["room-south"])
            let estimate = try #require(centres["estimate"])
            // One scale for both axes, y up on the plan and down on the screen.
            let scale = (east[0] - west[0]) / (east[2] - west[2])
            #expect(scale > 20, "the 2 m room is drawn large: \(scale) px/m")
            #expect(abs((south[1] - north[1]) / (north[3] - south[3]) - scale) < 0.5, "\(centres)")
            #expect(abs(east[1] - west[1]) < 0.5 && abs(north[0] - south[0]) < 0.5, "\(centres)")
            // Every marker where its metres put it, from room-west.
            for (name, c) in centres {
                let x = west[0] + (c[2] - west[2]) * scale, y = west[1] - (c[3] - west[3]) * scale
                #expect(abs(c[0] - x) < 1 && abs(c[1] - y) < 1, "\(name) at (\(c[0]), \(c[1])), the plan says (\(x), \(y))")
            }
            // And the pixels there are the markers' colours: on-air green, the estimate's blue.
            for name in Self.beacons {
                let c = try #require(centres[name])
                let pixel = image.pixel(x: Int(c[0].rounded()), y: Int(c[1].rounded()))
                #expect(pixel.isNear(0x1a, 0x98, 0x50, tolerance: 40), "\(name) at (\(c[0]), \(c[1])): \(pixel)")
            }
            let pixel = image.pixel(x: Int(estimate[0].rounded()), y: Int(estimate[1].rounded()))
            #expect(pixel.isNear(0x21, 0x66, 0xac, tolerance: 40), "the estimate at (\(estimate[0]), \(estimate[1])): \(pixel)")
            #expect(hypot(estimate[2] - 0.3, estimate[3] - 0.2) < 0.3, "the estimate next to where the walker stands: \(estimate)")
            await LivePageBrowserTests.stop(run)
        }
    }

    /// True when nothing on the page is wider than the window and every table cell shows its
    /// text whole, at a font of 10 px or more.
    static let fitsTheWindow = """
        const width = window.innerWidth;
        if (document.documentElement.scrollWidth > width) return false;
        const table = document.getElementById("table");
        if (table.tBodies[0].rows.length === 0 || table.getBoundingClientRect().right > width) return false;
        return [...table.querySelectorAll("td, th")].every((c) =>
          c.scrollWidth <= c.clientWidth + 1 && parseFloat(getComputedStyle(c).fontSize) >= 10);
        """

    /// The map as the window draws it, CSS pixels: `[labels, smallest label text's height,
    /// markers, smallest marker's width or height]` (the text's box, ascent to descent; a
    /// marker's shape without its stroke).
    static let mapLegibility = """
        const texts = [...document.querySelectorAll("#map #labels text")].map((t) => t.getBoundingClientRect().height);
        const shapes = [...document.querySelectorAll("#map #markers g > :first-child")].map((m) => {
          const r = m.getBoundingClientRect(); return Math.min(r.width, r.height); });
        return [texts.length, Math.min(...texts), shapes.length, Math.min(...shapes)];
        """

    /// Expects the map's labels at least 9 px high and its markers 8 px across, whatever the
    /// window's width (a map shrunk whole to a phone's drew them 3 px).
    static func expectLegibleMap(_ browser: WebDriver, _ what: String) async throws {
        let sizes = try #require(await browser.run(mapLegibility) as? [Double], "\(what): no map")
        #expect(sizes[0] > 0 && sizes[1] >= 9, "\(what): labels (count, smallest height px): \(sizes)")
        #expect(sizes[2] > 0 && sizes[3] >= 7.95, "\(what): markers (count, smallest size px): \(sizes)")
    }

    @Test func aPhonesScreenHoldsTheWholePage() async throws {
        try await WebDriver.session(phone: (390, 844)) { browser in
            // The walk's table (positions, ranges) and advertise's (adapters, sets, addresses).
            for arguments in [["walk", Self.room, "-i", "virtual", "--path", "square", "--loop", "--duration", "60s", "--web", "0"],
                              ["advertise", Self.room, "-i", "virtual", "--web", "0"]] {
                let (run, url) = try await LivePageBrowserTests.serving(arguments)
                defer { run.send(SIGKILL) }
                try await browser.open(url)
                let shown = try await browser.waitUntil(LivePageBrowserTests.onAir(Self.beacons))
                let page = try await browser.body()
                #expect(shown, "\(arguments[0]): \(page)")
                let width = try await browser.run("return window.innerWidth") as? Int
                #expect(width == 390, "the window is a phone's: \(width ?? 0)")
                let fits = try await browser.run(Self.fitsTheWindow) as? Bool
                let sizes = try await browser.run("return [document.documentElement.scrollWidth, document.getElementById('table').getBoundingClientRect().right]")
                #expect(fits == true, "\(arguments[0]) at 390×844: scroll width and table right \(sizes ?? "?")")
                try await Self.expectLegibleMap(browser, arguments[0])
                await LivePageBrowserTests.stop(run)
            }
        }
    }

    /// True when the map's box is whole inside the window's width (the map scrolls inside it
    /// rather than shrink below legible), with a height, and the table has rows and starts
    /// inside the window.
    static let mapAndTableVisible = """
        const width = window.innerWidth, height = window.innerHeight;
        if (document.querySelector("#map svg")) {
          const m = document.getElementById("map").getBoundingClientRect();
          if (m.left < 0 || m.right > width || m.height < 40 || m.top >= height) return false;
        }
        const t = document.getElementById("table").getBoundingClientRect();
        return document.getElementById("table").tBodies[0].rows.length > 0 && t.left >= 0 && t.top < height && t.height > 0;
        """

    /// The first table row inside the window: its box (CSS pixels) and its text colour (`[x, y,
    /// width, height, r, g, b]`), to find its text on a screenshot.
    static let firstRow = """
        const row = document.getElementById("table").tBodies[0].rows[0], r = row.cells[0].getBoundingClientRect();
        const c = getComputedStyle(row.cells[0]).color.match(/\\d+/g).map(Number);
        return [r.left, r.top, r.width, r.height, c[0], c[1], c[2]];
        """

    /// Whether `image` has a pixel of the colour (r, g, b) inside the box (the text of a cell).
    static func hasText(_ image: PNGImage, in box: [Double]) -> Bool {
        let (x0, y0) = (max(0, Int(box[0])), max(0, Int(box[1])))
        let (x1, y1) = (min(image.width - 1, Int(box[0] + box[2])), min(image.height - 1, Int(box[1] + box[3])))
        guard x0 < x1, y0 < y1 else { return false }
        for y in y0...y1 {
            for x in x0...x1 where image.pixel(x: x, y: y).isNear(Int(box[4]), Int(box[5]), Int(box[6]), tolerance: 60) { return true }
        }
        return false
    }

    @Test func aPhonesScreenHoldsTheSiteAndScanPages() async throws {
        let air = try SharedAirTests.privateAir()
        defer { try? FileManager.default.removeItem(atPath: air) }
        // The site page: two radios of this host, a beacon next to each (their rows name the
        // radio and the set); the scan page: the room's four beacons heard.
        let siteFile = try BeaconExecutable.temporaryFile(named: "hall.yaml", contents: LivePageBrowserTests.hall)
        let advertiser = try SharedAirTests.start(["advertise", Self.room, "-i", "virtual", "--json"], air: air)
        defer { advertiser.send(SIGKILL) }
        // Each run says on standard output when it is ready (both radios on air; a ranging of all
        // four beacons), within 60 s (a hang bound); the page then has its own bound.
        let ranging: @Sendable (String) -> Bool = { out in
            SharedAirTests.jsonLines(out).contains { $0["event"] as? String == "ranging" && ($0["beacons"] as? [Any])?.count == Self.beacons.count }
        }
        let pages: [(arguments: [String], ready: @Sendable (String) -> Bool, shown: String)] = [
            (["site", siteFile, "--web", "0"], { $0.components(separatedBy: " on air\n").count == 3 }, "return ['door', 'desk'].every((n) => document.getElementById('m-' + n)?.dataset.state === 'on air'"
                + " && /^set \\d+$/.test(document.getElementById('beacon-' + n)?.cells[2].textContent));"),
            (["scan", "-i", "virtual", "--at", "0.5,0.5", "--duration", "60s", "--json", "--web", "0"], ranging,
             "return document.querySelectorAll('#table tbody tr[id^=beacon-]').length === \(Self.beacons.count);"),
        ]
        try await WebDriver.session(phone: (390, 844)) { browser in
            for (arguments, ready, shown) in pages {
                let run = try SharedAirTests.start(arguments, air: air)
                defer { run.send(SIGKILL) }
                let url = try #require(await run.livePageURL(), "\(run.output)")
                #expect(await run.waitForOutput(timeout: .seconds(60), where: ready), "\(run.output)\n\(advertiser.output)")
                try await browser.open(url)
                let drawn = try await browser.waitUntil(shown)
                let page = try await browser.body()
                #expect(drawn, "\(arguments[0]): \(page)\n\(run.output)\n\(advertiser.output)")
                let fits = try await browser.run(Self.fitsTheWindow) as? Bool
                let sizes = try await browser.run("return [document.documentElement.scrollWidth, document.getElementById('table').getBoundingClientRect().right]")
                #expect(fits == true, "\(arguments[0]) at 390×844: scroll width and table right \(sizes ?? "?")")
                let visible = try await browser.run(Self.mapAndTableVisible) as? Bool
                let boxes = try await browser.run("const m = document.getElementById('map'); return JSON.stringify([m.getBoundingClientRect(), document.querySelector('#map svg')?.getBoundingClientRect(), document.getElementById('table').getBoundingClientRect()])")
                #expect(visible == true, "\(arguments[0]): the map and the table on the phone's screen (map, table): \(boxes ?? "?")")
                if arguments[0] == "site" {
                    try await Self.expectLegibleMap(browser, "site")
                    // Legible, the map is wider than the phone: its box scrolls, as a reader
                    // would, to the desk at the plan's east end (the door stays in view).
                    _ = try await browser.run("document.getElementById('m-desk').scrollIntoView({block: 'nearest', inline: 'nearest'}); return true")
                }
                let image = try await browser.screenshot()
                #expect(image.width == 390, "\(arguments[0]): a screenshot of the phone's screen: \(image.width)×\(image.height)")
                // The first row's text is drawn where its box is, in its colour.
                let row = try #require(await browser.run(Self.firstRow) as? [Double])
                #expect(Self.hasText(image, in: row), "\(arguments[0]): no text of the first row in \(row)")
                if arguments[0] == "site" {
                    // The beacons on air where the plan's metres put them: one scale, y the same,
                    // and the on-air green within a pixel of each centre.
                    let centres = try #require(await browser.run(Self.markerCentres) as? [String: [Double]])
                    let door = try #require(centres["door"]), desk = try #require(centres["desk"])
                    let scale = (desk[0] - door[0]) / (desk[2] - door[2])
                    #expect(scale > 10 && abs(desk[1] - door[1]) < 0.5, "\(centres)")
                    for (name, c) in [("door", door), ("desk", desk)] {
                        #expect(c[0] > 0 && c[0] < 390 && c[1] > 0 && c[1] < 844, "\(name) on the screen: \(c)")
                        let near = (-1...1).flatMap { dy in (-1...1).map { dx in image.pixel(x: Int(c[0]) + dx, y: Int(c[1]) + dy) } }
                        #expect(near.contains { $0.isNear(0x1a, 0x98, 0x50, tolerance: 40) }, "\(name) at (\(c[0]), \(c[1])): \(near)")
                    }
                }
                await LivePageBrowserTests.stop(run)
            }
        }
    }

    @Test func threeViewersAtOnceFollowABeaconGoingOffAir() async throws {
        let original = try String(contentsOfFile: Self.room, encoding: .utf8)
        let path = try BeaconExecutable.temporaryFile(named: "room.yaml", contents: original)
        let (run, url) = try await LivePageBrowserTests.serving(["advertise", path, "-i", "virtual", "--web", "0"])
        defer { run.send(SIGKILL) }
        try await WebDriver.session { browser in
            // Three viewers: the page and two frames of it (same origin, so the test reads
            // into them), each with its own socket.
            try await browser.open(url)
            _ = try await browser.run("""
                for (let i = 1; i <= 2; i++) {
                  const f = document.createElement("iframe");
                  f.src = location.href; f.width = 400; f.height = 300; f.id = "viewer" + i;
                  document.body.appendChild(f);
                }
                """)
            /// True when `expression` holds in every viewer's document.
            func inEveryViewer(_ expression: String) -> String {
                """
                const frames = [1, 2].map((i) => document.getElementById("viewer" + i));
                if (frames.some((f) => !f || !f.contentDocument)) return false;
                const check = (document) => (\(expression));
                return check(window.document) && frames.every((f) => check(f.contentDocument));
                """
            }
            let south = "document.getElementById('m-room-south')"
            let allOn = try await browser.waitUntil(inEveryViewer("\(south) !== null && \(south).dataset.state === 'on air'"))
            #expect(allOn, "\(run.output)")
            // room-south leaves the fleet (a reload): off air, gone from every viewer's map.
            let withoutSouth = original.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.contains("room-south") }.joined(separator: "\n")
            try Data(withoutSouth.utf8).write(to: URL(fileURLWithPath: path))
            run.send(SIGHUP)
            let gone = try await browser.waitUntil(inEveryViewer("\(south) === null && document.getElementById('beacon-room-south') === null"))
            #expect(gone, "\(run.output)")
            await LivePageBrowserTests.stop(run)
        }
    }
}
