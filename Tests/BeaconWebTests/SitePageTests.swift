// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconMaps
import BeaconSite
import BeaconWeb
import Testing
import TestSupport

/// The page of `beacon site`, fed the controller's or a local run's events: radios online or
/// not, beacons on or off air, on the map and in the table.
@Suite struct SitePageTests {
    static func site() throws -> (Site, SitePlacement) {
        let site = try SiteLoader.load(contentsOf: PackageRoot.path("examples/site-lab.yaml"))
        return (site, SitePlacer(maximumDistance: site.maximumDistance).place(site.beacons, on: site.radios))
    }

    @Test func hostsComingOnlineAndGoingAwayShowOnTheRadios() throws {
        let (site, placement) = try Self.site()
        let page = SitePage(site: site, placement: placement, title: "lab")
        let before = page.snapshot()
        #expect(before.rows.map { $0.cells[1] } == Array(repeating: "waiting", count: site.radios.count))
        #expect(before.svg.components(separatedBy: "<g class=\"radioOffline\"").count - 1 == site.radios.count)

        page.record(SiteController.Event.hostOnline("pi-west"))
        let carried = try #require(placement.assignments(on: site.radios[0].id).first)
        page.record(SiteController.Event.beacon(id: carried.id, name: carried.beacon.name, onAir: true, radio: carried.radio, reason: nil))
        let west = page.snapshot()
        let states = Dictionary(west.beacons.map { ($0.id, $0.state) }, uniquingKeysWith: { a, _ in a })
        #expect(states[MapScene.radioID(site.radios[0].id)] == "online")
        #expect(states[MapScene.radioID(site.radios[2].id)] == "waiting")
        #expect(states[carried.beacon.name] == "on air")
        #expect(west.svg.contains("<g class=\"radio\" id=\"m-\(MapScene.radioID(site.radios[0].id))\""))
        #expect(west.summary.hasPrefix("2 of 3 radios online, 1 of \(placement.assignments.count) beacons on air"), "\(west.summary)")

        page.record(SiteController.Event.hostOffline("pi-west"))
        page.record(SiteController.Event.beacon(id: carried.id, name: carried.beacon.name, onAir: false, radio: nil, reason: "host offline"))
        let gone = page.snapshot()
        #expect(gone.rows[0].cells[1] == "offline" && gone.rows[0].status == "problem")
        #expect(gone.beacons.first { $0.id == carried.beacon.name }?.state == "off air")
        #expect(gone.messages.last == "\(carried.beacon.name) off air: host offline")
    }

    @Test func aLocalRunsRadioPutsItsBeaconsOnAirOrFails() throws {
        let (site, placement) = try Self.site()
        let page = SitePage(site: site, placement: placement, title: "lab")
        let radio = site.radios[1].id
        page.record(LocalSiteRun.Event.onAir(radio: radio, beacons: placement.assignments(on: radio).count))
        let on = page.snapshot()
        for a in placement.assignments(on: radio) { #expect(on.beacons.first { $0.id == a.beacon.name }?.status == "active") }
        page.record(LocalSiteRun.Event.failed(radio: radio, reason: "unplugged"))
        let failed = page.snapshot()
        #expect(failed.rows[1].cells[1] == "failed: unplugged")
        for a in placement.assignments(on: radio) { #expect(failed.beacons.first { $0.id == a.beacon.name }?.state == "off air") }
    }
}
