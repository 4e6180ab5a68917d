// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconEmulator
import BeaconJSON
import BeaconSite
import Testing
import TestSupport

/// A site's plan and its events as text and JSON (what `beacon site` and `beacon agent` print),
/// without the binary.
struct SiteTextTests {
    static let radio = SiteRadio.ID(host: "pi-west", adapter: "hci1")

    @Test func theLabSitesPlanSaysWhatIsPlacedAndWhatIsNot() throws {
        let site = try SiteLoader.load(contentsOf: PackageRoot.path("examples/site-lab.yaml"))
        let placement = SitePlacer(maximumDistance: site.maximumDistance).place(site.beacons, on: site.radios)
        let lines = SitePlanText.lines(site: site, placement: placement)
        #expect(lines.first?.hasPrefix("site lab: 3 radios on 2 hosts, 13 beacons, 12 placed, 1 not placed") == true, "\(lines)")
        #expect(lines.contains("pi-west/hci1 at (8, 0, 2.5): 4 of 4 beacons"))
        #expect(lines.contains("not placed:"))
        #expect(lines.contains { $0.hasPrefix("  far-store  ") && $0.hasSuffix(": no radio within 12 m") })
        #expect(lines.contains("    (max_distance); the nearest, pi-east/hci0, is 30.1 m away"), "the reason wraps at 80 columns")
        #expect(lines.allSatisfy { $0.count <= 80 }, "\(lines)")
    }

    /// A state's reason from the broker is anyone's text: printed raw, it set the terminal's title
    /// and forged a line of its own ("FAKE: west is offline"). Escaped, it is one visible line;
    /// the JSON event keeps the exact text.
    @Test("values from the broker are escaped in the line, exact in the JSON")
    func brokerValuesCannotDriveTheTerminal() throws {
        let reason = "X\u{1B}]0;PWNED\u{07}\r\nFAKE: west is offline"
        let event = SiteController.Event.beacon(id: "a-1-2", name: "door\u{202E}", onAir: false, radio: nil, reason: reason, seat: nil)
        #expect(event.text == #"door\u{202E} (a-1-2): off air: X\u{1B}]0;PWNED\u{7}\r\nFAKE: west is offline"#, "\(event.text)")
        #expect(!event.text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x202E })
        #expect(event.json(time: 0).text.contains(#""reason":"X\u001b]0;PWNED\u0007\r\nFAKE: west is offline""#), "\(event.json(time: 0).text)")
        let failed = SiteAgent.Event.failed(radio: Self.radio, reason: "bad\u{1B}[2J")
        #expect(failed.text == #"pi-west/hci1: bad\u{1B}[2J"#)
        let local = LocalSiteRun.Event.failed(radio: Self.radio, reason: "\u{9B}31m")
        #expect(local.text == #"pi-west/hci1: \u{9B}31m"#)
    }

    @Test func controllerEventsAreALineAndAnEvent() throws {
        let event = SiteController.Event.desired(radio: Self.radio, revision: 3, beacons: 1)
        #expect(event.text == "pi-west/hci1: desired revision 3 (1 beacon)")
        #expect(event.json(time: 1.5).text == #"{"time":1.5,"event":"desired","radio":"pi-west/hci1","revision":3,"beacons":1}"#)
        let off = SiteController.Event.beacon(id: "a-1-2", name: "door", onAir: false, radio: nil, reason: nil, seat: nil)
        #expect(off.text == "door (a-1-2): off air: unknown")
        #expect(off.json(time: 0).text.hasSuffix(#""on_air":false,"radio":null}"#), "no reason, no member")
        // On air: the set its agent chose, worded as advertise --plan --map words it, and in the
        // names advertise --plan --json gives it.
        let on = SiteController.Event.beacon(id: "a-1-2", name: "door", onAir: true, radio: Self.radio,
                                             reason: nil, seat: AdvertiserSeat(mode: .extendedRotation, advertiser: 2, slot: 1, slots: 3))
        #expect(on.text == "door (a-1-2): on air on pi-west/hci1 set 2 (2/3)")
        #expect(on.json(time: 0).text.hasSuffix(#""radio":"pi-west/hci1","advertiser":2,"mode":"extended rotation","slot":1,"slots":3}"#), "\(on.json(time: 0).text)")
        let site = try SiteLoader.load(contentsOf: PackageRoot.path("examples/site-lab.yaml"))
        let placed = SiteController.Event.placed(site: site, placement: SitePlacer(maximumDistance: site.maximumDistance).place(site.beacons, on: site.radios))
        #expect(placed.text == "placed 12 beacons on 3 radios, 1 not placed")
        #expect(placed.json(time: 1).text == #"{"time":1,"event":"placed","radios":3,"placed":12,"unplaced":1}"#)
    }

    @Test func agentAndLocalSiteEventsToo() {
        #expect(SiteAgent.Event.applied(radio: Self.radio, revision: 2, beacons: 4).text == "pi-west/hci1: revision 2 on air (4 beacons)")
        #expect(SiteAgent.Event.brokerRefused(reason: "not authorised").json(time: 2).text == #"{"time":2,"event":"refused","reason":"not authorised"}"#)
        #expect(LocalSiteRun.Event.onAir(radio: Self.radio, beacons: 1, seats: [:]).text == "pi-west/hci1: 1 beacon on air")
        #expect(LocalSiteRun.Event.failed(radio: Self.radio, reason: "gone").json(time: 3).text == #"{"time":3,"event":"failed","radio":"pi-west/hci1","reason":"gone"}"#)
    }
}
