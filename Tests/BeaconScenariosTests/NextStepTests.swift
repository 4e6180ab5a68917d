// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconEmulator
import BeaconProfiles
import BeaconScenarios
import Synchronization
import Testing

/// The step a play announces as next: the next changes of the pass, else the next pass's start
/// (the fleet back as declared), never past the last pass or the play's end.
@Suite("The next step of a play")
struct NextStepTests {
    /// `door` and `till` take turns on air every 3 s; `firstAtZero`: door is shown by a step at
    /// 0 s (else it is on air as declared, and the pass's only step is at 3 s).
    static func turns(firstAtZero: Bool, loop: String = "true") throws -> ScenarioTimeline {
        let steps = firstAtZero
            ? "hidden: [door, till]\nsteps:\n  - {at: 0, show: door}\n  - {at: 3s, hide: door}\n  - {at: 3s, show: till}\n"
            : "hidden: [till]\nsteps:\n  - {at: 3s, hide: door}\n  - {at: 3s, show: till}\n"
        return ScenarioTimeline(try ScenarioLoader.parse(ScenarioParsingTests.fleet + steps + "duration: 6s\nloop: \(loop)\n", file: "t.yaml"))
    }

    /// `time pass: what` of a step, or `none`.
    static func text(_ step: ScenarioTimeline.PlayStep?) -> String {
        step.map { "\($0.time) \($0.pass): \($0)" } ?? "none"
    }

    @Test("within a pass: the next changes of the pass, all of them that are due together")
    func withinPass() throws {
        let t = try Self.turns(firstAtZero: true)
        #expect(Self.text(t.step(after: 0, inPass: 0, until: nil)) == "3.0 0: hide door; show till")
        #expect(Self.text(t.step(after: 1.5, inPass: 0, until: nil)) == "3.0 0: hide door; show till")
        #expect(Self.text(t.step(after: 6, inPass: 1, until: nil)) == "9.0 1: hide door; show till")
    }

    @Test("at the end of a looping pass: the next pass's start, at its time, with the pass's changes at 0 s")
    func endOfLoopingPass() throws {
        let atZero = try Self.turns(firstAtZero: true)
        #expect(Self.text(atZero.step(after: 3, inPass: 0, until: nil)) == "6.0 1: pass 2 starts; show door")
        #expect(Self.text(atZero.step(after: 9, inPass: 1, until: nil)) == "12.0 2: pass 3 starts; show door")
        #expect(ScenarioText.next(try #require(atZero.step(after: 3, inPass: 0, until: nil)))
                == "next at 6 s: pass 2 starts; show door")
    }

    @Test("steps not at 0 s: the next pass's start is a step of its own, before the pass's first change")
    func stepsNotAtZero() throws {
        let t = try Self.turns(firstAtZero: false)
        #expect(Self.text(t.step(after: 0, inPass: 0, until: nil)) == "3.0 0: hide door; show till")
        #expect(Self.text(t.step(after: 3, inPass: 0, until: nil)) == "6.0 1: pass 2 starts")
        #expect(Self.text(t.step(after: 6, inPass: 1, until: nil)) == "9.0 1: hide door; show till")
    }

    @Test("a pass whose last change is at its end: the next pass starts at the same time, after it")
    func lastChangeAtPassEnd() throws {
        let t = ScenarioTimeline(try ScenarioLoader.parse(ScenarioParsingTests.fleet + "steps:\n  - {at: 1s, hide: door}\nloop: 2\n", file: "t.yaml"))
        #expect(Self.text(t.step(after: 0, inPass: 0, until: 2)) == "1.0 0: hide door")
        #expect(Self.text(t.step(after: 1, inPass: 0, until: 2)) == "1.0 1: pass 2 starts")
        #expect(Self.text(t.step(after: 1, inPass: 1, until: 2)) == "2.0 1: hide door", "a change at the play's end is played")
        #expect(Self.text(t.step(after: 2, inPass: 1, until: 2)) == "none")
    }

    @Test("the last pass of a finite count, and the end of a window: nothing after the end")
    func endOfLastPass() throws {
        let t = try Self.turns(firstAtZero: false, loop: "3")
        #expect(Self.text(t.step(after: 9, inPass: 1, until: 18)) == "12.0 2: pass 3 starts")
        #expect(Self.text(t.step(after: 15, inPass: 2, until: 18)) == "none", "no pass 4")
        #expect(Self.text(t.step(after: 3, inPass: 0, until: 6)) == "none", "a pass starting at the play's end is not played")
        #expect(Self.text(t.step(after: 0, inPass: 0, until: 2)) == "none", "the pass's change comes after the play's end")
        let once = try Self.turns(firstAtZero: false, loop: "1")
        #expect(Self.text(once.step(after: 3, inPass: 0, until: 6)) == "none")
    }

    /// A stage that applies every update at once.
    final class Stage: ScenarioStage {
        let generation = Mutex(1)
        func update(_ beacons: [BeaconProfile]) -> Int { generation.withLock { $0 += 1; return $0 } }
        func settled(_ generation: Int) async -> RunningFleet.UpdateOutcome { .applied }
    }

    @Test("the player announces the steps it then makes: the next pass's start included, nothing after the end")
    func playerAnnouncesWhatItPlays() async throws {
        for firstAtZero in [true, false] {
            let timeline = try Self.turns(firstAtZero: firstAtZero, loop: "2")
            // 1000× speed: 12 ms of wall clock; the verdict is the events' order, not their times.
            let player = ScenarioPlayer(timeline, window: PlaybackWindow(speed: 1000), clockEvery: nil)
            let events = Mutex<[ScenarioPlayer.Event]>([])
            await player.play(on: Stage(), from: .now) { event in events.withLock { $0.append(event) } }
            var announced: [String] = [], made: [String] = []
            for event in events.withLock({ $0 }) {
                switch event {
                case let .started(_, _, next): announced.append(Self.text(next))
                case let .stepped(time, _, next, _, _, _): made.append("\(time)"); announced.append(Self.text(next))
                default: break
                }
            }
            let times = announced.map { $0.split(separator: " ")[0] }
            // Each announcement is the step made next, and the last one announces nothing.
            #expect(Array(times.dropLast()) == made.map { Substring($0) }, "\(announced)")
            #expect(announced.last == "none", "\(announced)")
            #expect(announced.contains("6.0 1: pass 2 starts" + (firstAtZero ? "; show door" : "")), "\(announced)")
        }
    }
}
