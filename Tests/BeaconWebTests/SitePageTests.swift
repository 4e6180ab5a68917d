// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconEmulator
import BeaconMaps
import BeaconSite
import BeaconWeb
import Testing
import TestSupport

/// The page of `beacon site`, fed the controller's or a local run's events: radios online or
/// not, beacons on or off air with the set that carries them, and each re-placement, on the map
/// and in the table.
@Suite struct SitePageTests {
    static func site() throws -> (Site, SitePlacement) {
        let site = try SiteLoader.load(contentsOf: PackageRoot.path("examples/site-lab.yaml"))
        return (site, SitePlacer(maximumDistance: site.maximumDistance).place(site.beacons, on: site.radios))
    }

    /// The table's row of `id` (a radio's ``MapScene/radioID(_:)`` or a beacon's name).
    static func row(_ snapshot: LivePageSnapshot, _ id: String) -> LivePageSnapshot.Row? { snapshot.rows.first { $0.beacon == id } }

    @Test func hostsComingOnlineAndGoingAwayShowOnTheRadios() throws {
        let (site, placement) = try Self.site()
        let page = SitePage(site: site, placement: placement, title: "lab")
        let before = page.snapshot()
        let radioIDs = site.radios.map { MapScene.radioID($0.id) }
        #expect(radioIDs.map { Self.row(before, $0)?.cells[3] } == Array(repeating: "waiting", count: site.radios.count))
        #expect(before.svg.components(separatedBy: "<g class=\"radioOffline\"").count - 1 == site.radios.count)
        // A row per radio, one per beacon under the radio carrying it, then the one not placed.
        #expect(before.columns == ["RADIO", "BEACON", "SET", "STATE"])
        #expect(before.rows.count == site.radios.count + site.beacons.count)
        #expect(before.rows.last?.cells == ["-", "far-store", "", "not placed"] && before.rows.last?.status == "problem")

        page.record(SiteController.Event.hostOnline("pi-west"))
        let carried = try #require(placement.assignments(on: site.radios[0].id).first)
        let seat = AdvertiserSeat(mode: .extendedSets, advertiser: 2)
        page.record(SiteController.Event.beacon(id: carried.id, name: carried.beacon.name, onAir: true, radio: carried.radio, reason: nil, seat: seat))
        let west = page.snapshot()
        let states = Dictionary(west.beacons.map { ($0.id, $0.state) }, uniquingKeysWith: { a, _ in a })
        #expect(states[radioIDs[0]] == "online")
        #expect(states[radioIDs[2]] == "waiting")
        #expect(states[carried.beacon.name] == "on air")
        #expect(west.svg.contains("<g class=\"radio\" id=\"m-\(radioIDs[0])\""))
        #expect(west.summary.hasPrefix("2 of 3 radios online, 1 of \(placement.assignments.count) beacons on air"), "\(west.summary)")
        // Which radio, adapter and set carries it: in its row and its label on the map.
        #expect(Self.row(west, carried.beacon.name)?.cells == ["pi-west/hci0", carried.beacon.name, "set 2", "on air"])
        #expect(Self.row(west, radioIDs[0])?.cells == ["pi-west/hci0", "1 of \(placement.assignments(on: site.radios[0].id).count) on air", "", "online"])
        #expect(west.svg.contains(">\(carried.beacon.name) · pi-west/hci0 set 2<"), "\(west.svg)")

        page.record(SiteController.Event.hostOffline("pi-west"))
        page.record(SiteController.Event.beacon(id: carried.id, name: carried.beacon.name, onAir: false, radio: nil, reason: "host offline", seat: nil))
        let gone = page.snapshot()
        #expect(Self.row(gone, radioIDs[0])?.cells[3] == "offline" && Self.row(gone, radioIDs[0])?.status == "problem")
        #expect(gone.beacons.first { $0.id == carried.beacon.name }?.state == "off air")
        #expect(Self.row(gone, carried.beacon.name)?.cells[2] == "", "off air: on no set")
        #expect(gone.messages.last == "\(carried.beacon.name) off air: host offline")
    }

    @Test func aReplacementMovesTheBeaconsOnTheMapAndInTheTable() throws {
        let (site, placement) = try Self.site()
        let page = SitePage(site: site, placement: placement, title: "lab")
        let west = site.radios[0].id, east = site.radios[2].id
        let moved = try #require(placement.assignments(on: west).first)
        page.record(SiteController.Event.beacon(id: moved.id, name: moved.beacon.name, onAir: true, radio: west, reason: nil, seat: AdvertiserSeat(mode: .extendedSets, advertiser: 1)))
        #expect(Self.row(page.snapshot(), moved.beacon.name)?.cells[0] == "pi-west/hci0")

        // pi-west's radios gone (failover), the site edited (SIGHUP): the controller's new
        // placement, here every beacon on pi-east, as far away as they are.
        let placer = SitePlacer(maximumDistance: 100)
        let east0 = site.radios.filter { $0.host == "pi-east" }
        let again = placer.place(site.beacons, on: east0)
        page.record(SiteController.Event.placed(site: site, placement: again))
        let after = page.snapshot()
        #expect(Self.row(after, moved.beacon.name)?.cells == ["pi-east/hci0", moved.beacon.name, "", "on air"], "moved: on no set of its new radio yet")
        #expect(Self.row(after, MapScene.radioID(east))?.cells[1] == "1 of \(site.beacons.count) on air")
        #expect(Self.row(after, MapScene.radioID(west))?.cells[1] == "0 of 0 on air")
        #expect(after.svg.contains(">\(moved.beacon.name) · pi-east/hci0<"), "\(after.svg)")
        #expect(after.svg.contains(">pi-west/hci0 (unavailable)<"), "\(after.svg)")
        #expect(!after.rows.contains { $0.cells[3] == "not placed" }, "far-store is within 100 m of pi-east")

        // A site edited down to one beacon: the others leave the map and the table.
        var edited = site
        edited.beacons = [moved.beacon]
        page.record(SiteController.Event.placed(site: edited, placement: placer.place(edited.beacons, on: east0)))
        let one = page.snapshot()
        #expect(one.rows.count == site.radios.count + 1)
        #expect(one.svg.components(separatedBy: "<polyline class=\"carrier\"").count - 1 == 1, "one dotted line")
        #expect(one.summary.hasSuffix("1 of 1 beacons on air"), "\(one.summary)")
    }

    @Test func aLocalRunsRadioPutsItsBeaconsOnAirOrFails() throws {
        let (site, placement) = try Self.site()
        let page = SitePage(site: site, placement: placement, title: "lab")
        let radio = site.radios[1].id
        let carried = placement.assignments(on: radio)
        let seats = Dictionary(uniqueKeysWithValues: carried.enumerated().map { ($1.id, AdvertiserSeat(mode: .extendedSets, advertiser: UInt8($0))) })
        page.record(LocalSiteRun.Event.onAir(radio: radio, beacons: carried.count, seats: seats))
        let on = page.snapshot()
        for (i, a) in carried.enumerated() {
            #expect(on.beacons.first { $0.id == a.beacon.name }?.status == "active")
            #expect(Self.row(on, a.beacon.name)?.cells[2] == "set \(i)")
        }
        page.record(LocalSiteRun.Event.failed(radio: radio, reason: "unplugged"))
        let failed = page.snapshot()
        #expect(Self.row(failed, MapScene.radioID(radio))?.cells[3] == "failed: unplugged")
        for a in carried {
            #expect(failed.beacons.first { $0.id == a.beacon.name }?.state == "error")
            #expect(Self.row(failed, a.beacon.name)?.cells[2] == "", "failed: on no set")
        }
    }

    @Test func thePlansMapSaysTheAgentsChooseTheSets() throws {
        let (site, placement) = try Self.site()
        let plan = MapScene.site(site, placement: placement, title: "lab --plan")
        #expect(plan.notes.contains { $0.hasPrefix("set chosen by the agent") }, "\(plan.notes)")
        let first = try #require(placement.assignments.first)
        #expect(plan.markers.first { $0.id == first.beacon.name }?.label == "\(first.beacon.name) · \(first.radio)")
        let live = MapScene.site(site, placement: placement, title: "lab", radioOnline: { _ in true }, beaconOnAir: { _ in true }, seat: { _ in "legacy" })
        #expect(!live.notes.contains { $0.hasPrefix("set chosen by the agent") })
        #expect(live.markers.first { $0.id == first.beacon.name }?.label == "\(first.beacon.name) · \(first.radio) legacy")
    }
}
