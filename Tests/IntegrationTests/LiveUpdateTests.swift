// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import BeaconCodec
import BeaconEmulator
import BeaconProfiles
import Synchronization
import Testing

extension BumbleIntegration {
    /// A running fleet changed a thousand times, faster than the controller can follow: updates
    /// coalesce, none is lost or applied out of order, and what the scanner hears at the end is
    /// the last one.
    @Suite("Live updates")
    struct LiveUpdateTests {
        /// Update k: the 16 beacons with measured power −40 − k % 50, and every tenth update
        /// moves beacon k % 16 to another minor (a new identity: new address and data, so that
        /// set is disabled, readdressed and enabled again).
        static func fleet(_ k: Int) -> [BeaconProfile] {
            BeaconExpectations.generated(16, firstMinor: 600).enumerated().map { i, b in
                var b = b
                var beacon = b.iBeacon!
                beacon.measuredPower = Int8(-40 - k % 50)
                if k % 10 == 0, i == k % 16 {
                    beacon.minor = UInt16(2000 + k)
                    b.address = BeaconProfile.derivedAddress(for: beacon)
                }
                b.beacon = .iBeacon(beacon)
                return b
            }
        }

        @Test("update 1,000 times at 100 per second on a 16-beacon fleet")
        func thousandUpdates() async throws {
            try await withBumble { link in
                let harness = try FleetHarness(link)
                defer { harness.close() }
                let fleet = harness.fleet()
                try await fleet.start(Self.fleet(0))
                var generations: [Int] = []
                for k in 1...1000 {
                    generations.append(fleet.update(Self.fleet(k)))
                    try await Task.sleep(for: .milliseconds(10))
                }
                #expect(generations == Array(2...1001), "one generation per update, in order")
                // Every update settles: applied, or replaced by a later one that was.
                #expect(await fleet.settled(generations.last!) == .applied)
                let appliedAt = BumbleLink.now()
                let applied = harness.recorder.all.compactMap { e -> Int? in
                    if case let .applied(g, _) = e { return g } else { return nil }
                }
                #expect(applied == applied.sorted() && Set(applied).count == applied.count, "applied in order, each once: \(applied.suffix(10))")
                #expect(applied.last == generations.last)
                #expect(harness.recorder.all.allSatisfy { if case .updateFailed = $0 { false } else { true } })
                // The scanner hears exactly the last update from every beacon.
                let last = Self.fleet(1000)
                let heard = await link.waitFor(timeout: .seconds(60)) { l in
                    let advs = l.advs(since: appliedAt)
                    return last.allSatisfy { b in advs.contains { $0.address == b.address.description } }
                }
                #expect(heard, "every beacon of the last update heard after it was applied")
                _ = BeaconExpectations.checkAll(link.advs(since: appliedAt + 0.05), from: last)
                let outcome = await fleet.stop()
                #expect(outcome.isClean)
                #expect(try await link.requestSets().isClean)
            }
        }
    }
}
