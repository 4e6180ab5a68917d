// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconConsole
import BeaconProfiles
import BeaconScenarios
import Testing

/// The live view's title of a play: the pass it is in and the step it waits for.
@Suite struct PlaybackProgressTests {
    /// `door` and `desk` take turns every 3 s, looping until stopped.
    static let timeline = ScenarioTimeline(try! ScenarioLoader.parse("""
        fleet:
          defaults: {uuid: 8F0C4E62-3B1A-4C7E-9D52-6A1F0B2C3D4E, major: 1}
          beacons:
            - {name: door, minor: 1}
            - {name: desk, minor: 2}
        hidden: [desk]
        steps:
          - {at: 3s, hide: door}
          - {at: 3s, show: desk}
        duration: 6s
        loop: true

        """, file: "turns.yaml"))

    @Test("after a pass's last step, the title names the next pass's start")
    func titleAfterLastStepOfPass() throws {
        // 4 s into the scenario, its clock at a hundredth of the wall clock's pace, so that it
        // stays in pass 1 whatever the machine's load.
        let window = PlaybackWindow(from: 4, speed: 0.01)
        let progress = PlaybackProgress(start: .now)
        let t = Self.timeline
        progress.record(.stepped(time: 3, changes: t.changes(inPass: 0), next: t.step(after: 3, inPass: 0, until: nil),
                                 onAir: ["desk"], generation: 2, behind: false))
        let title = progress.scenarioHeadline(t.scenario, window: window).title
        #expect(title.hasSuffix(" (pass 1) · next at 6 s: pass 2 starts"), "\(title)")
    }
}
