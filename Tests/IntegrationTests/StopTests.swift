// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconAdapters
import BeaconEmulator
import BeaconProfiles
import Foundation
import HCI
import Testing

extension BumbleIntegration {
    /// After a run the controller holds nothing: no sets, nothing enabled, nothing on air.
    @Suite("Clean stop")
    struct StopTests {
        @Test("a run with a duration (legacy rotation) leaves nothing behind")
        func afterDuration() async throws {
            let profiles = BeaconExpectations.generated(3, firstMinor: 300)
            try await withBumble(["--no-extended"]) { link in
                let harness = try FleetHarness(link)
                defer { harness.close() }
                try await harness.fleet().advertise(profiles, for: .seconds(1))
                try await expectSilence(link, from: profiles)
            }
        }

        @Test("stopping a running fleet (extended sets) leaves nothing behind")
        func afterCancel() async throws {
            let profiles = try BeaconExpectations.shipped("room-2m.yaml")
            try await withBumble { link in
                let harness = try FleetHarness(link)
                defer { harness.close() }
                let fleet = harness.fleet()
                try await fleet.start(profiles)
                let addresses = Set(profiles.map(\.address.description))
                let heard = await link.waitFor(timeout: .seconds(60)) { l in
                    Set(l.advs().map(\.address)).isSuperset(of: addresses)
                }
                #expect(heard, "all four beacons on air before the stop")
                let outcome = await fleet.stop()
                #expect(outcome.isClean)
                #expect(harness.recorder.all.contains { if case .stopped(_, .clean) = $0 { true } else { false } }, "the fleet reported a clean stop")
                try await expectSilence(link, from: profiles)
            }
        }
    }
}

/// Right after a run returned: a fresh `sets` line shows nothing existing or enabled, and the
/// scanner hears nothing from our addresses from 200 ms after the stop on.
func expectSilence(_ link: BumbleLink, from profiles: [BeaconProfile], sourceLocation: Testing.SourceLocation = #_sourceLocation) async throws {
    let stopped = BumbleLink.now()
    let sets = try await link.requestSets()
    #expect(sets.isClean, "\(sets)", sourceLocation: sourceLocation)
    try await Task.sleep(for: .milliseconds(700))
    let addresses = Set(profiles.map(\.address.description))
    #expect(link.advs().contains { addresses.contains($0.address) }, "the beacons were on air before the stop", sourceLocation: sourceLocation)
    let after = link.advs(since: stopped + 0.2).filter { addresses.contains($0.address) }
    #expect(after.isEmpty, "received after the stop: \(after.prefix(3))", sourceLocation: sourceLocation)
    // And the last commands were the teardown, answered with success.
    let last = link.commands().suffix(2)
    #expect(last.allSatisfy { $0.status == 0 }, "\(Array(last))", sourceLocation: sourceLocation)
}
