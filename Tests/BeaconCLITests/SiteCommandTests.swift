// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing
import TestSupport

/// `beacon site SITE --plan`: the placement as text and JSON, and a broken site file's issues.
@Suite struct SiteCommandTests {
    @Test func thePlanOfTheExampleSite() throws {
        let result = try BeaconExecutable.run(["site", "examples/site-lab.yaml", "--plan"])
        #expect(result.status == 0, "\(result)")
        #expect(Array(result.lines.prefix(2)) == ["site lab: 3 radios on 2 hosts, 13 beacons, 12 placed, 1 not placed", "broker mqtt://127.0.0.1:1883"])
        #expect(result.lines.contains("pi-west/hci1 at (8, 0, 2.5): 4 of 4 beacons"))
        // Broken at a space to fit 80 columns, the continuation indented.
        #expect(result.lines.suffix(2) == ["  far-store  8b0c3b1e-6e2a-4c55-9b8f-3d1a2e4f5061-7-100: no radio within 12 m",
                                           "    (max_distance); the nearest, pi-east/hci0, is 30.1 m away"])
        #expect(result.lines.allSatisfy { $0.count <= 80 }, "\(result.lines)")
        #expect(result.stderr.isEmpty)
    }

    @Test("a site file named on the command line may be a FIFO or a pipe, as a profile may")
    func aSiteFileThroughAFIFOOrAPipe() throws {
        let beacon = try Executables.beacon.get().path
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("beacon-site-fifo-\(UUID().uuidString)").path
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        // The site's profile path made absolute (a FIFO's folder is not the example's); a hang
        // bound of 20 s on each run and on the writer (whose open waits for a reader that a
        // refusing `site` never becomes), never a verdict on time.
        let shell = """
            timeout 20 sh -c 'sed "s#\\.\\./profiles#$1/profiles#" "$1/examples/site-lab.yaml" > "$2"' sh "$1" "$2" &
            timeout 20 "$0" site "$2" --plan | head -1 || exit 1
            timeout 20 "$0" site <(sed "s#\\.\\./profiles#$1/profiles#" "$1/examples/site-lab.yaml") --plan | head -1
            """
        let result = try Program.run(URL(fileURLWithPath: "/bin/bash"), ["-c", shell, beacon, PackageRoot.url.path, fifo])
        let first = "site lab: 3 radios on 2 hosts, 13 beacons, 12 placed, 1 not placed"
        #expect(result.status == 0 && result.lines == [first, first], "\(result)")
    }

    @Test func thePlanAsJSON() throws {
        let result = try BeaconExecutable.run(["site", "examples/site-lab.yaml", "--plan", "--json"])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines.count == 1)
        let plan = try BeaconExecutable.jsonObject(result.stdout)
        #expect(plan["site"] as? String == "lab")
        let radios = try #require(plan["radios"] as? [[String: Any]])
        #expect(radios.map { $0["host"] as? String } == ["pi-west", "pi-west", "pi-east"])
        #expect(radios.map { ($0["beacons"] as? [Any])?.count } == [5, 4, 3])
        let unplaced = try #require(plan["unplaced"] as? [[String: Any]])
        #expect(unplaced.map { $0["name"] as? String } == ["far-store"])
    }

    @Test func aBrokenSiteFileExits65WithEachIssueOnItsLine() throws {
        let path = try BeaconExecutable.temporaryFile(named: "site.yaml", contents: """
            name: lab
            radios: [{host: pi, adapter: hci0, position: {x: 0, y: 0}, capacity: -1}]
            beacons: [{uuid: 8B0C3B1E-6E2A-4C55-9B8F-3D1A2E4F5061, major: 1, minor: 1, position: {x: 1, y: 0}}]
            failover: sometimes
            """)
        let result = try BeaconExecutable.run(["site", path, "--plan"])
        #expect(result.status == 65, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.split(separator: "\n") == [
            "\(path):2:70: radios.capacity: -1: must be an integer from 1 to 65536 (beacons)",
            "\(path):4:11: failover: sometimes: must be one of: nearest, none",
        ])
    }

    @Test func aMissingSiteFileExits1() throws {
        let result = try BeaconExecutable.run(["site", "no-such-site.yaml", "--plan"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("no-such-site.yaml"))
    }
}
