// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `beacon advertise` end to end: on the virtual controller (what goes on air), broken profiles
/// (nothing opened), the dry run's command listing, the plan, and stopping on SIGTERM.
@Suite struct AdvertiseCommandTests {
    static let room = "profiles/room-2m.yaml"

    @Test func theVirtualControllerPutsEveryBeaconOnAirWithItsAddressAndData() throws {
        let expected = try ExpectedBeacon.from(Self.room)
        #expect(expected.count == 4)
        let result = try BeaconExecutable.run(["advertise", Self.room, "-i", "virtual", "--air-log", "-", "--duration", "1"])
        #expect(result.status == 0, "\(result)")
        let air = AirLogLine.all(result.stdout)
        for beacon in expected {
            let events = air.filter { $0.address == beacon.address }
            // 100 ms interval for 1 s: about ten events each; at least a few, however loaded the machine.
            #expect(events.count >= 3, "\(beacon.name): \(events.count) events\n\(result)")
            #expect(events.allSatisfy { $0.pdu == "ADV_NONCONN_IND" && $0.data == beacon.data }, "\(beacon.name)\n\(result)")
        }
        // Nothing on air but these four.
        #expect(Set(air.map(\.address)) == Set(expected.map(\.address)), "\(result)")
        // The plan goes to standard error; the end is announced.
        #expect(result.stderr.contains("plan: 4 beacons on 1 adapter"), "\(result)")
        #expect(result.stdout.contains("advertising stopped"), "\(result)")
    }

    @Test func dryRunRefusesAManagementAPIAdapterItWouldMisdescribe() throws {
        // The dry run lists HCI commands; a mgmt: adapter never gets them.
        let result = try BeaconExecutable.run(["advertise", Self.room, "-i", "mgmt:hci0", "--dry-run"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(result.stderr.contains("kernel's management API") && result.stderr.contains("--plan -i mgmt:hci0"), "\(result)")
    }

    @Test func onlyPicksBeaconsByNameAndDurationsTakeUnits() throws {
        let expected = try ExpectedBeacon.from(Self.room)
        let started = ContinuousClock.now
        let result = try BeaconExecutable.run(["advertise", Self.room, "-i", "virtual", "--air-log", "-", "--duration", "500ms", "--only", "room-west", "room-east"])
        #expect(result.status == 0, "\(result)")
        #expect(ContinuousClock.now - started < .seconds(30)) // a hang detector, not a speed test (speeds are in BENCHMARKS.md)
        let wanted = Set(expected.filter { ["room-west", "room-east"].contains($0.name) }.map(\.address))
        #expect(Set(AirLogLine.all(result.stdout).map(\.address)) == wanted, "\(result)")

        let unknown = try BeaconExecutable.run(["advertise", Self.room, "-i", "virtual", "--only", "room-up"])
        #expect(unknown.status == 2, "\(unknown)")
        #expect(unknown.stderr.contains("room-west"), "the message lists the names there are: \(unknown)")
        for bad in ["2x", "-1", "0", "ms"] {
            let result = try BeaconExecutable.run(["advertise", Self.room, "-i", "virtual", "--duration", bad])
            #expect(result.status == 2, "--duration \(bad): \(result)")
        }
    }

    @Test func theAirLogOnlyWithAirLogAndToTheFileItNames() throws {
        let quiet = try BeaconExecutable.run(["advertise", Self.room, "-i", "virtual", "--duration", "300ms"])
        #expect(quiet.status == 0, "\(quiet)")
        #expect(AirLogLine.all(quiet.stdout).isEmpty, "no air log without --air-log: \(quiet)")
        #expect(quiet.stdout.contains(" room-west on air: virtual advertiser "), "one line per change instead: \(quiet)")

        let path = try BeaconExecutable.temporaryFile(named: "air.log", contents: "")
        let logged = try BeaconExecutable.run(["advertise", Self.room, "-i", "virtual", "--duration", "300ms", "--air-log", path])
        #expect(logged.status == 0, "\(logged)")
        #expect(AirLogLine.all(logged.stdout).isEmpty, "\(logged)")
        let file = try String(contentsOfFile: path, encoding: .utf8)
        let expected = Set(try ExpectedBeacon.from(Self.room).map(\.address))
        #expect(Set(AirLogLine.all(file).map(\.address)) == expected, "every beacon in the file: \(file)")

        let unwritable = try BeaconExecutable.run(["advertise", Self.room, "-i", "virtual", "--duration", "300ms", "--air-log", "/nonexistent/air.log"])
        #expect(unwritable.status == 1 && unwritable.stderr.contains("--air-log: cannot write /nonexistent/air.log: the folder /nonexistent does not exist"), "\(unwritable)")
        // Never over an input file.
        let profile = try BeaconExecutable.temporaryFile(named: "room.yaml", contents: try String(contentsOf: BeaconExecutable.packageRoot.appendingPathComponent(Self.room), encoding: .utf8))
        let clash = try BeaconExecutable.run(["advertise", profile, "-i", "virtual", "--duration", "300ms", "--air-log", profile])
        #expect(clash.status == 1 && clash.stderr.contains("--air-log: \(profile) is one of the files the command reads"), "\(clash)")
        #expect(try String(contentsOfFile: profile, encoding: .utf8).contains("room-west"), "the profile is intact")
    }

    @Test func jsonRunPrintsThePlanEventsAndAirAsJSONLines() throws {
        let result = try BeaconExecutable.run(["advertise", Self.room, "-i", "virtual", "--air-log", "-", "--duration", "0.5", "--json"])
        #expect(result.status == 0, "\(result)")
        let events = try result.lines.map(BeaconExecutable.jsonObject)
        let kinds = events.compactMap { $0["event"] as? String }
        #expect(kinds.count == events.count)
        #expect(kinds.first == "plan", "\(result)")
        #expect(kinds.filter { $0 == "on_air" }.count == 4, "\(result)")
        #expect(kinds.contains("air"))
        #expect(kinds.last == "stopped", "\(result)")
    }

    @Test func aBrokenProfileOpensNothingAndExits65() throws {
        let broken = try BeaconExecutable.temporaryFile(named: "broken.yaml", contents: "uuid: E2C56DB5-DFFB-48D2-B060-D0F5A71096E0\nmajor: 70000\nminor: 1\n")
        // Port 1 refuses connections: had beacon tried to connect, the message would say so.
        for arguments in [["advertise", broken, "-i", "tcp:127.0.0.1:1"], ["advertise", Self.room, broken, "-i", "tcp:127.0.0.1:1"],
                          ["cycle", broken, "--dwell", "1s", "-i", "tcp:127.0.0.1:1"]] {
            let result = try BeaconExecutable.run(arguments)
            #expect(result.status == 65, "\(arguments): \(result)")
            #expect(result.stderr.contains("\(broken):2:"), "\(result)")
            #expect(result.stderr.contains("major: 70000"), "\(result)")
            #expect(!result.stderr.contains("Connection refused") && !result.stderr.contains("Nothing is listening"), "\(result)")
            #expect(result.stdout.isEmpty, "\(result)")
        }
    }

    // MARK: --dry-run

    /// The commands of a dry run: name, then the H4 bytes and hcitool line checked against each
    /// other and against the opcode in the comment.
    static func dryRunCommands(_ result: CLIResult) throws -> [String] {
        let comment = try Regex(#"^# (.+) \(0x([0-9A-F]{2})\|0x([0-9A-F]{4})\)$"#)
        let lines = result.lines
        var names: [String] = []
        for (i, line) in lines.enumerated() {
            guard let match = line.wholeMatch(of: comment) else { continue }
            let name = String(match.output[1].substring!)
            let ogf = UInt16(match.output[2].substring!, radix: 16)!
            let ocf = UInt16(match.output[3].substring!, radix: 16)!
            names.append(name)
            #expect(i + 2 < lines.count, "\(name) lacks its hex and hcitool lines")
            guard i + 2 < lines.count else { continue }
            let bytes = lines[i + 1].split(separator: " ").compactMap { UInt8($0, radix: 16) }
            #expect(bytes.count == lines[i + 1].split(separator: " ").count, "not hex: \(lines[i + 1])")
            guard bytes.count >= 4 else { Issue.record("short H4 packet: \(lines[i + 1])"); continue }
            // H4: 0x01, opcode little-endian (OGF in the top 6 bits), length, parameters.
            let opcode = UInt16(bytes[1]) | UInt16(bytes[2]) << 8
            #expect(bytes[0] == 0x01)
            #expect(opcode >> 10 == ogf && opcode & 0x3FF == ocf, "\(name): \(lines[i + 1])")
            #expect(Int(bytes[3]) == bytes.count - 4, "\(name): length byte")
            let parameters = bytes.dropFirst(4).map { String(format: "%02X", $0) }
            let hcitool = ["hcitool", "-i", "hci0", "cmd", String(format: "0x%02x", ogf), String(format: "0x%04x", ocf)] + parameters
            #expect(lines[i + 2] == hcitool.joined(separator: " "), "\(name)")
        }
        return names
    }

    @Test func dryRunOnFourAssumedSetsListsOneSetPerBeacon() throws {
        let result = try BeaconExecutable.run(["advertise", Self.room, "--dry-run", "--max-sets", "4"])
        #expect(result.status == 0, "\(result)")
        let names = try Self.dryRunCommands(result)
        let clean = ["LE Set Extended Advertising Enable", "LE Clear Advertising Sets"]
        let setup = Array(repeating: "LE Set Extended Advertising Parameters", count: 4)
            + Array(repeating: "LE Set Advertising Set Random Address", count: 4)
            + Array(repeating: "LE Set Extended Advertising Data", count: 4)
            + ["LE Set Extended Advertising Enable"]
        #expect(names == clean + setup + clean, "\(result)")
        // The addresses go out least significant byte first: room-west is CB:81:10:5A:63:1F.
        #expect(result.stdout.contains("hcitool -i hci0 cmd 0x08 0x0035 00 1F 63 5A 10 81 CB"), "\(result)")
        // One enable for all four sets: Enable 01, Num_Sets 04.
        #expect(result.stdout.contains("hcitool -i hci0 cmd 0x08 0x0039 01 04 00"), "\(result)")
    }

    @Test func dryRunWithLegacyRotatesOnTheOneAdvertiser() throws {
        let result = try BeaconExecutable.run(["advertise", Self.room, "--dry-run", "--legacy", "-i", "hci3"])
        #expect(result.status == 0, "\(result)")
        let names = try Self.dryRunCommands(result.replacingAdapter("hci3"))
        let turn = ["LE Set Advertising Enable", "LE Set Random Address", "LE Set Advertising Data", "LE Set Advertising Enable"]
        let setup = ["LE Set Random Address", "LE Set Advertising Parameters", "LE Set Advertising Data", "LE Set Advertising Enable"]
        // Preamble, setup, the four turns of one cycle (1, 2, 3, back to 0), teardown.
        let expected = ["LE Set Advertising Enable"] + setup + Array([turn, turn, turn, turn].joined()) + ["LE Set Advertising Enable"]
        #expect(names == expected, "\(result)")
        // ADV_NONCONN_IND (0x03) from the random address (0x01) every 100 ms (0x00A0 units).
        #expect(result.stdout.contains("hcitool -i hci3 cmd 0x08 0x0006 A0 00 A0 00 03 01 00 00 00 00 00 00 00 07 00"), "\(result)")
        #expect(result.stdout.contains("#   hci3: legacy (one advertiser; Bluetooth 4.2)"), "\(result)")
    }

    @Test func dryRunJSONHasOneObjectPerCommand() throws {
        let text = try BeaconExecutable.run(["advertise", Self.room, "--dry-run", "--max-sets", "4"])
        let json = try BeaconExecutable.run(["advertise", Self.room, "--dry-run", "--max-sets", "4", "--json"])
        #expect(json.status == 0, "\(json)")
        let objects = try json.lines.map(BeaconExecutable.jsonObject)
        #expect(objects.map { $0["command"] as? String ?? "" } == (try Self.dryRunCommands(text)))
        #expect(objects.first?["section"] as? String == "preamble")
        #expect(objects.last?["section"] as? String == "teardown")
    }

    @Test func dryRunOpensNoAdapterEvenOneThatWouldFail() throws {
        let result = try BeaconExecutable.run(["advertise", Self.room, "--dry-run", "-i", "tcp:127.0.0.1:1"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("# dry run"), "\(result)")
    }

    // MARK: --plan

    @Test func planOnTwoSetsRotatesFourBeacons() throws {
        let result = try BeaconExecutable.run(["advertise", Self.room, "-i", "virtual:sets=2", "--plan", "--json", "--slot", "250ms"])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines.count == 1, "\(result)")
        let plan = try BeaconExecutable.jsonObject(result.stdout)
        let adapters = try #require(plan["adapters"] as? [[String: Any]])
        #expect(adapters.count == 1)
        #expect(adapters.first?["mode"] as? String == "extended rotation")
        #expect(adapters.first?["advertisers"] as? Int == 2)
        #expect(BeaconExecutable.number(adapters.first?["cycle_ms"]) == 500)
        let beacons = try #require(plan["beacons"] as? [[String: Any]])
        #expect(beacons.count == 4)
        #expect(beacons.allSatisfy { $0["slots"] as? Int == 2 && BeaconExecutable.number($0["slot_ms"]) == 250 })
        // Two beacons on each set, taking turns 0 and 1.
        for handle in [0, 1] {
            #expect(beacons.filter { $0["advertiser"] as? Int == handle }.compactMap { $0["slot"] as? Int }.sorted() == [0, 1])
        }
        // Nothing was advertised: --plan only probes.
        #expect(!result.stdout.contains("air "))

        let table = try BeaconExecutable.run(["advertise", Self.room, "-i", "virtual:sets=2", "--plan"])
        #expect(table.status == 0, "\(table)")
        #expect(table.stdout.contains("extended rotation"), "\(table)")
        #expect(table.lines.contains { $0.hasPrefix("room-west") && $0.contains("1 of 2") }, "\(table)")
    }

    // MARK: Signals

    @Test func sigtermStopsCleanlyWithinASecond() async throws {
        let run = try BeaconExecutable.start(["advertise", Self.room, "-i", "virtual", "--air-log", "-"])
        #expect(await run.waitForOutput(containing: "ADV_NONCONN_IND"), "stdout:\n\(run.stdout)\nstderr:\n\(run.stderr)")
        let sent = ContinuousClock.now
        run.send(SIGTERM)
        let status = await run.waitForExit(timeout: .seconds(60))
        let elapsed = ContinuousClock.now - sent
        #expect(status == 0, "stdout:\n\(run.stdout)\nstderr:\n\(run.stderr)")
        #expect(elapsed < .seconds(60), "took \(elapsed)") // a hang detector, not a speed test (speeds are in BENCHMARKS.md)
        #expect(run.stdout.contains("advertising stopped"), "\(run.stdout)")
    }

    @Test func sighupReloadsChangedProfilesAndKeepsTheOldOnesWhenBroken() async throws {
        let original = try String(contentsOf: BeaconExecutable.packageRoot.appendingPathComponent(Self.room), encoding: .utf8)
        let path = try BeaconExecutable.temporaryFile(named: "room.yaml", contents: original)
        let run = try BeaconExecutable.start(["advertise", path, "-i", "virtual", "--air-log", "-"])
        #expect(await run.waitForOutput(containing: "ADV_NONCONN_IND"))

        // A broken file: reported, and the run goes on.
        try Data((original + "\nmajor: [\n").utf8).write(to: URL(fileURLWithPath: path))
        run.send(SIGHUP)
        #expect(await run.waitForOutput(containing: "still advertising the beacons from before"), "\(run.stdout)\n\(run.stderr)")
        #expect(run.stderr.contains("\(path):"), "\(run.stderr)")

        // A changed minor: a new identity, so a new derived address and new data on air.
        try Data(original.replacingOccurrences(of: "minor: 3,", with: "minor: 7,").utf8).write(to: URL(fileURLWithPath: path))
        let expected = try #require(try ExpectedBeacon.from(path).first { $0.name == "room-south" })
        run.send(SIGHUP)
        #expect(await run.waitForOutput(containing: "applying the difference, now 4 beacons"), "\(run.stdout)")
        #expect(await run.waitForOutput(containing: expected.address), "\(run.stdout)")
        // Enough of the unchanged beacon's events on the controller's clock to judge its gaps:
        // waited for, not slept for, so a busy machine only makes the test slower.
        let north = try #require(try ExpectedBeacon.from(path).first { $0.name == "room-north" })
        let heard = await run.waitForOutput { out in AirLogLine.all(out).filter { $0.address == north.address }.count >= 12 }
        #expect(heard, "\(run.stdout)")
        run.send(SIGINT)
        #expect(await run.waitForExit(timeout: .seconds(60)) == 0, "\(run.stdout)\n\(run.stderr)")
        let south = AirLogLine.all(run.stdout).filter { $0.address == expected.address }
        #expect(!south.isEmpty && south.allSatisfy { $0.data == expected.data }, "\(run.stdout)")
        // Only the difference was applied: an unchanged beacon stayed on air through the reload,
        // never missing more than one of its 100 ms events.
        let times = AirLogLine.all(run.stdout).filter { $0.address == north.address }.map(\.time)
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
        #expect(times.count >= 12 && (gaps.max() ?? 1) < 0.25, "room-north gaps: \(gaps)")
    }
}

extension CLIResult {
    /// The same output with `hcitool -i NAME` as `hcitool -i hci0`, for the listing checks.
    func replacingAdapter(_ name: String) -> CLIResult {
        CLIResult(status: status, stdout: stdout.replacingOccurrences(of: "hcitool -i \(name) ", with: "hcitool -i hci0 "), stderr: stderr)
    }
}
