// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing
import TestSupport

/// What a person sees of `beacon site` in a terminal (tmux, 80×24): a site of one host (no
/// broker) shows its radios online and its beacons on air in the live view, the beacon no
/// radio can carry in the summary; Ctrl-C leaves the summary behind. TERM=dumb: the event lines.
/// On a Mosquitto of its own with two agents: a host killed shows offline, its beacon off air.
@Suite("beacon site in tmux", .serialized)
struct SiteScreenTests {
    static let uuid = "8B0C3B1E-6E2A-4C55-9B8F-3D1A2E4F5061"

    /// A private directory with its own virtual air and a site file of `text`.
    static func siteFile(_ text: String) throws -> (file: String, air: String, directory: URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacon-site-screen-\(UUID().uuidString.prefix(8))")
        let air = directory.appendingPathComponent("air")
        try FileManager.default.createDirectory(at: air, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let file = directory.appendingPathComponent("site.yaml").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        return (file, air.path, directory)
    }

    /// Two virtual radios 10 m apart on one host, three beacons near them and one 500 m away.
    static func benchSite() throws -> (file: String, air: String, directory: URL) {
        try siteFile(TwoRadioSite.yaml(name: "bench", major: 7, moreBeacons: [
            "{name: shelf, uuid: \(uuid), major: 7, minor: 3, position: {x: 8, y: 0}}",
            "{name: far-store, uuid: \(uuid), major: 7, minor: 100, position: {x: 500, y: 0}}"]))
    }

    /// The lines without the trailing blanks a redrawn line may leave in tmux's capture (-J).
    static func trimmed(_ lines: [String]) -> [String] {
        lines.map { line in String(line.reversed().drop { $0 == " " }.reversed()) }
    }

    static let summary = "2/2 radios online · 3/4 beacons on air · unmet: 1 not placed"

    @Test("the live view: radios online, beacons on air, the unplaced one in the summary")
    func theLiveView() async throws {
        let (file, air, directory) = try Self.benchSite()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tmux = try TmuxScreen(width: 80, height: 24, beacon: ["site", file], environment: ["BEACON_AIR": air, "TERM": "xterm"])
        defer { tmux.close() }
        // Hang bound only: the view shows it as soon as both radios are on air.
        let shown = await tmux.waitForScreen(timeout: .seconds(30)) { Self.trimmed($0).last == Self.summary }
        let lines = Self.trimmed(try #require(shown, "\(tmux.everything())"))
        #expect(lines.count <= 24 && TmuxScreen.widest(lines) <= 80, "\(lines)")
        #expect(lines.first?.hasPrefix("beacon: site ") == true, "\(lines)")
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
        #expect(Self.trimmed(after).filter { $0 == Self.summary }.count == 1, "\(after)")
    }

    @Test("TERM=dumb: one line per event, as in a pipe")
    func plainLines() async throws {
        let (file, air, directory) = try Self.benchSite()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tmux = try TmuxScreen(width: 80, height: 24, beacon: ["site", file], environment: ["BEACON_AIR": air, "TERM": "dumb"])
        defer { tmux.close() }
        let shown = await tmux.waitForScreen(timeout: .seconds(30)) { $0.contains("box/virtual-b: 2 beacons on air") }
        let lines = try #require(shown, "\(tmux.everything())")
        #expect(lines.contains("box/virtual-a: 1 beacon on air"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("far-store (") && $0.contains("): not placed: no radio within") }, "\(lines)")
        #expect(!lines.contains { $0.hasPrefix("beacon: site ") || $0.hasPrefix("RADIO ") }, "no live view: \(lines)")
        try tmux.sendInterrupt()
        #expect(await tmux.waitForExit(timeout: .seconds(20)) == 0, "\(tmux.everything())")
    }

    @Test("--json on a terminal: the events, no view")
    func jsonOnATerminal() async throws {
        let (file, air, directory) = try Self.benchSite()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tmux = try TmuxScreen(width: 200, height: 24, beacon: ["site", file, "--json"], environment: ["BEACON_AIR": air, "TERM": "xterm"])
        defer { tmux.close() }
        let shown = await tmux.waitForScreen(timeout: .seconds(30)) { $0.contains { $0.contains(#""event":"on_air","radio":"box/virtual-b","beacons":2"#) } }
        let lines = try #require(shown, "\(tmux.everything())")
        #expect(lines.allSatisfy { $0.isEmpty || $0.hasPrefix(#"{"time":"#) }, "JSON lines only: \(lines)")
        try tmux.sendInterrupt()
        #expect(await tmux.waitForExit(timeout: .seconds(20)) == 0, "\(tmux.everything())")
    }

    @Test("with a broker: a host killed shows offline, its beacon off air and why")
    func aHostGoingOffline() async throws {
        // The ACL is not what is tested here: every user may use the whole tree.
        let users = ["site-controller", "pi-a", "pi-b"].map { MosquittoBroker.User(name: $0, password: "\($0)-secret", acl: ["topic readwrite #"]) }
        let broker = try await MosquittoBroker(users: users)
        let (file, air, directory) = try Self.siteFile("""
            name: lab
            broker: {url: "\(broker.url)"}
            failover: none
            radios:
              - {host: pi-a, adapter: virtual, position: {x: 0, y: 0}}
              - {host: pi-b, adapter: virtual, position: {x: 10, y: 0}}
            beacons:
              - {name: door, uuid: \(Self.uuid), major: 7, minor: 1, position: {x: 1, y: 0}}
              - {name: desk, uuid: \(Self.uuid), major: 7, minor: 2, position: {x: 9, y: 0}}
            """)
        defer { try? FileManager.default.removeItem(at: directory) }
        func credentials(_ user: MosquittoBroker.User) -> [String] { ["BEACON_MQTT_USERNAME=\(user.name)", "BEACON_MQTT_PASSWORD=\(user.password)"] }
        let tmux = try TmuxScreen(width: 80, height: 24, beacon: ["site", file], environment: [
            "BEACON_AIR": air, "TERM": "xterm", "BEACON_MQTT_USERNAME": users[0].name, "BEACON_MQTT_PASSWORD": users[0].password,
        ])
        defer { tmux.close() }
        let agents = try users.dropFirst().map { user in
            try BackgroundProgram(URL(fileURLWithPath: "/usr/bin/env"), ["BEACON_AIR=\(air)"] + credentials(user)
                + [try Executables.beacon.get().path, "agent", "--site", file, "--host", user.name])
        }
        defer { for agent in agents { agent.send(SIGKILL) } }
        // Hang bounds only: each screen is waited for.
        let both = await tmux.waitForScreen(timeout: .seconds(30)) { Self.trimmed($0).last == "2/2 radios online · 2/2 beacons on air" }
        let running = Self.trimmed(try #require(both, "\(tmux.everything())\n\(agents.map(\.output))"))
        #expect(running.first?.hasPrefix("beacon: site ") == true && running.first?.contains(" — Ctrl-C stops") == true, "\(running)")
        #expect(running.contains { $0.hasPrefix("pi-b/virtual  online ") && $0.contains(" 1 of 1 ") }, "\(running)")
        #expect(running.contains { $0.hasPrefix("desk ") && $0.contains(" pi-b/virtual  on air ") }, "\(running)")

        agents[1].send(SIGKILL)
        let gone = await tmux.waitForScreen(timeout: .seconds(30)) {
            Self.trimmed($0).last == "1/2 radios online · 1/2 beacons on air · unmet: 1 off air (1 pi-b is offline)"
        }
        let lines = Self.trimmed(try #require(gone, "\(tmux.everything())"))
        #expect(lines.count <= 24 && TmuxScreen.widest(lines) <= 80, "\(lines)")
        #expect(lines[1].hasPrefix("RADIO ") && lines[2].hasPrefix("pi-b/virtual  offline ") && lines[2].contains(" 0 of 1 "), "offline first: \(lines)")
        #expect(lines.contains { $0.hasPrefix("desk ") && $0.contains(" off air ") && $0.hasSuffix("pi-b is offline") }, "\(lines)")
        #expect(lines.contains("pi-b: offline"), "the event under the tables: \(lines)")
        try tmux.sendInterrupt()
        #expect(await tmux.waitForExit(timeout: .seconds(20)) == 0, "\(tmux.everything())")
        #expect(tmux.everything().filter { $0.hasPrefix("1/2 radios online") }.count == 1, "\(tmux.everything())")
    }
}
