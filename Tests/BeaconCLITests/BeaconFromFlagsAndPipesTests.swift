// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing
import TestSupport

/// Beacons without a file (`--uuid/--major/--minor` on `advertise` and `cycle`), `-` and pipes
/// wherever a file is read, and `beacon scan --json | beacon locate FLEET --trace -`.
@Suite struct BeaconFromFlagsAndPipesTests {
    static let uuid = "25795A1D-C318-47F0-A49D-7A2D1D58C79E"
    static var room: String { SharedAirTests.room }
    static var roomText: String { (try? String(contentsOfFile: room, encoding: .utf8)) ?? "" }

    @Test func aBeaconFromFlagsGoesOnAirNextToAFile() async throws {
        let air = try SharedAirTests.privateAir()
        let advertiser = try SharedAirTests.start(
            ["advertise", Self.room, "--uuid", "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "--major", "7", "--minor", "8",
             "--power", "-65", "--name", "door", "--tx-power", "-4", "--interval", "200", "-i", "virtual", "--json"], air: air)
        let scanner = try SharedAirTests.start(["scan", "-i", "virtual", "--json"], air: air)
        defer {
            scanner.send(SIGKILL)
            advertiser.send(SIGKILL)
        }
        func identities(_ out: String) -> Set<String> {
            Set(SharedAirTests.jsonLines(out).filter { $0["event"] as? String == "report" }
                .map { "\($0["uuid"] as? String ?? "?") \($0["major"] as? Int ?? -1) \($0["minor"] as? Int ?? -1) \($0["power"] as? Int ?? 0)" })
        }
        let expected = Set(["E2C56DB5-DFFB-48D2-B060-D0F5A71096E0 7 8 -65"] + (0...3).map { "\(Self.uuid) 1 \($0) -59" })
        let heard = await scanner.waitForOutput(timeout: .seconds(60)) { identities($0).isSuperset(of: expected) }
        #expect(heard, "scanner:\n\(scanner.output)\nadvertiser:\n\(advertiser.output)")
        scanner.send(SIGTERM)
        #expect(await scanner.waitForExit(timeout: .seconds(30)) == 0)
        #expect(identities(scanner.stdout) == expected, "\(scanner.output)")
        advertiser.send(SIGTERM)
        #expect(await advertiser.waitForExit(timeout: .seconds(30)) == 0, "\(advertiser.output)")
        // The plan names it as --name says.
        #expect(advertiser.output.contains("door"), "\(advertiser.output)")
    }

    @Test func aBeaconFromFlagsClashingWithAFileIsRefusedBeforeAnythingIsOpened() throws {
        let result = try BeaconExecutable.run(["advertise", Self.room, "--uuid", Self.uuid, "--major", "1", "--minor", "2", "-i", "virtual"])
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("command line:1:1: identity: \(Self.uuid) major 1 minor 2: the same uuid, major and minor as `room-east`"), "\(result)")
        let incomplete = try BeaconExecutable.run(["cycle", "--name", "x", "-i", "virtual"])
        #expect(incomplete.status == 2, "\(incomplete)")
        #expect(incomplete.stderr.contains("--name describe a beacon given with --uuid, --major and --minor"), "\(incomplete)")
        let bad = try BeaconExecutable.run(["advertise", "--uuid", Self.uuid, "--major", "1", "--minor", "2", "--tx-power", "30", "-i", "virtual"])
        #expect(bad.status == 2 && bad.stderr.contains("--tx-power must be from -127 to 20"), "\(bad)")
    }

    @Test func standardInputIsAProfileFile() throws {
        let validate = try BeaconExecutable.run(["validate", "-"], stdin: Self.roomText)
        #expect(validate.status == 0 && validate.stdout.contains("-: OK (4 beacons)"), "\(validate)")
        let plan = try BeaconExecutable.run(["advertise", "-", "--plan", "-i", "virtual"], stdin: Self.roomText)
        #expect(plan.status == 0 && (plan.stdout + plan.stderr).contains("4 beacons"), "\(plan)")
        // An issue in standard input names it as "stdin".
        let broken = try BeaconExecutable.run(["validate", "-"], stdin: "beacons:\n  - {name: x, uuid: nope, major: 1, minor: 1}\n")
        #expect(broken.status == 65 && broken.stderr.contains("stdin:2:"), "\(broken)")
        let twice = try BeaconExecutable.run(["validate", "-", "-"], stdin: Self.roomText)
        #expect(twice.status != 0 && twice.stderr.contains("standard input can be named once"), "\(twice)")
    }

    @Test func pipesAndFIFOsAreFilesAndAMissingShellPipeIsExplained() throws {
        let beacon = try Executables.beacon.get().path
        let shell = "\"$0\" validate <(cat \"$1\") && \"$0\" cycle <(cat \"$1\") --dwell 50ms --once --json -i virtual"
        let result = try Program.run(URL(fileURLWithPath: "/bin/bash"), ["-c", shell, beacon, Self.room])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("/dev/fd/") && result.stdout.contains("OK (4 beacons)"), "\(result)")
        // A FIFO.
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("beacon-fifo-\(UUID().uuidString)").path
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        // A hang bound of 20 s on each run (never a verdict on time): a writer that writes
        // everything and closes at once, before or after the reader opens, over and over (a
        // second open of the FIFO once waited for good for a writer that had come and gone), and
        // the same FIFO behind standard input; then a writer that comes only after the reader.
        let loop = """
            for i in $(seq 30); do
              cat "$1" > "$2" & timeout 20 "$0" validate "$2" >/dev/null || exit 1
              cat "$1" > "$2" & timeout 20 "$0" validate - < "$2" >/dev/null || exit 2
            done
            (sleep 0.2; cat "$1" > "$2") & timeout 20 "$0" validate "$2"
            """
        let viaFIFO = try Program.run(URL(fileURLWithPath: "/bin/bash"), ["-c", loop, beacon, Self.room, fifo])
        #expect(viaFIFO.status == 0 && viaFIFO.stdout.contains("OK (4 beacons)"), "\(viaFIFO)")
        // A capture through a pipe: decode --capture - reads standard input.
        let snoop = FileManager.default.temporaryDirectory.appendingPathComponent("beacon-pipe-\(UUID().uuidString).btsnoop").path
        defer { unlink(snoop) }
        let recorded = try BeaconExecutable.run(["advertise", Self.room, "-i", "virtual", "--duration", "300ms", "--btsnoop", snoop])
        #expect(recorded.status == 0, "\(recorded)")
        let fromFile = try BeaconExecutable.run(["decode", "--capture", snoop, "--json"])
        let fromPipe = try Program.run(URL(fileURLWithPath: "/bin/bash"), ["-c", "cat \"$1\" | \"$0\" decode --capture - --json", beacon, snoop])
        #expect(fromFile.status == 0 && fromPipe.status == 0 && !fromFile.stdout.isEmpty, "\(fromFile)\n\(fromPipe)")
        #expect(fromPipe.stdout == fromFile.stdout)
        // A /dev/fd path this process does not have (what sudo makes of <(…)): said so, not "permission".
        let missing = try BeaconExecutable.run(["validate", "/dev/fd/97"])
        #expect(missing.status == 1, "\(missing)")
        #expect(missing.stderr.contains("a pipe from the shell (<(…)) that this process did not get"), "\(missing)")
        #expect(!missing.stderr.contains("permission"), "\(missing)")
    }

    @Test func scanJSONPipedIntoLocateTrace() async throws {
        let air = try SharedAirTests.privateAir()
        let advertiser = try SharedAirTests.start(["advertise", Self.room, "-i", "virtual", "--json"], air: air)
        defer { advertiser.send(SIGKILL) }
        let scratch = URL(fileURLWithPath: air)
        let log = scratch.appendingPathComponent("scan.jsonl").path, pidFile = scratch.appendingPathComponent("scan.pid").path
        // The scan's pid is kept so the test can end it (SIGTERM) once the trace holds enough.
        let pipeline = """
            { BEACON_AIR="$1" "$0" scan -i virtual --json --at 0.3,-0.4 & echo $! > "$3"; wait; } \
            | tee "$4" | "$0" locate "$2" --trace - --json
            """
        let run = try BackgroundProgram(URL(fileURLWithPath: "/bin/bash"),
                                        ["-c", pipeline, try Executables.beacon.get().path, air, Self.room, pidFile, log])
        defer { run.send(SIGKILL) }
        // Wait (hang detector only) until the trace has all four beacons over more than 2 s:
        // then at least one whole 1 s window has all four.
        let deadline = ContinuousClock.now + .seconds(60)
        var enough = false
        while ContinuousClock.now < deadline, !enough {
            let reports = SharedAirTests.jsonLines((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
                .filter { $0["event"] as? String == "report" }
            let times = reports.compactMap { BeaconExecutable.number($0["time"]) }
            enough = Set(reports.compactMap { $0["minor"] as? Int }).count == 4 && (times.max() ?? 0) - (times.min() ?? 0) > 2.2
            if !enough { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(enough, "\(run.output)\nadvertiser:\n\(advertiser.output)")
        let pid = try #require(Int32(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        kill(pid, SIGTERM)
        #expect(await run.waitForExit(timeout: .seconds(60)) == 0, "\(run.output)")
        let fixes = SharedAirTests.jsonLines(run.stdout).filter { $0["beacons"] as? Int == 4 }
        #expect(!fixes.isEmpty, "\(run.output)")
        for fix in fixes {
            let x = try #require(BeaconExecutable.number(fix["x"])), y = try #require(BeaconExecutable.number(fix["y"]))
            #expect(((x - 0.3) * (x - 0.3) + (y + 0.4) * (y + 0.4)).squareRoot() < 0.15, "\(fix)")
        }
    }
}
