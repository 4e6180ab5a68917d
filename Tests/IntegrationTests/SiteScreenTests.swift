// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing

/// What a person sees of `beacon site` in a terminal (tmux, 80×24): a site of one host (no
/// broker) shows its radios online and its beacons on air in the live view, the beacon no
/// radio can carry in the summary; Ctrl-C leaves the summary behind. TERM=dumb: the event lines.
@Suite("beacon site in tmux", .serialized)
struct SiteScreenTests {
    /// Two virtual radios 10 m apart on one host, three beacons near them and one 500 m away.
    static func siteFile() throws -> (file: String, air: String, directory: URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacon-site-screen-\(UUID().uuidString.prefix(8))")
        let air = directory.appendingPathComponent("air")
        try FileManager.default.createDirectory(at: air, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let file = directory.appendingPathComponent("bench.yaml").path
        try Data("""
            name: bench
            radios:
              - {host: box, adapter: virtual-a, position: {x: 0, y: 0}}
              - {host: box, adapter: virtual-b, position: {x: 10, y: 0}}
            beacons:
              - {name: door, uuid: 8B0C3B1E-6E2A-4C55-9B8F-3D1A2E4F5061, major: 7, minor: 1, position: {x: 1, y: 0}}
              - {name: desk, uuid: 8B0C3B1E-6E2A-4C55-9B8F-3D1A2E4F5061, major: 7, minor: 2, position: {x: 9, y: 0}}
              - {name: shelf, uuid: 8B0C3B1E-6E2A-4C55-9B8F-3D1A2E4F5061, major: 7, minor: 3, position: {x: 8, y: 0}}
              - {name: far-store, uuid: 8B0C3B1E-6E2A-4C55-9B8F-3D1A2E4F5061, major: 7, minor: 100, position: {x: 500, y: 0}}
            """.utf8).write(to: URL(fileURLWithPath: file))
        return (file, air.path, directory)
    }

    static let summary = "2/2 radios online · 3/4 beacons on air · unmet: 1 not placed"

    @Test("the live view: radios online, beacons on air, the unplaced one in the summary")
    func theLiveView() async throws {
        let (file, air, directory) = try Self.siteFile()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tmux = try TmuxScreen(width: 80, height: 24, beacon: ["site", file], environment: ["BEACON_AIR": air, "TERM": "xterm"])
        defer { tmux.close() }
        // Hang bound only: the view shows it as soon as both radios are on air.
        let shown = await tmux.waitForScreen(timeout: .seconds(30)) { $0.last == Self.summary }
        let lines = try #require(shown, "\(tmux.everything())")
        #expect(lines.count <= 24 && TmuxScreen.widest(lines) <= 80, "\(lines)")
        #expect(lines.first?.hasPrefix("beacon site ") == true, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("box/virtual-a  online ") && $0.contains(" 1 of 1 ") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("box/virtual-b  online ") && $0.contains(" 2 of 2 ") }, "\(lines)")
        for (name, radio) in [("door", "box/virtual-a"), ("desk", "box/virtual-b"), ("shelf", "box/virtual-b")] {
            #expect(lines.contains { $0.hasPrefix(name + " ") && $0.contains(radio) && $0.contains(" on air ") }, "\(name): \(lines)")
        }
        #expect(lines.contains { $0.hasPrefix("far-store ") && $0.contains(" not placed ") && $0.contains("no radio within") }, "\(lines)")
        try tmux.sendInterrupt()
        #expect(await tmux.waitForExit(timeout: .seconds(20)) == 0, "\(tmux.everything())")
        // The normal screen again: no copy of the view, the summary once.
        let after = tmux.everything()
        #expect(!after.contains { $0.hasPrefix("box/virtual-a  ") }, "\(after)")
        #expect(after.filter { $0 == Self.summary }.count == 1, "\(after)")
    }

    @Test("TERM=dumb: one line per event, as in a pipe")
    func plainLines() async throws {
        let (file, air, directory) = try Self.siteFile()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tmux = try TmuxScreen(width: 80, height: 24, beacon: ["site", file], environment: ["BEACON_AIR": air, "TERM": "dumb"])
        defer { tmux.close() }
        let shown = await tmux.waitForScreen(timeout: .seconds(30)) { $0.contains("box/virtual-b: 2 beacons on air") }
        let lines = try #require(shown, "\(tmux.everything())")
        #expect(lines.contains("box/virtual-a: 1 beacon on air"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("far-store (") && $0.contains("): not placed: no radio within") }, "\(lines)")
        #expect(!lines.contains { $0.hasPrefix("beacon site ") || $0.hasPrefix("RADIO ") }, "no live view: \(lines)")
        try tmux.sendInterrupt()
        #expect(await tmux.waitForExit(timeout: .seconds(20)) == 0, "\(tmux.everything())")
    }
}
