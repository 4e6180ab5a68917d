// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import TestControllers
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Whatever ends a run, the teardown is attempted and the output tells the truth about it: a
/// failed teardown names the adapter and the beacons that may still be on air and exits 1; a
/// signal during start-up or a closed standard output is a clean stop.
@Suite(.serialized) struct TruthfulStopTests {
    static let room = "profiles/room-2m.yaml"
    static let names = ["room-west", "room-north", "room-east", "room-south"]
    static let disable = UInt16(0x2039)

    @Test func aTeardownRefusedWithCommandDisallowedIsNeverCalledClean() throws {
        // The second "disable all" is the teardown's.
        let peer = try FaultyController(.init(opcode: Self.disable, occurrence: 2, firstByte: 0, fault: .status(0x0C)))
        let result = try BeaconExecutable.run(["advertise", Self.room, "-i", peer.adapter, "--duration", "300ms"])
        #expect(result.status == 1, "\(result)")
        #expect(!result.stdout.contains("sets removed") && !result.stderr.contains("sets removed"), "\(result)")
        #expect(result.stderr.contains("The teardown on \(peer.adapter) failed, so \(Self.names.sorted().joined(separator: ", ")) may still be on air: run `beacon stop -i \(peer.adapter)`"), "\(result)")
        #expect((result.stdout + result.stderr).contains("Command Disallowed"), "the reason is given: \(result)")
    }

    @Test func aControllerThatFallsSilentDuringSetupEndsTheRunWithExitOne() throws {
        let peer = try FaultyController(.init(opcode: 0x2037, occurrence: 2, fault: .silence))
        let result = try BeaconExecutable.run(["advertise", Self.room, "-i", peer.adapter, "--duration", "300ms"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("no reply to LE Set Extended Advertising Data"), "\(result)")
        #expect(result.stderr.contains("The teardown on \(peer.adapter) failed, so "), "\(result)")
        #expect(!result.stdout.contains("sets removed"), "\(result)")
    }

    @Test func aHardwareErrorIsReported() throws {
        let peer = try FaultyController(.init(opcode: Self.disable, occurrence: 1, firstByte: 1, fault: .hardwareError(0x07)))
        let result = try BeaconExecutable.run(["advertise", Self.room, "-i", peer.adapter, "--duration", "2s"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("Hardware Error (code 0x07)"), "\(result)")
        #expect(peer.controller.activeAdvertisers().isEmpty, "the teardown still ran")
    }

    @Test func aClosedStandardOutputStopsTheRunCleanly() async throws {
        let peer = try FaultyController(nil)
        let process = Process()
        process.executableURL = try BeaconExecutable.location.get()
        process.arguments = ["advertise", Self.room, "-i", peer.adapter]
        process.currentDirectoryURL = BeaconExecutable.packageRoot
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Like `| head -1`: read one line, then go away.
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        #expect(String(decoding: line, as: UTF8.self).contains("on air"))
        try out.fileHandleForReading.close()
        let status = await waitForExit(process, timeout: .seconds(60))
        #expect(status == 0, "a closed standard output is a stop, not a crash (141 is death by SIGPIPE)")
        #expect(peer.controller.activeAdvertisers().isEmpty, "the beacons went off air")
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func aStopSignalDuringStartUpUndoesWhatWasSent(_ signal: Int32) async throws {
        // A slow controller: start-up takes a while, and the signal lands in the middle of it.
        let peer = try FaultyController(nil, replyDelay: .milliseconds(100))
        let run = try BeaconExecutable.start(["advertise", Self.room, "-i", peer.adapter])
        #expect(await waitUntil { peer.receivedCommands >= 3 }, "the probe started")
        run.send(signal)
        #expect(await run.waitForExit(timeout: .seconds(20)) == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(peer.controller.activeAdvertisers().isEmpty)
    }

    @Test func aReloadDuringStartUpIsAppliedOnceRunning() async throws {
        let original = try String(contentsOf: BeaconExecutable.packageRoot.appendingPathComponent(Self.room), encoding: .utf8)
        let path = try BeaconExecutable.temporaryFile(named: "room.yaml", contents: original)
        let peer = try FaultyController(nil, replyDelay: .milliseconds(100))
        let run = try BeaconExecutable.start(["advertise", path, "-i", peer.adapter])
        #expect(await waitUntil { peer.receivedCommands >= 2 }, "the probe started")
        try Data(original.replacingOccurrences(of: "minor: 3,", with: "minor: 7,").utf8).write(to: URL(fileURLWithPath: path))
        let changed = try #require(try ExpectedBeacon.from(path).first { $0.name == "room-south" })
        run.send(SIGHUP)
        #expect(await run.waitForOutput(containing: "room-south on air: \(peer.adapter) advertiser 3, \(changed.address)", timeout: .seconds(30)),
                "\(run.stdout)\n\(run.stderr)")
        run.send(SIGINT)
        #expect(await run.waitForExit(timeout: .seconds(20)) == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(peer.controller.activeAdvertisers().isEmpty)
    }

    func waitUntil(timeout: Duration = .seconds(60), _ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            if ContinuousClock.now >= deadline { return false }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return true
    }

    func waitForExit(_ process: Process, timeout: Duration) async -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            if ContinuousClock.now >= deadline { process.terminate(); return nil }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return process.terminationStatus
    }
}
