// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import BeaconEmulator
import BeaconJSON
import BeaconProfiles
import Foundation
import Testing
import TestSupport
@testable import BeaconSite

/// The site's payloads against their schemas in docs/schema/ (Tests/Harness/validate_json.py),
/// and the schemas are no rubber stamp: a payload that breaks one fails.
@Suite struct SiteSchemaTests {
    static func validate(_ checks: [(schema: String, lines: [JSONValue])]) throws -> ProgramOutput {
        try validateLines(checks.map { ($0.schema, $0.lines.map(\.text).joined(separator: "\n") + "\n") })
    }

    /// Checks JSON Lines text against a schema each.
    static func validateLines(_ checks: [(schema: String, text: String)]) throws -> ProgramOutput {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("beacon-site-schema-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var arguments = [PackageRoot.path("Tests/Harness/validate_json.py"), PackageRoot.path("docs/schema")]
        for (index, check) in checks.enumerated() {
            let url = dir.appendingPathComponent("\(index).jsonl")
            try Data(check.text.utf8).write(to: url)
            arguments += [check.schema, url.path]
        }
        let python = try Executables.require("python3", install: "scripts/setup --tests, then put /root/.cache/beacon/venv/bin first on PATH")
        return try Program.run(python, arguments)
    }

    @Test func everyPayloadMatchesItsSchema() throws {
        let site = try SiteLoader.load(contentsOf: PackageRoot.path("examples/site-lab.yaml"))
        let placement = SitePlacer(maximumDistance: site.maximumDistance).place(site.beacons, on: site.radios)
        var aired = site  // a site's air: in the plan too
        aired.air = .station
        aired.air?.fading = .rician(kFactor: -3.5)
        var desired: [JSONValue] = [DesiredFleet(revision: 0, beacons: []).json]
        for file in ["profiles/example.yaml", "profiles/room-2m.yaml", "profiles/station-160.yaml"] {
            desired.append(DesiredFleet(revision: 3, beacons: try ProfileLoader.load(contentsOf: PackageRoot.path(file)).beacons).json)
        }
        let state = RadioStateReport(
            revision: 3,
            beacons: [BeaconState(id: SiteBeaconID.of(site.beacons[0]), name: "corridor-0", state: .onAir, since: 1_764_130_000.25,
                                  seat: AdvertiserSeat(mode: .extendedSets, advertiser: 3)),
                      BeaconState(id: SiteBeaconID.of(site.beacons[1]), name: "corridor-1", state: .error, reason: "refused", since: 1_764_130_001)],
            rejected: DesiredRejection(field: "major", value: "70000", reason: "must be an integer from 0 to 65535", line: 1, column: 87, issues: 1))
        let planner = FleetPlanner()
        let radios = HostAnnouncement.json(host: "pi-west", radios: [("hci0", .assumedExtended(adapter: "hci0", sets: 16)), ("hci1", .assumedLegacy(adapter: "hci1")), ("hci2", nil)], planner: planner)
        let telemetry = HostTelemetry(host: "pi-west", uptime: 12.5, onAir: 3, errors: 1, rejected: 0, residentBytes: 9_437_184).json
        let verdict = try Self.validate([
            ("site-desired.schema.json", desired),
            ("site-state.schema.json", [state.json, RadioStateReport(revision: nil, beacons: []).json]),
            ("site-radios.schema.json", [radios]),
            ("site-telemetry.schema.json", [telemetry, HostTelemetry(host: "pi-west", uptime: 0, onAir: 0, errors: 0, rejected: 0).json]),
            ("site-plan.schema.json", [SitePlanJSON.object(site: site, placement: placement), SitePlanJSON.object(site: aired, placement: placement)]),
        ])
        #expect(verdict.status == 0, "\(verdict)")
    }

    @Test func aPayloadThatBreaksItsSchemaFails() throws {
        let bad: [(String, JSONValue)] = [
            ("site-state.schema.json", .object([("revision", .int(1)), ("beacons", .array([.object([("id", .string("a-1-2")), ("name", .string("a")), ("state", .string("lost")), ("since", .int(0))])]))])),
            ("site-desired.schema.json", .object([("revision", .int(1)), ("beacons", .array([.object([("name", .string("a")), ("colour", .string("red"))])]))])),
            ("site-telemetry.schema.json", .object([("host", .string("pi")), ("uptime", .int(1))])),
            ("site-telemetry.schema.json", .object([("host", .string("pi")), ("uptime", .int(1)), ("on_air", .int(0)), ("errors", .int(0)),
                                                    ("rejected", .int(0)), ("rss_bytes", .string("9 MB"))])),
        ]
        for (schema, value) in bad {
            let verdict = try Self.validate([(schema, [value])])
            #expect(verdict.status != 0, "\(schema) accepted \(value.text)")
        }
    }
}
