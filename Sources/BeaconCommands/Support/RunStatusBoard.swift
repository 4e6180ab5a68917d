// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconAdapters
import BeaconEmulator
import BeaconJSON
import HCITransport
import LiveView
import Synchronization

/// What a running fleet shows, fed by its ``EmulatorEvent``s: on a terminal, a live view redrawn
/// four times a second (see RunStatusBoard+Live.swift); elsewhere, one log line per change; with
/// `--json`, one JSON object per event and line.
final class RunStatusBoard: Sendable {
    enum Style: Sendable {
        /// The live view (standard output is a terminal that is not `TERM=dumb`).
        case table
        /// One line per change (a pipe, a file, or the air log is being printed).
        case lines
        /// JSON Lines.
        case json
    }

    /// One beacon's row.
    struct Row: Sendable {
        var beacon: String
        var adapter: String
        var advertiser: String
        var address: BluetoothAddress
        var state = "waiting"
        /// How many times it went on air.
        var turns = 0
        var lastError = "-"
        /// Sends deliberately non-conforming data (`format: raw`, `patch:`): marked in the table.
        var nonConforming = false
    }

    struct State: Sendable {
        var rows: [Row] = []
        /// Rotation slots carried out per adapter.
        var slots: [String: Int] = [:]
        /// Errors reported by the controllers (error and update-failed events).
        var errors = 0
        /// The live view's messages (notes, errors), oldest first.
        var messages: [String] = []
        /// Messages not yet printed on standard error (it is the terminal the view covers).
        var heldBack: [String] = []
        /// play and walk: the scenario clock or the walker, asked at each redraw.
        var headline: (@Sendable () -> Headline)?
    }

    let style: Style
    /// The terminal layer of the live view (table style only).
    let terminal: LiveTerminal?
    /// Whether "off air" changes are printed as lines (`cycle` shows only who goes on air).
    let showsOffAir: Bool
    let start = ContinuousClock.now
    let state = Mutex(State())

    init(style: Style, showsOffAir: Bool = true, colour: Bool = false) {
        self.style = style
        self.showsOffAir = showsOffAir
        terminal = style == .table ? LiveOutput.terminal(colour: colour) : nil
    }

    /// Seconds since the board was made, as the lines print it: `+1.234 s`.
    var elapsed: Double { (ContinuousClock.now - start).seconds }

    static func stamp(_ seconds: Double) -> String {
        let ms = Int((seconds * 1000).rounded())
        let fraction = String(ms % 1000)
        return "+\(ms / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction) s"
    }

    /// Starts over with the beacons of `plan` (a new run, or a reload). A beacon that stays keeps
    /// its row's state and counts: a re-plan leaves it on air, so no event would set them again.
    func reset(_ plan: FleetPlan) {
        state.withLock { s in
            var before: [String: Row] = [:]
            for r in s.rows { before["\(r.adapter) \(r.beacon)"] = r }
            s.rows = plan.placements.map { p in
                var row = Row(beacon: p.beacon.name, adapter: p.adapter, advertiser: PlanReport.advertiserText(p), address: p.beacon.address,
                              nonConforming: p.beacon.rawData != nil)
                if let was = before["\(p.adapter) \(p.beacon.name)"] {
                    (row.state, row.turns, row.lastError, row.address) = (was.state, was.turns, was.lastError, was.address)
                }
                return row
            }
            s.slots = [:]
        }
    }

    /// Takes one event (called from the runners' tasks).
    func record(_ event: EmulatorEvent) {
        let now = elapsed
        state.withLock { s in
            switch event {
            case let .onAir(beacon, adapter, advertiser, address, _):
                if let i = s.rows.firstIndex(where: { $0.beacon == beacon && $0.adapter == adapter }) {
                    s.rows[i].state = "on air"
                    s.rows[i].turns += 1
                    s.rows[i].address = address
                } else {
                    // A beacon an update adds goes on air before the plan that has it is shown
                    // (``reset(_:)``, which keeps this row).
                    s.rows.append(Row(beacon: beacon, adapter: adapter, advertiser: "set \(advertiser)", address: address, state: "on air", turns: 1))
                }
            case let .offAir(beacon, adapter, _):
                if let i = s.rows.firstIndex(where: { $0.beacon == beacon && $0.adapter == adapter }) {
                    s.rows[i].state = "waiting"
                }
            case let .slot(adapter, _, _, _):
                s.slots[adapter, default: 0] += 1
            case let .error(adapter, message):
                s.errors += 1
                for i in s.rows.indices where s.rows[i].adapter == adapter { s.rows[i].lastError = message }
            case let .stopped(adapter, teardown):
                for i in s.rows.indices where s.rows[i].adapter == adapter {
                    s.rows[i].state = teardown.isClean ? "stopped" : "may be on air"
                }
            case let .updateFailed(_, adapter, message):
                s.errors += 1
                for i in s.rows.indices where s.rows[i].adapter == adapter { s.rows[i].lastError = message }
            case let .recovered(adapter, _, beacons, _, _):
                for i in s.rows.indices where s.rows[i].adapter == adapter && beacons.contains(s.rows[i].beacon) {
                    s.rows[i].state = "on air (restored)"
                }
            default:
                // .applied, .turnTiming, and any event added later: the lines and JSON show it.
                break
            }
        }
        switch style {
        case .table:
            // The view shows it at the next redraw; errors and the end are worth a message too.
            switch event {
            // Who times the turns is for --json and the lines; the view has no room for it.
            case .onAir, .offAir, .slot, .applied, .turnTiming: break
            default: if let line = Self.line(event, showsOffAir: false) { message(line) }
            }
        case .lines:
            if let line = Self.line(event, showsOffAir: showsOffAir) { LineOutput.out("\(Self.stamp(now)) \(line)") }
        case .json:
            LineOutput.out(Self.json(event, time: now).text)
        }
    }

    /// A free-form message (reloads, stopping): a line, or a JSON `note`.
    func note(_ message: String) {
        switch style {
        case .table: self.message(message)
        case .lines: LineOutput.out("\(Self.stamp(elapsed)) \(message)")
        case .json: LineOutput.out(EventObject.object(time: Self.round(elapsed), event: "note", [("message", .string(message))]).text)
        }
    }

    static func line(_ event: EmulatorEvent, showsOffAir: Bool) -> String? {
        switch event {
        case let .onAir(beacon, adapter, advertiser, address, power):
            let tx = power.map { ", TX \($0) dBm" } ?? ""
            // Through the management API the kernel picks the address, not the profile.
            let from = isManagementAPI(adapter) ? "address chosen by the kernel" : "\(address)"
            return "\(beacon) on air: \(adapter) advertiser \(advertiser), \(from)\(tx)"
        case let .offAir(beacon, adapter, advertiser):
            return showsOffAir ? "\(beacon) off air: \(adapter) advertiser \(advertiser)" : nil
        case let .slot(adapter, index, _, lateness):
            // Only late turns are news; on time is the normal case.
            let ms = lateness.seconds * 1000
            return ms > 20 ? "\(adapter): turn \(index) started \(Int(ms.rounded())) ms late" : nil
        case let .error(adapter, message):
            return "\(adapter): error: \(message)"
        case let .updateFailed(generation, adapter, message):
            return "\(adapter): update \(generation) not applied (the beacons from before stay on air): \(message)"
        case .applied:
            return nil
        case let .recovered(adapter, reason, beacons, after, afterAdapterBack):
            let back = afterAdapterBack.map { " (\(Int(($0.seconds * 1000).rounded())) ms after the adapter was back)" } ?? ""
            return "\(adapter): watchdog: \(reason); \(beacons.joined(separator: ", ")) back on air after \(Int((after.seconds * 1000).rounded())) ms\(back)"
        case let .turnTiming(adapter, byController):
            return byController
                ? "\(adapter): the controller ends each turn after the beacons' events (controller-timed turns)"
                : "\(adapter): a set did not stop after its events in time: the host times the turns again"
        case let .stopped(adapter, teardown):
            if isManagementAPI(adapter), teardown == .clean {
                return "\(adapter): advertising stopped (beacon's instances removed; other programs' instances left as they were)"
            }
            return "\(adapter): \(Self.describe(teardown))"
        }
    }

    /// Whether `adapter` (as named with -i) is a `mgmt:` adapter.
    static func isManagementAPI(_ adapter: String) -> Bool {
        if case .management? = try? AdapterSpec(parsing: adapter) { return true }
        return false
    }

    /// What a teardown left, in words.
    static func describe(_ teardown: Teardown) -> String {
        switch teardown {
        case .clean: "advertising stopped (advertising off, sets removed)"
        case .nothingSent: "nothing was sent to the controller, nothing to undo"
        case let .incomplete(names, reason):
            "the teardown failed (\(reason)): \(names.isEmpty ? "advertising" : names.joined(separator: ", ")) may still be on air; run beacon stop on this adapter"
        }
    }

    static func json(_ event: EmulatorEvent, time: Double) -> JSONValue {
        let kind: String
        var members: [(String, JSONValue)]
        switch event {
        case let .onAir(beacon, adapter, advertiser, address, power):
            kind = "on_air"
            members = [("beacon", .string(beacon)), ("adapter", .string(adapter)),
                       ("advertiser", .int(advertiser)), ("address", .string(address.description)), ("selected_tx_power", .int(power))]
        case let .offAir(beacon, adapter, advertiser):
            kind = "off_air"
            members = [("beacon", .string(beacon)), ("adapter", .string(adapter)), ("advertiser", .int(advertiser))]
        case let .slot(adapter, index, commands, lateness):
            kind = "slot"
            members = [("adapter", .string(adapter)), ("index", .int(index)), ("commands", .int(commands)),
                       ("lateness_ms", .double(round(lateness.seconds * 1000)))]
        case let .error(adapter, message):
            kind = "error"
            members = [("adapter", .string(adapter)), ("message", .string(message))]
        case let .turnTiming(adapter, byController):
            kind = "turn_timing"
            members = [("adapter", .string(adapter)), ("by_controller", .bool(byController))]
        case let .applied(generation, adapter):
            kind = "applied"
            members = [("adapter", .string(adapter)), ("generation", .int(generation))]
        case let .updateFailed(generation, adapter, message):
            kind = "update_failed"
            members = [("adapter", .string(adapter)), ("generation", .int(generation)), ("message", .string(message))]
        case let .recovered(adapter, reason, beacons, after, afterAdapterBack):
            kind = "recovered"
            members = [("adapter", .string(adapter)), ("reason", .string(reason)),
                       ("beacons", .array(beacons.map(JSONValue.string))), ("after_ms", .double(round(after.seconds * 1000)))]
            if let afterAdapterBack { members.append(("after_adapter_back_ms", .double(round(afterAdapterBack.seconds * 1000)))) }
        case let .stopped(adapter, teardown):
            kind = "stopped"
            members = [("adapter", .string(adapter)), ("clean", .bool(teardown.isClean))]
            if case let .incomplete(names, reason) = teardown {
                members += [("may_be_on_air", .array(names.map(JSONValue.string))), ("reason", .string(reason))]
            }
        }
        return EventObject.object(time: round(time), event: kind, members)
    }

    /// Event times in JSON: to the millisecond.
    static func round(_ value: Double) -> Double { NumberText.rounded(value, places: 3) }
}
