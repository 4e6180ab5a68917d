// SPDX-License-Identifier: GPL-2.0-or-later
import TextLayout
import BeaconCodec
import BeaconAdapters
import BeaconEmulator
import BeaconJSON
import BeaconProfiles
import BeaconScenarios
import HCI
import LiveView
import Synchronization

/// What a running fleet shows, fed by its `EmulatorEvent`s: on a terminal, a live view redrawn
/// four times a second (see RunStatusBoard+Live.swift); elsewhere, one log line per change (the
/// events' own text, `EmulatorEvent.termedText`, its terms named by the front end's `naming`);
/// with `--json`, one JSON object per event and line.
///
/// ```swift
/// let board = RunStatusBoard(style: .lines, output: .init(out: { print($0) }, err: { print($0) }))
/// let run = FleetRun(beacons: beacons, on: [.virtual(options: [:])]) { board.record($0) }
/// if let plan = try await run.start() { board.reset(plan) }
/// ```
public final class RunStatusBoard: Sendable {
    /// How the board shows the run.
    public enum Style: Sendable {
        /// The live view (standard output is a terminal that is not `TERM=dumb`).
        case table
        /// One line per change (a pipe, a file, or the air log is being printed).
        case lines
        /// JSON Lines.
        case json
    }

    /// Where the board writes its lines.
    public struct Output: Sendable {
        /// A line of data (standard output).
        public var out: @Sendable (String) -> Void
        /// A diagnostic line (standard error).
        public var err: @Sendable (String) -> Void
        /// Whether ``err`` writes to the terminal the live view covers: then its lines wait until
        /// the view is gone.
        public var errorsShareTerminal: Bool

        public init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void, errorsShareTerminal: Bool = false) {
            self.out = out
            self.err = err
            self.errorsShareTerminal = errorsShareTerminal
        }
    }

    /// One beacon's row.
    public struct Row: Sendable {
        public var beacon: BeaconName
        public var adapter: AdapterName
        public var advertiser: String
        public var address: BluetoothAddress
        /// `waiting`, `on air`, `on air (restored)`, `stopped` or `may be on air`; for a beacon
        /// of a scenario's cast that is not in the plan, `off air since 12 s` (``isOffAir``).
        public var state = "waiting"
        /// How many times it went on air.
        public var turns = 0
        /// Its longest silence between two turns as measured (a `coverage` event): `0.98 s`, or
        /// `1.3 s > 1 s` past the plan's bound; `-` until measured.
        public var silence = "-"
        public var lastError = "-"
        /// Sends deliberately non-conforming data (`format: raw`, `patch:`): marked in the table.
        public var nonConforming = false
        /// One of a scenario's beacons that is off air, out of the plan: the row stays, with the
        /// adapter it was on, its turns and its last error (see ``keep(_:)``).
        public var isOffAir = false
    }

    struct State: Sendable {
        var rows: [Row] = []
        /// Rotation slots carried out per adapter.
        var slots: [AdapterName: Int] = [:]
        /// Errors reported by the controllers (error and update-failed events).
        var errors = 0
        /// The live view's messages (notes, errors), and those not yet printed on standard error.
        var messages = LiveMessages()
        /// play and walk: the scenario clock or the walker, asked at each redraw.
        var headline: (@Sendable () -> Headline)?
        /// play: the scenario's beacons, and which are off air since when (``keep(_:)``).
        var cast: ScenarioOffAir?
    }

    public let style: Style
    /// The terminal layer of the live view (table style only).
    let terminal: LiveTerminal?
    let output: Output
    /// Whether "off air" changes are printed as lines (`cycle` shows only who goes on air).
    let showsOffAir: Bool
    /// The front end's names for the terms in the events' text (nil: the concept in words).
    let naming: @Sendable (FrontEndTerm) -> String?
    let start = ContinuousClock.now
    let state = Mutex(State())
    /// Told after each change the board shows (``onChange(_:)``).
    let observers = Mutex<[@Sendable () -> Void]>([])

    /// - Parameters:
    ///   - style: how to show the run.
    ///   - showsOffAir: whether the lines include beacons going off air.
    ///   - terminal: the terminal the live view is drawn on (used with ``Style/table`` only).
    ///   - output: where lines go.
    ///   - naming: the front end's names for the terms the events' text refers to (a stop, an
    ///     examination of the adapter); nil for a term: its concept in words.
    public init(style: Style, showsOffAir: Bool = true, terminal: LiveTerminal? = nil, output: Output,
                naming: @escaping @Sendable (FrontEndTerm) -> String? = { _ in nil }) {
        self.style = style
        self.showsOffAir = showsOffAir
        self.naming = naming
        self.terminal = style == .table ? terminal : nil
        self.output = output
    }

    /// From now on `observer` is called after each change the board shows (an event that changes
    /// a row, a new plan, a message): a live page follows the board with it. Called on the
    /// thread of the change; it must be quick.
    public func onChange(_ observer: @escaping @Sendable () -> Void) {
        observers.withLock { $0.append(observer) }
    }

    /// Tells the observers.
    func changed() {
        for observer in observers.withLock({ $0 }) { observer() }
    }

    /// Seconds since the board was made, as the lines print it: `+1.234 s`.
    public var elapsed: Double { (ContinuousClock.now - start).seconds }

    /// The rows as they stand, in the plan's order.
    public var rows: [Row] { state.withLock { $0.rows } }

    static func stamp(_ seconds: Double) -> String {
        let ms = Int((seconds * 1000).rounded())
        let fraction = String(ms % 1000)
        return "+\(ms / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction) s"
    }

    /// Starts over with the beacons of `plan` (a new run, or a reload). A beacon that stays keeps
    /// its row's state and counts: a re-plan leaves it on air, so no event would set them again.
    /// A beacon of a scenario's cast the plan no longer has keeps its row, off air.
    public func reset(_ plan: FleetPlan) {
        state.withLock { s in
            var before: [String: Row] = [:]
            for r in s.rows { before["\(r.adapter) \(r.beacon)"] = r }
            let rows = plan.placements.map { p in
                var row = Row(beacon: p.beacon.beaconName, adapter: p.adapter, advertiser: PlanReport.advertiserText(p), address: p.beacon.address,
                              nonConforming: p.beacon.rawData != nil)
                if let was = before["\(p.adapter) \(p.beacon.name)"] {
                    (row.state, row.turns, row.lastError, row.address) = (was.state, was.turns, was.lastError, was.address)
                    // Back in the plan before its on-air event.
                    if was.isOffAir { row.state = "waiting" }
                }
                return row
            }
            let placed = Set(rows.map(\.beacon))
            s.rows = rows + s.rows.filter { !placed.contains($0.beacon) }.map { r in
                var r = r
                r.isOffAir = true
                return r
            }
            Self.placeCast(&s)
            s.slots = [:]
        }
        changed()
    }

    /// Takes one event (called from the runners' tasks).
    public func record(_ event: EmulatorEvent) {
        let now = elapsed
        state.withLock { s in
            switch event {
            case let .onAir(beacon, adapter, advertiser, address, _):
                if let i = s.rows.firstIndex(where: { $0.beacon == beacon && $0.adapter == adapter }) {
                    s.rows[i].state = "on air"
                    s.rows[i].turns += 1
                    s.rows[i].address = address
                    s.rows[i].isOffAir = false
                } else {
                    // A beacon an update adds goes on air before the plan that has it is shown
                    // (``reset(_:)``, which keeps this row).
                    s.rows.append(Row(beacon: beacon, adapter: adapter, advertiser: "set \(advertiser)", address: address, state: "on air", turns: 1))
                }
            case let .offAir(beacon, adapter, _):
                if let i = s.rows.firstIndex(where: { $0.beacon == beacon && $0.adapter == adapter && !$0.isOffAir }) {
                    s.rows[i].state = "waiting"
                }
            case let .slot(adapter, _, _, _):
                s.slots[adapter, default: 0] += 1
            case let .error(adapter, message):
                s.errors += 1
                for i in s.rows.indices where s.rows[i].adapter == adapter && !s.rows[i].isOffAir { s.rows[i].lastError = message.text(namedBy: naming) }
            case let .stopped(adapter, teardown):
                for i in s.rows.indices where s.rows[i].adapter == adapter && !s.rows[i].isOffAir {
                    s.rows[i].state = teardown.isClean ? "stopped" : "may be on air"
                }
            case let .updateFailed(_, adapter, message):
                s.errors += 1
                for i in s.rows.indices where s.rows[i].adapter == adapter && !s.rows[i].isOffAir { s.rows[i].lastError = message.text(namedBy: naming) }
            case let .coverage(adapter, report):
                for b in report.beacons {
                    guard let measured = b.longestSilence,
                          let i = s.rows.firstIndex(where: { $0.beacon == b.beacon && $0.adapter == adapter }) else { continue }
                    s.rows[i].silence = NumberText.duration(measured) + (b.missedPlan ? " > \(NumberText.duration(b.planned))" : "")
                }
            case let .recovered(adapter, _, beacons, _, _):
                for i in s.rows.indices where s.rows[i].adapter == adapter && beacons.contains(s.rows[i].beacon) {
                    s.rows[i].state = "on air (restored)"
                }
            default:
                // .applied, .turnTiming, and any event added later: the lines and JSON show it.
                break
            }
        }
        switch event {
        // The rows do not show these.
        case .slot, .applied, .turnTiming: break
        default: changed()
        }
        switch style {
        case .table:
            // The view shows it at the next redraw; errors and the end are worth a message too.
            switch event {
            // Who times the turns is for --json and the lines; the view has no room for it.
            case .onAir, .offAir, .slot, .applied, .turnTiming: break
            // The coverage report is prose: broken to fit 80 columns, as the plan is.
            case .coverage: if let line = Self.line(event, showsOffAir: false, namedBy: naming) { LineWrapping.wrap(line).forEach(message) }
            default: if let line = Self.line(event, showsOffAir: false, namedBy: naming) { message(line) }
            }
        case .lines:
            if let line = Self.line(event, showsOffAir: showsOffAir, namedBy: naming) { output.out("\(Self.stamp(now)) \(line)") }
        case .json:
            output.out(Self.json(event, time: now, namedBy: naming).text)
        }
    }

    /// A free-form message (reloads, stopping): a line, or a JSON `note`.
    public func note(_ message: String) {
        switch style {
        case .table: self.message(message)
        case .lines: output.out("\(Self.stamp(elapsed)) \(message)")
        case .json: output.out(RunEventObject(time: Self.round(elapsed), .note(message: message)).json.text)
        }
    }

    /// The event's line in the log, if the log shows it (`EmulatorEvent.isNews`; off air only
    /// with `showsOffAir`), its terms as `naming` names them.
    static func line(_ event: EmulatorEvent, showsOffAir: Bool, namedBy naming: (FrontEndTerm) -> String?) -> String? {
        guard event.isNews else { return nil }
        if case .offAir = event, !showsOffAir { return nil }
        return event.termedText.text(namedBy: naming)
    }

    /// The event as a JSON object (docs/schema/run-event.schema.json), `time` seconds into the
    /// run; the terms in its messages as `naming` names them (nil: the concept in words).
    public static func json(_ event: EmulatorEvent, time: Double, namedBy naming: (FrontEndTerm) -> String? = { _ in nil }) -> JSONValue {
        let kind: RunEvent = switch event {
        case let .onAir(beacon, adapter, advertiser, address, power):
            .onAir(beacon: beacon.text, adapter: adapter.text, advertiser: Int(advertiser), address: address.description, selectedTxPower: power.map(Int.init))
        case let .offAir(beacon, adapter, advertiser):
            .offAir(beacon: beacon.text, adapter: adapter.text, advertiser: Int(advertiser))
        case let .slot(adapter, index, commands, lateness):
            .slot(adapter: adapter.text, index: index, commands: commands, latenessMs: round(lateness.seconds * 1000))
        case let .error(adapter, message):
            .error(adapter: adapter.text, message: message.text(namedBy: naming))
        case let .turnTiming(adapter, byController):
            .turnTiming(adapter: adapter.text, byController: byController)
        case let .applied(generation, adapter):
            .applied(adapter: adapter.text, generation: generation)
        case let .updateFailed(generation, adapter, message):
            .updateFailed(adapter: adapter.text, generation: generation, message: message.text(namedBy: naming))
        case let .recovered(adapter, reason, beacons, after, afterAdapterBack):
            .recovered(adapter: adapter.text, reason: reason.text(namedBy: naming), beacons: beacons.map(\.text),
                       afterMs: round(after.seconds * 1000), afterAdapterBackMs: afterAdapterBack.map { round($0.seconds * 1000) })
        case let .coverage(adapter, r):
            .coverage(adapter: adapter.text, final: r.final, longestSilenceMs: round(r.longestSilence.seconds * 1000),
                      plannedSilenceMs: round(r.plannedSilence.seconds * 1000), goalMs: round(r.goal.seconds * 1000),
                      latestTurnMs: round(r.latestTurn.seconds * 1000), commandMs: r.commandTime.map { round($0.seconds * 1000) },
                      plannedCommandMs: round(r.plannedCommandTime.seconds * 1000), missedPlan: r.missedPlan,
                      message: r.termedText.text(namedBy: naming),
                      beacons: r.beacons.map { b in
                          .init(beacon: b.beacon.text, longestSilenceMs: b.longestSilence.map { round($0.seconds * 1000) },
                                plannedMs: round(b.planned.seconds * 1000), turns: b.turns,
                                eventsPerSecond: b.eventsPerSecond.map { NumberText.rounded($0, places: 3) })
                      })
        case let .replanned(adapter, commandTime, slot, longest, _):
            .replanned(adapter: adapter.text, commandMs: round(commandTime.seconds * 1000), slotMs: round(slot.seconds * 1000),
                       longestSilenceMs: round(longest.seconds * 1000), message: event.termedText.text(namedBy: naming))
        case let .stopped(adapter, teardown):
            if case let .incomplete(names, reason) = teardown {
                .stopped(adapter: adapter.text, left: .init(beacons: names.map(\.text), reason: reason.text(namedBy: naming)))
            } else {
                .stopped(adapter: adapter.text, left: nil)
            }
        }
        return RunEventObject(time: round(time), kind).json
    }

    /// Event times in JSON: to the millisecond.
    public static func round(_ value: Double) -> Double { NumberText.rounded(value, places: 3) }
}
