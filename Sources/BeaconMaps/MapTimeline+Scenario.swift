// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconProfiles

extension MapTimeline {
    /// One pass of a scenario: the beacons on air at its start and each `show:` and `hide:`
    /// after it (field changes leave a beacon on air and are not drawn).
    public init(_ timeline: ScenarioTimeline) {
        let start = timeline.initialState
        var changes: [(time: Double, id: String, onAir: Bool)] = []
        for timed in timeline.pass {
            changes += timed.change.show.map { (timed.time, $0, true) }
            changes += timed.change.hide.map { (timed.time, $0, false) }
        }
        self.init(duration: timeline.scenario.duration, initiallyOnAir: Set(start.onAir.map(\.name)), changes: changes)
    }
}

extension MapScene {
    /// A scenario's floor plan as it starts: the beacons off air at the start (`hidden:`) drawn so.
    public static func scenario(_ timeline: ScenarioTimeline, title: String) -> MapScene {
        let hidden = timeline.scenario.hidden
        var scene = plan(of: timeline.scenario.fleet, title: title, style: { hidden.contains($0.name) ? .offAir : .onAir })
        let shows = timeline.pass.reduce(0) { $0 + $1.change.show.count + $1.change.hide.count }
        scene.notes.append("at 0 s of \(SVGText.number(timeline.scenario.duration)) s; \(shows) beacons shown or hidden later (an .html map has a time slider)")
        return scene
    }
}
