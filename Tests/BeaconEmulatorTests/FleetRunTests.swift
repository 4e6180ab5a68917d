// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing
import BeaconAdapters
import BeaconEmulator
import BeaconProfiles
import Synchronization
import VirtualController

/// A whole run through ``FleetRun`` on the virtual controller: open, plan once, start, reload,
/// stop (by a call, before the adapters are open, by a signal), and the truth about the teardown.
@Suite(.serialized, .timeLimit(.minutes(1))) struct FleetRunTests {
    /// The events a run reported, in order.
    final class Recorder: Sendable {
        let events = Mutex<[EmulatorEvent]>([])
        func record(_ event: EmulatorEvent) { events.withLock { $0.append(event) } }
        var onAir: [BeaconName] { events.withLock { $0 }.compactMap { if case .onAir(let b, _, _, _, _) = $0 { b } else { nil } } }
        var offAir: [BeaconName] { events.withLock { $0 }.compactMap { if case .offAir(let b, _, _) = $0 { b } else { nil } } }
    }

    @Test func startReloadTheDifferenceAndStopCleanly() async throws {
        let recorder = Recorder()
        let run = FleetRun(beacons: beacons(2), on: [.virtual(options: ["sets": "8"])], report: recorder.record)
        let plan = try #require(try await run.start())
        #expect(plan.adapters.count == 1)
        let controller = try #require(run.connections.first?.virtual)
        #expect(controller.activeAdvertisers().count == 2)
        #expect(Set(recorder.onAir) == ["b0", "b1"])

        // The same beacons again: nothing to do.
        #expect(run.reload(beacons(2)) == .unchanged)
        // One more: only the new beacon goes on air; the two keep their advertisers.
        guard case .posted(let generation) = run.reload(beacons(3)) else {
            Issue.record("the reload was not posted")
            return
        }
        #expect(await run.settled(generation) == .applied)
        #expect(controller.activeAdvertisers().count == 3)
        #expect(recorder.onAir.sorted() == ["b0", "b1", "b2"], "\(recorder.events.withLock { $0 })")
        #expect(recorder.offAir.isEmpty, "a kept beacon was taken off the air")
        var plans = run.plans.makeAsyncIterator()
        let reloaded = try #require(await plans.next())
        #expect(reloaded.adapters[0].advertisers.flatMap(\.beacons).count == 3)

        run.requestStop()
        let outcome = await run.run(for: nil)
        #expect(outcome.isClean)
        #expect(outcome.teardowns.map(\.teardown) == [.clean])
        #expect(outcome.leftOnAir.isEmpty)
        #expect(controller.activeAdvertisers().isEmpty)
        #expect(run.connections.isEmpty, "the run closes what it opened")
        // The event stream finishes with the run, after the teardown's event.
        var last: EmulatorEvent?
        for await event in run.events { last = event }
        if case .stopped(_, .clean)? = last {} else { Issue.record("the last event is \(String(describing: last))") }
    }

    @Test func aStopBeforeTheAdaptersOpenOpensNothing() async throws {
        // Nothing listens on port 1: opening this adapter would fail, so a clean end proves that
        // nothing was opened.
        let run = FleetRun(beacons: beacons(1), on: [.tcp(host: "127.0.0.1", port: 1)])
        run.requestStop()
        #expect(try await run.prepare() == nil)
        #expect(try await run.start() == nil)
        let outcome = await run.run(for: nil)
        #expect(outcome.isClean && outcome.teardowns.isEmpty)
        #expect(run.reload(beacons(2)) == .stopping)
    }

    @Test func anAdapterThatFailsToOpenClosesTheOnesAlreadyOpen() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-run-air-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let air = SharedAir(directory: directory)
        let opening = AdapterOpening(air: air, advertising: true)
        // The first joins the air (a socket in its directory); the second's options are wrong.
        let run = FleetRun(beacons: beacons(1), on: [.virtual(options: [:]), .virtual(options: ["no-such-option": "1"])], opening: opening)
        let error = await #expect(throws: FleetRunError.self) { try await run.start() }
        guard case .open(.virtualConfiguration)? = error else {
            Issue.record("not an open error: \(String(describing: error))")
            return
        }
        #expect(run.connections.isEmpty)
        #expect(try air.open().peers(except: "").isEmpty, "the first virtual controller is still on the air")
    }

    @Test func allIsRefusedUnexpandedInsteadOfTrapping() {
        #expect(throws: AdapterOpenError.self) { try AdapterConnection.open(.allKernel) }
    }

    @Test func theSignalHelperStopsTheRun() async throws {
        let signals = StopSignals()
        defer { signals.cancel() }
        let run = FleetRun(beacons: beacons(2), on: [.virtual(options: [:])])
        run.stop(on: signals)
        try await run.start()
        let controller = try #require(run.connections.first?.virtual)
        #expect(controller.activeAdvertisers().count == 2)
        // The dispatch source's path, without sending the process a signal other tests would get.
        signals.deliver(SIGINT)
        #expect(await signals.wait() == SIGINT)
        let outcome = await run.run(for: nil)
        #expect(outcome.isClean)
        #expect(controller.activeAdvertisers().isEmpty)
    }

    @Test func aReloadFromFilesCarriesTheirBeaconsAndKeepsTheOldOnesWhenAFileIsBroken() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-run-reload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func profile(_ name: String, minor: Int) throws -> String {
            let path = directory.appendingPathComponent("\(name).yaml").path
            try "name: \(name)\nuuid: B9D4719F-A407-42FA-A365-1B6B03AE00CF\nmajor: 1\nminor: \(minor)\n".write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let first = try profile("one", minor: 1)
        let run = FleetRun(beacons: try ProfileLoader.load(contentsOf: first).beacons, on: [.virtual(options: [:])])
        try await run.start()
        let controller = try #require(run.connections.first?.virtual)
        #expect(try run.reload(contentsOf: [first]) == .unchanged)

        let second = try profile("two", minor: 2)
        guard case .posted(let generation) = try run.reload(contentsOf: [first, second]) else {
            Issue.record("the reload was not posted")
            return
        }
        #expect(await run.settled(generation) == .applied)
        #expect(run.beacons.map(\.name) == ["one", "two"])
        #expect(controller.activeAdvertisers().count == 2)

        let broken = directory.appendingPathComponent("broken.yaml").path
        try "name: broken\nuuid: not-a-uuid\n".write(toFile: broken, atomically: true, encoding: .utf8)
        #expect(throws: ProfileErrors.self) { try run.reload(contentsOf: [broken]) }
        #expect(run.beacons.map(\.name) == ["one", "two"], "a broken file changes nothing")

        run.requestStop()
        #expect(await run.run(for: nil).isClean)
        #expect(controller.activeAdvertisers().isEmpty)
    }
}
