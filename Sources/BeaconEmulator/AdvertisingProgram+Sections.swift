// SPDX-License-Identifier: GPL-2.0-or-later
import HCI

extension AdvertisingProgram {
    /// One step of a program: a named group of commands (what a dry run lists under a heading).
    public struct Section: Sendable {
        /// `preamble`, `setup`, `slot 1`, `teardown`.
        public var key: String
        /// The key with what the step does.
        public var title: String
        public var commands: [any HCICommand]
    }

    /// Preamble, setup, each slot of one rotation cycle (slot 1, 2, … then back to slot 0),
    /// teardown.
    public var sections: [Section] {
        var sections = [Section(key: "preamble", title: "preamble: nothing on air, no sets (whatever an earlier run left)", commands: preamble)]
        sections.append(Section(key: "setup", title: "setup: slot 0 on air (\(onAir(slot: 0)))", commands: setup))
        let count = slots.count
        if count > 1 {
            for k in Array(1..<count) + [0] {
                sections.append(Section(key: "slot \(k)", title: "slot \(k): \(onAir(slot: k))", commands: slots[k]))
            }
        }
        sections.append(Section(key: "teardown", title: "teardown: advertising off, sets removed", commands: teardown))
        return sections
    }

    /// The beacons on air in `slot`, in words (with their set handles when sets are used).
    public func onAir(slot: Int) -> String {
        let state = states[slot]
        let names = state.keys.sorted().map { handle in
            (extended ? "set \(handle) " : "") + state[handle]!.beaconName.text
        }
        return names.isEmpty ? "nothing" : names.joined(separator: ", ")
    }
}
