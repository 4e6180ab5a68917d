// SPDX-License-Identifier: GPL-2.0-or-later

/// One line of `beacon advertise`, `cycle`, `play` or `walk --json` (docs/schema/run-event.schema.json):
/// the ``EventObject`` envelope ("time", "event") and the members of its kind (``RunEvent``). The one
/// description of those members: the commands print ``EventLine/json``, and a Swift program encodes and
/// decodes the same members (`Codable`, no Foundation). Values are written as given (callers
/// round times and milliseconds).
///
/// Decoding dispatches on "event": an unknown kind is `DecodingError.dataCorrupted` naming
/// "event"; a missing member `keyNotFound`, a member of the wrong type `typeMismatch`, each
/// naming the member.
public typealias RunEventObject = EventLine<RunEvent>

/// The kinds of run event and their members (the "event" and members of a ``RunEventObject``).
public enum RunEvent: EventKind {
    /// "plan": the fleet's plan (docs/schema/run-event.schema.json `plan-object`), as
    /// `PlanReport.json` writes it.
    case plan(JSONValue)
    case onAir(beacon: String, adapter: String, advertiser: Int, address: String, selectedTxPower: Int?)
    case offAir(beacon: String, adapter: String, advertiser: Int)
    case slot(adapter: String, index: Int, commands: Int, latenessMs: Double)
    case error(adapter: String, message: String)
    case turnTiming(adapter: String, byController: Bool)
    case applied(adapter: String, generation: Int)
    case updateFailed(adapter: String, generation: Int, message: String)
    case recovered(adapter: String, reason: String, beacons: [String], afterMs: Double, afterAdapterBackMs: Double?)
    /// "stopped": clean when `left` is `nil`; else what may still be on air and why.
    case stopped(adapter: String, left: LeftOnAir?)
    case note(message: String)
    case scenarioStart(scenarioTime: Double, unixTime: Double, onAir: [String], next: NextStep?)
    case scenarioStep(scenarioTime: Double, unixTime: Double, changes: [String], onAir: [String], generation: Int, behind: Bool, next: NextStep?)
    case scenarioClock(scenarioTime: Double, next: NextStep?)
    case walker(walkTime: Double, unixTime: Double, x: Double, y: Double, generation: Int?, behind: Bool, beacons: [WalkerBeacon])
    /// "coverage": what each rotating beacon really got on air, measured from the controller's
    /// answers, against the plan (on the way when it first misses the plan, and at the end).
    case coverage(adapter: String, final: Bool, longestSilenceMs: Double, plannedSilenceMs: Double, goalMs: Double, latestTurnMs: Double,
                  commandMs: Double?, plannedCommandMs: Double, missedPlan: Bool, message: String, beacons: [CoverageBeacon])
    /// "replanned": the controller answered the run's commands clearly slower (or faster) than
    /// planned, and the turns were planned again with the measured time: the new turns and the
    /// new plan's longest silence.
    case replanned(adapter: String, commandMs: Double, slotMs: Double, longestSilenceMs: Double, message: String)

    /// Which kind this is (its "event" is the raw value).
    public var name: Name {
        switch self {
        case .plan: .plan
        case .onAir: .onAir
        case .offAir: .offAir
        case .slot: .slot
        case .error: .error
        case .turnTiming: .turnTiming
        case .applied: .applied
        case .updateFailed: .updateFailed
        case .recovered: .recovered
        case .stopped: .stopped
        case .note: .note
        case .scenarioStart: .scenarioStart
        case .scenarioStep: .scenarioStep
        case .scenarioClock: .scenarioClock
        case .walker: .walker
        case .coverage: .coverage
        case .replanned: .replanned
        }
    }

    /// Every "event" a run writes.
    public enum Name: String, Sendable, CaseIterable {
        case plan, onAir = "on_air", offAir = "off_air", slot, error, turnTiming = "turn_timing", applied
        case updateFailed = "update_failed", recovered, stopped, note
        case scenarioStart = "scenario-start", scenarioStep = "scenario-step", scenarioClock = "scenario-clock", walker
        case coverage, replanned
    }

    /// What a "stopped" event that is not clean says may still be on air.
    public struct LeftOnAir: Sendable, Equatable {
        /// "may_be_on_air": the beacons that may still be on air.
        public var beacons: [String]
        /// "reason": why the teardown was not clean.
        public var reason: String
        public init(beacons: [String], reason: String) {
            self.beacons = beacons
            self.reason = reason
        }
    }

    /// A scenario's next step: "next_time" and "next" (both `null` when there is none).
    public struct NextStep: Sendable, Equatable {
        /// "next_time": the step's scenario time (seconds).
        public var time: Double
        /// "next": what the step changes.
        public var description: String
        public init(time: Double, description: String) {
            self.time = time
            self.description = description
        }
    }

    /// A positioned beacon in a "walker" event's "beacons" object (its member name is ``name``).
    public struct WalkerBeacon: Sendable, Equatable {
        /// The beacon's name in the fleet.
        public var name: String
        /// "measured_power": its power at 1 m (dBm).
        public var measuredPower: Int
        /// "tx_power": its radio output power (dBm), `nil` when the controller chooses.
        public var txPower: Int?
        /// Metres from the walker; not finite writes `null` (and `null` reads as NaN).
        public var distance: Double
        public init(name: String, measuredPower: Int, txPower: Int?, distance: Double) {
            self.name = name
            self.measuredPower = measuredPower
            self.txPower = txPower
            self.distance = distance
        }
    }

    /// One beacon of a "coverage" event.
    public struct CoverageBeacon: Sendable, Equatable {
        /// "beacon": its name.
        public var beacon: String
        /// "longest_silence_ms": the longest it may have gone unheard between two turns (`null`
        /// before it came back for a second turn).
        public var longestSilenceMs: Double?
        /// "planned_ms": the plan's bound for it.
        public var plannedMs: Double
        /// "turns": its turns on air.
        public var turns: Int
        /// "events_per_second": the events a second its turns certainly had (`null` before two turns).
        public var eventsPerSecond: Double?
        public init(beacon: String, longestSilenceMs: Double?, plannedMs: Double, turns: Int, eventsPerSecond: Double? = nil) {
            self.beacon = beacon
            self.longestSilenceMs = longestSilenceMs
            self.plannedMs = plannedMs
            self.turns = turns
            self.eventsPerSecond = eventsPerSecond
        }
    }

    /// The member names of every kind: written and read only through these.
    enum Key: String, CodingKey {
        case event, plan, beacon, adapter, advertiser, address, selectedTxPower = "selected_tx_power"
        case index, commands, latenessMs = "lateness_ms", message, byController = "by_controller", generation
        case reason, beacons, afterMs = "after_ms", afterAdapterBackMs = "after_adapter_back_ms", clean, mayBeOnAir = "may_be_on_air"
        case scenarioTime = "scenario_time", unixTime = "unix_time", changes, onAir = "on_air", behind
        case nextTime = "next_time", next, walkTime = "walk_time", x, y
        case measuredPower = "measured_power", txPower = "tx_power", distance
        case final, longestSilenceMs = "longest_silence_ms", plannedSilenceMs = "planned_silence_ms", goalMs = "goal_ms"
        case latestTurnMs = "latest_turn_ms", commandMs = "command_ms", plannedCommandMs = "planned_command_ms", missedPlan = "missed_plan"
        case plannedMs = "planned_ms", turns, eventsPerSecond = "events_per_second", slotMs = "slot_ms"
    }

    /// The kind's members in the documented order.
    public var members: [(String, JSONValue)] {
        func m(_ key: Key, _ value: JSONValue) -> (String, JSONValue) { (key.rawValue, value) }
        func strings(_ list: [String]) -> JSONValue { .array(list.map { .string($0) }) }
        func next(_ step: NextStep?) -> [(String, JSONValue)] {
            [m(.nextTime, step.map { .double($0.time) } ?? .null), m(.next, .string(step?.description))]
        }
        let members: [(String, JSONValue)]
        switch self {
        case .plan(let plan): members = [m(.plan, plan)]
        case let .onAir(beacon, adapter, advertiser, address, power):
            members = [m(.beacon, .string(beacon)), m(.adapter, .string(adapter)), m(.advertiser, .int(advertiser)),
                       m(.address, .string(address)), m(.selectedTxPower, .int(power))]
        case let .offAir(beacon, adapter, advertiser):
            members = [m(.beacon, .string(beacon)), m(.adapter, .string(adapter)), m(.advertiser, .int(advertiser))]
        case let .slot(adapter, index, commands, lateness):
            members = [m(.adapter, .string(adapter)), m(.index, .int(index)), m(.commands, .int(commands)), m(.latenessMs, .double(lateness))]
        case let .error(adapter, message):
            members = [m(.adapter, .string(adapter)), m(.message, .string(message))]
        case let .turnTiming(adapter, byController):
            members = [m(.adapter, .string(adapter)), m(.byController, .bool(byController))]
        case let .applied(adapter, generation):
            members = [m(.adapter, .string(adapter)), m(.generation, .int(generation))]
        case let .updateFailed(adapter, generation, message):
            members = [m(.adapter, .string(adapter)), m(.generation, .int(generation)), m(.message, .string(message))]
        case let .recovered(adapter, reason, beacons, after, afterAdapterBack):
            members = [m(.adapter, .string(adapter)), m(.reason, .string(reason)), m(.beacons, strings(beacons)), m(.afterMs, .double(after))]
                + (afterAdapterBack.map { [m(.afterAdapterBackMs, .double($0))] } ?? [])
        case let .stopped(adapter, left):
            members = [m(.adapter, .string(adapter)), m(.clean, .bool(left == nil))]
                + (left.map { [m(.mayBeOnAir, strings($0.beacons)), m(.reason, .string($0.reason))] } ?? [])
        case .note(let message): members = [m(.message, .string(message))]
        case let .scenarioStart(scenarioTime, unixTime, onAir, step):
            members = [m(.scenarioTime, .double(scenarioTime)), m(.unixTime, .double(unixTime)), m(.onAir, strings(onAir))] + next(step)
        case let .scenarioStep(scenarioTime, unixTime, changes, onAir, generation, behind, step):
            members = [m(.scenarioTime, .double(scenarioTime)), m(.unixTime, .double(unixTime)), m(.changes, strings(changes)),
                       m(.onAir, strings(onAir)), m(.generation, .int(generation)), m(.behind, .bool(behind))] + next(step)
        case let .scenarioClock(scenarioTime, step):
            members = [m(.scenarioTime, .double(scenarioTime))] + next(step)
        case let .walker(walkTime, unixTime, x, y, generation, behind, beacons):
            members = [m(.walkTime, .double(walkTime)), m(.unixTime, .double(unixTime)), m(.x, .double(x)), m(.y, .double(y)),
                       m(.generation, .int(generation)), m(.behind, .bool(behind)),
                       m(.beacons, .object(beacons.map { b in
                           (b.name, .object([m(.measuredPower, .int(b.measuredPower)), m(.txPower, .int(b.txPower)), m(.distance, .double(b.distance))]))
                       }))]
        case let .replanned(adapter, command, slot, longest, message):
            members = [m(.adapter, .string(adapter)), m(.commandMs, .double(command)), m(.slotMs, .double(slot)),
                       m(.longestSilenceMs, .double(longest)), m(.message, .string(message))]
        case let .coverage(adapter, final, longest, planned, goal, late, command, plannedCommand, missed, message, beacons):
            members = [m(.adapter, .string(adapter)), m(.final, .bool(final)), m(.longestSilenceMs, .double(longest)),
                       m(.plannedSilenceMs, .double(planned)), m(.goalMs, .double(goal)), m(.latestTurnMs, .double(late)),
                       m(.commandMs, command.map { .double($0) } ?? .null), m(.plannedCommandMs, .double(plannedCommand)),
                       m(.missedPlan, .bool(missed)), m(.message, .string(message)),
                       m(.beacons, .array(beacons.map { b in
                           .object([m(.beacon, .string(b.beacon)), m(.longestSilenceMs, b.longestSilenceMs.map { .double($0) } ?? .null),
                                    m(.plannedMs, .double(b.plannedMs)), m(.turns, .int(b.turns)),
                                    m(.eventsPerSecond, b.eventsPerSecond.map { .double($0) } ?? .null)])
                       }))]
        }
        return members
    }

    /// The "event" member.
    public var event: String { name.rawValue }

    /// Decodes the kind of a run event line (see ``RunEventObject``). A walker's
    /// "beacons" come in name order (a JSON object's members have none), and so do a plan's
    /// object members (``JSONValue``'s decoding).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        let name = try c.decode(.event, as: "a run event (\(Name.allCases.map(\.rawValue).joined(separator: ", ")))") { Name(rawValue: $0) }
        func string(_ key: Key) throws -> String { try c.decode(String.self, forKey: key) }
        func int(_ key: Key) throws -> Int { try c.decode(Int.self, forKey: key) }
        func double(_ key: Key) throws -> Double { try c.decode(Double.self, forKey: key) }
        func strings(_ key: Key) throws -> [String] { try c.decode([String].self, forKey: key) }
        func next() throws -> NextStep? {
            let time = try c.decodeNullable(forKey: .nextTime) { try c.decode(Double.self, forKey: $0) }
            let what = try c.decodeNullable(forKey: .next) { try c.decode(String.self, forKey: $0) }
            guard let time, let what else { return nil }
            return NextStep(time: time, description: what)
        }
        let kind: RunEvent
        switch name {
        case .plan: kind = .plan(try c.decode(JSONValue.self, forKey: .plan))
        case .onAir:
            kind = .onAir(beacon: try string(.beacon), adapter: try string(.adapter), advertiser: try int(.advertiser), address: try string(.address),
                          selectedTxPower: try c.decodeNullable(forKey: .selectedTxPower) { try c.decode(Int.self, forKey: $0) })
        case .offAir: kind = .offAir(beacon: try string(.beacon), adapter: try string(.adapter), advertiser: try int(.advertiser))
        case .slot: kind = .slot(adapter: try string(.adapter), index: try int(.index), commands: try int(.commands), latenessMs: try double(.latenessMs))
        case .error: kind = .error(adapter: try string(.adapter), message: try string(.message))
        case .turnTiming: kind = .turnTiming(adapter: try string(.adapter), byController: try c.decode(Bool.self, forKey: .byController))
        case .applied: kind = .applied(adapter: try string(.adapter), generation: try int(.generation))
        case .updateFailed: kind = .updateFailed(adapter: try string(.adapter), generation: try int(.generation), message: try string(.message))
        case .recovered:
            kind = .recovered(adapter: try string(.adapter), reason: try string(.reason), beacons: try strings(.beacons), afterMs: try double(.afterMs),
                              afterAdapterBackMs: try c.decodeIfPresent(Double.self, forKey: .afterAdapterBackMs))
        case .stopped:
            let clean = try c.decode(Bool.self, forKey: .clean)
            kind = .stopped(adapter: try string(.adapter), left: clean ? nil : LeftOnAir(beacons: try strings(.mayBeOnAir), reason: try string(.reason)))
        case .note: kind = .note(message: try string(.message))
        case .scenarioStart:
            kind = .scenarioStart(scenarioTime: try double(.scenarioTime), unixTime: try double(.unixTime), onAir: try strings(.onAir), next: try next())
        case .scenarioStep:
            kind = .scenarioStep(scenarioTime: try double(.scenarioTime), unixTime: try double(.unixTime), changes: try strings(.changes), onAir: try strings(.onAir),
                                 generation: try int(.generation), behind: try c.decode(Bool.self, forKey: .behind), next: try next())
        case .scenarioClock: kind = .scenarioClock(scenarioTime: try double(.scenarioTime), next: try next())
        case .walker:
            let list = try c.nestedContainer(keyedBy: JSONValue.MemberKey.self, forKey: .beacons)
            let beacons = try list.allKeys.sorted { $0.stringValue < $1.stringValue }.map { name in
                let b = try list.nestedContainer(keyedBy: Key.self, forKey: name)
                return WalkerBeacon(name: name.stringValue, measuredPower: try b.decode(Int.self, forKey: .measuredPower),
                                    txPower: try b.decodeNullable(forKey: .txPower) { try b.decode(Int.self, forKey: $0) },
                                    distance: try b.decodeNullable(forKey: .distance) { try b.decode(Double.self, forKey: $0) } ?? .nan)
            }
            kind = .walker(walkTime: try double(.walkTime), unixTime: try double(.unixTime), x: try double(.x), y: try double(.y),
                           generation: try c.decodeNullable(forKey: .generation) { try c.decode(Int.self, forKey: $0) },
                           behind: try c.decode(Bool.self, forKey: .behind), beacons: beacons)
        case .replanned:
            kind = .replanned(adapter: try string(.adapter), commandMs: try double(.commandMs), slotMs: try double(.slotMs),
                              longestSilenceMs: try double(.longestSilenceMs), message: try string(.message))
        case .coverage:
            var list = try c.nestedUnkeyedContainer(forKey: .beacons)
            var beacons: [CoverageBeacon] = []
            while !list.isAtEnd {
                let b = try list.nestedContainer(keyedBy: Key.self)
                beacons.append(CoverageBeacon(beacon: try b.decode(String.self, forKey: .beacon),
                                              longestSilenceMs: try b.decodeNullable(forKey: .longestSilenceMs) { try b.decode(Double.self, forKey: $0) },
                                              plannedMs: try b.decode(Double.self, forKey: .plannedMs), turns: try b.decode(Int.self, forKey: .turns),
                                              eventsPerSecond: try b.decodeNullable(forKey: .eventsPerSecond) { try b.decode(Double.self, forKey: $0) }))
            }
            kind = .coverage(adapter: try string(.adapter), final: try c.decode(Bool.self, forKey: .final), longestSilenceMs: try double(.longestSilenceMs),
                             plannedSilenceMs: try double(.plannedSilenceMs), goalMs: try double(.goalMs), latestTurnMs: try double(.latestTurnMs),
                             commandMs: try c.decodeNullable(forKey: .commandMs) { try c.decode(Double.self, forKey: $0) },
                             plannedCommandMs: try double(.plannedCommandMs), missedPlan: try c.decode(Bool.self, forKey: .missedPlan),
                             message: try string(.message), beacons: beacons)
        }
        self = kind
    }
}
