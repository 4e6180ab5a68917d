// SPDX-License-Identifier: GPL-2.0-or-later
// libFuzzer target `scenarios`: arbitrary text as a scenario file through ScenarioLoader.parse
// (Yams, the alias measure, the scenario and fleet readers, the 100,000-changes limit), then
// the timeline every play and preflight walks. Built and run by scripts/fuzz.
import BeaconProfiles

/// Named as if it sat in scenarios/, so a `fleet: ../profiles/…` seed reads the shipped profile
/// (scripts/fuzz runs from the repository's root).
let scenarioFile = "scenarios/fuzz.yaml"

@_cdecl("LLVMFuzzerTestOneInput")
public func scenariosFuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    // Files are read as UTF-8 (ProfileLoader.readText refuses anything else); invalid sequences
    // become U+FFFD here so that every input still reaches the parser.
    let text = String(decoding: fuzzInput(data, size), as: UTF8.self)
    let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).count
    do throws(ProfileErrors) {
        let scenario = try ScenarioLoader.parse(text, file: scenarioFile)
        checkScenario(scenario, lines: lines)
    } catch {
        // A rejected file says why, each reason at a place in this file (or in the fleet file it names).
        require(!error.issues.isEmpty, "ProfileErrors without an issue")
        for issue in error.issues where issue.location.file == scenarioFile {
            let at = issue.location
            require(at.line >= 1 && at.line <= lines + 1 && at.column >= 1, "issue at \(at) outside a \(lines)-line file: \(issue)")
            require(!issue.message.isEmpty, "issue without a message at \(at)")
        }
    }
    return 0
}

/// What the reader promises about an accepted scenario: a pass within the changes limit, in time
/// order, at finite times within the pass; every name a step or `hidden:` uses is a beacon of its
/// fleet; and walking every moment keeps the fleet as declared (only fields and visibility change).
func checkScenario(_ scenario: Scenario, lines: Int) {
    let names = Set(scenario.fleet.beacons.map(\.name))
    require(names.count == scenario.fleet.beacons.count, "duplicate beacon names in an accepted fleet")
    require(scenario.hidden.isSubset(of: names), "hidden beacons not in the fleet: \(scenario.hidden.subtracting(names))")
    require(scenario.duration.isFinite && scenario.duration >= 0, "duration \(scenario.duration)")
    if let passes = scenario.passes { require(passes >= 1, "passes \(passes)") }
    let timeline = ScenarioTimeline(scenario)
    require(timeline.pass.count <= Scenario.maximumChanges, "\(timeline.pass.count) changes in a pass")
    var last = -Double.infinity
    for c in timeline.pass {
        require(c.time.isFinite && c.time >= 0 && c.time >= last, "change at \(c.time) after \(last)")
        last = c.time
        let used = c.change.show + c.change.hide + c.change.beacons
        require(used.allSatisfy(names.contains), "\(c.change) names a beacon outside the fleet")
        require(c.location.file == scenarioFile && c.location.line >= 1 && c.location.line <= lines + 1, "change at \(c.location)")
    }
    var state = timeline.initialState
    var walked = 0
    timeline.forEachMoment { time, changes, isNextPass in
        require(!changes.isEmpty || isNextPass, "a moment at \(time) without changes")
        if isNextPass { state = timeline.initialState }
        for c in changes { state.apply(c.change) }
        walked += changes.count
        require(state.beacons.map(\.name) == scenario.fleet.beacons.map(\.name), "the fleet changed its beacons at \(time)")
        require(state.onAir.count + state.hidden.count == names.count, "on air and hidden do not add up at \(time)")
        return true
    }
    require(walked >= timeline.pass.count, "the walk saw \(walked) of \(timeline.pass.count) changes")
}
