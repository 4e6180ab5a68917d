// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconJSON
import BeaconProfiles
import BeaconRadio
import Foundation
import Testing
import TestSupport
@testable import BeaconSite

/// A site file's `air:` (read by the profile reader's one `air:` reader) and the surroundings a
/// `-i virtual` receiver standing in a profile or site file hears through.
@Suite struct SiteAirTests {
    static let uuid = "8B0C3B1E-6E2A-4C55-9B8F-3D1A2E4F5061"

    /// A site file in a fresh directory naming room-2m.yaml (whose areas are a 2 m square).
    static func siteFile(air: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("site-air-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let file = directory + "/site.yaml"
        try """
            name: bench
            \(air)
            radios:
              - {host: box, adapter: virtual, position: {x: 0, y: 0}}
            profiles:
              - \(PackageRoot.path("profiles/room-2m.yaml"))
            """.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test func aSitesAirIsReadAsAProfilesAndItsWallsAreItsProfilesAreas() throws {
        let site = try SiteLoader.load(contentsOf: Self.siteFile(air: "air: {preset: office, sigma: 4, wall_db: 3.4, seed: 9}"))
        let air = try #require(site.air)
        #expect(air.name == "office+")
        #expect(air.shadowingSigma == 4 && air.exponent == AirChannel.office.exponent && air.wallLoss == 3.4 && air.seed == 9)
        #expect(site.walls.count == 4)
        let plain = try SiteLoader.load(contentsOf: Self.siteFile(air: ""))
        #expect(plain.air == nil)
        // The plan states the air only when the file declares one.
        func place(_ site: Site) -> SitePlacement { SitePlacer(maximumDistance: site.maximumDistance).place(site.beacons, on: site.radios) }
        let placement = place(site)
        let lines = SitePlanText.lines(site: site, placement: placement)
        #expect(lines.contains { $0.hasPrefix("air office+ (n 3") }, "\(lines)")
        #expect(SitePlanText.lines(site: plain, placement: place(plain)).allSatisfy { !$0.hasPrefix("air ") })
        let json = SitePlanJSON.object(site: site, placement: placement).text
        #expect(json.contains(#""air":{"name":"office+","exponent":3"#), "\(json)")
        #expect(json.contains(#""wall_db":3.4,"seed":9}"#), "\(json)")
    }

    @Test func aBadAirValueIsReportedAtItsLineWithTheFieldAndRange() throws {
        let file = try Self.siteFile(air: "air: {preset: office, sigma: 40}")
        #expect {
            _ = try SiteLoader.load(contentsOf: file)
        } throws: { error in
            guard let issues = (error as? ProfileErrors)?.issues, issues.count == 1 else { return false }
            let text = issues[0].description
            return text.hasPrefix("\(file):2:30: air.sigma: 40: ") && text.contains("from 0 to 20")
        }
        let preset = try Self.siteFile(air: "air: offise")
        #expect {
            _ = try SiteLoader.load(contentsOf: preset)
        } throws: { error in
            (error as? ProfileErrors)?.issues.map(\.description) == ["\(preset):2:6: air: offise: must be one of clean, office, station"]
        }
    }

    /// `scan --areas FILE` takes a profile file or a site file, told apart by the site's own keys.
    @Test func surroundingsComeFromASiteFileOrAProfileFile() throws {
        let site = try ReceiverSurroundings.load(contentsOf: Self.siteFile(air: "air: {exponent: 4}"))
        #expect(site.air?.exponent == 4 && site.walls.count == 4)
        let profile = try ReceiverSurroundings.load(contentsOf: PackageRoot.path("profiles/room-2m.yaml"))
        #expect(profile.air == nil && profile.walls.count == 4)
        // A file with no air: is there for its walls: with no wall loss it would do nothing.
        #expect(profile.refusal(hearingThrough: .clean)?.contains("--air-wall-db above 0") == true)
        var walled = AirChannel.clean
        walled.wallLoss = 3
        #expect(profile.refusal(hearingThrough: walled) == nil)
        #expect(site.refusal(hearingThrough: .clean) == nil)
    }
}
