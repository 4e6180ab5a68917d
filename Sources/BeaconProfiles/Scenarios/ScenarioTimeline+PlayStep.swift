// SPDX-License-Identifier: GPL-2.0-or-later

extension ScenarioTimeline {
    /// One update a play makes: the changes due at one time of one pass, or the start of a pass
    /// (the fleet back as declared, then any change due at the pass's 0 s).
    public struct PlayStep: Hashable, Sendable, CustomStringConvertible {
        /// Seconds of scenario time (passes included).
        public var time: Double
        /// Which pass (from 0) it belongs to.
        public var pass: Int
        /// Whether pass ``pass`` starts here, from the fleet as declared.
        public var startsPass: Bool
        /// The changes due then, in time line order (none for a pass start with no change at 0 s).
        public var changes: [TimedChange]

        public init(time: Double, pass: Int, startsPass: Bool, changes: [TimedChange]) {
            self.time = time
            self.pass = pass
            self.startsPass = startsPass
            self.changes = changes
        }

        /// `hide door; show desk`, or `pass 2 starts; show door`.
        public var description: String {
            let changed = changes.map(\.change.description)
            return ((startsPass ? ["pass \(pass + 1) starts"] : []) + changed).joined(separator: "; ")
        }
    }

    /// The start of pass `index` (from 1): the fleet back as declared, with the pass's changes at
    /// its 0 s.
    public func start(ofPass index: Int) -> PlayStep {
        let changes = pass.prefix { $0.time == 0 }.map { placed($0, inPass: index) }
        return PlayStep(time: Double(index) * scenario.duration, pass: index, startsPass: true, changes: changes)
    }

    /// The step a play comes to after scenario time `time` of pass `index` (after the step it
    /// made then, or after its start): the next changes of that pass, or else the start of the
    /// next pass; nil when there is none before `end` (the play's end, nil: the last pass's end
    /// or never). A pass's last change may be at the next pass's start: the start still comes
    /// after it, as the play makes it. Changes at `end` are played; a pass starting at `end` is not.
    /// Costs the log of the pass's length plus the changes returned.
    public func step(after time: Double, inPass index: Int, until end: Double?) -> PlayStep? {
        let passStart = Double(index) * scenario.duration
        // The same sum as `changes(inPass:)`, so that times compare exactly.
        var low = pass.startIndex, high = pass.endIndex
        while low < high {
            let mid = (low + high) / 2
            if passStart + pass[mid].time > time { high = mid } else { low = mid + 1 }
        }
        if low < pass.endIndex {
            let due = passStart + pass[low].time
            if end.map({ due <= $0 }) ?? true {
                let changes = pass[low...].prefix { $0.time == pass[low].time }.map { placed($0, inPass: index) }
                return PlayStep(time: due, pass: index, startsPass: false, changes: changes)
            }
            return nil
        }
        let next = index + 1
        guard scenario.duration > 0, scenario.passes.map({ next < $0 }) ?? true else { return nil }
        let nextStart = Double(next) * scenario.duration
        if let end, nextStart >= end { return nil }
        return start(ofPass: next)
    }
}
