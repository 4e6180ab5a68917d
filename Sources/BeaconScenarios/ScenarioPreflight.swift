// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import BeaconEmulator
import BeaconProfiles
import HCI

/// Checks, before anything is sent, that the controllers would take every state a scenario puts
/// on air (not only the first): each moment's plan is checked command by command, as a start
/// checks its first plan. A scenario that would fail half-way (an interval below a Bluetooth 4.x
/// controller's 100 ms, a TX power it cannot take…) is refused whole.
public enum ScenarioPreflight {
    /// One state a controller would refuse.
    public struct Refusal: Sendable, CustomStringConvertible {
        public var time: Double
        /// The step that leads to it (nil: the start).
        public var location: SourceLocation?
        public var adapter: String
        public var reason: String

        public var description: String {
            let at = location.map { "\($0): " } ?? ""
            return "\(at)the fleet as it is at \(ScenarioTime.format(time)) s would be refused by \(adapter): \(reason)"
        }
    }

    /// The refusals, in time order (empty: every state can go on air). Controllers driven through
    /// the management API are left to their own checks (their requests are not HCI commands).
    /// `stopped` is asked before each moment: once it says yes the check ends, with the
    /// refusals found so far (a stop signal must not wait for a long scenario's every state).
    public static func refusals(_ timeline: ScenarioTimeline, planner: FleetPlanner, capabilities: [ControllerCapabilities],
                                stopped: () -> Bool = { false }) -> [Refusal] {
        let hci = capabilities.filter { $0.managementAPI == nil }
        var out: [Refusal] = []
        let states = [(0.0, nil as SourceLocation?, timeline.initialState)] + timeline.moments.map { ($0.time, $0.changes.first?.location, $0.state) }
        var previous: FleetPlan?
        for (time, location, state) in states {
            if stopped() { break }
            // Planned as a running fleet plans each update: from the plan before it.
            let plan = planner.plan(state.onAir, on: hci, keeping: previous)
            previous = plan
            for adapterPlan in plan.adapters {
                let caps = adapterPlan.capabilities
                for command in AdvertisingProgram(plan: adapterPlan).allCommands {
                    do throws(HCIValidationError) { try command.validate(for: caps.hciInfo) } catch {
                        out.append(Refusal(time: time, location: location, adapter: caps.adapter, reason: "\(type(of: command).name): \(error)"))
                        break
                    }
                }
            }
        }
        return out
    }
}
