// SPDX-License-Identifier: GPL-2.0-or-later
import TextLayout
import BeaconCodec
import BeaconAdapters
import BeaconJSON
import HCI

/// A ``FleetPlan`` for people (the summary before a run, the per-beacon table) and for programs
/// (its JSON object, docs/JSON.md): per beacon, which adapter and advertiser carry it, its turn in
/// a rotation, and how often a scanner gets a chance to see it. Every front end that shows a plan
/// (the CLI's `advertise --plan`, a dry run, a run's start, a map's notes) shows this text.
public enum PlanReport {
    /// `virtual: extended rotation on 2 of 16 sets (Bluetooth 5.4), turns of 300 ms, cycle 600 ms`
    public static func adapterLine(_ a: AdapterPlan) -> String {
        let caps = a.capabilities
        let version = caps.hciVersion.name.map { "Bluetooth \($0)" } ?? caps.hciVersion.description
        var line = "\(caps.adapter): \(a.mode.rawValue)"
        switch a.mode {
        case .legacy: line += " (one advertiser; \(version))"
        case .extendedSets, .extendedRotation:
            if let api = caps.managementAPI {
                // The kernel's instances, not HCI sets (the version from Read Controller Information).
                line += " on \(a.advertisers.count) of \(caps.advertisingSets) free kernel instances (management API \(api.version), \(version))"
                if let usable = api.usableInstances, usable < api.freeInstances.count {
                    line += "; the controller holds only \(usable) of the \(api.freeInstances.count) free instances at once"
                }
                if !api.controllerRunsInstances {
                    line += "; the kernel would rotate its instances itself, 2 s each, so beacon uses one and rotates on it"
                }
                if !api.extendedCommands {
                    line += "; Add Advertising has no interval field: the kernel advertises every \(text(ManagementAPIInfo.addAdvertisingInterval)), not at the profile's interval"
                }
            } else {
                line += " on \(a.advertisers.count) of \(caps.advertisingSets) sets (\(version))"
            }
        }
        if a.rotates {
            line += ", turns of \(text(a.slotDuration)), cycle \(text(a.cycleDuration))"
            if let events = a.eventsPerTurn {
                let count = events.lowerBound == events.upperBound ? "\(events.lowerBound)" : "\(events.lowerBound)–\(events.upperBound)"
                line += ", \(count) \(Plural.word(events.upperBound, "event")) per turn"
            }
            let intervals = Set(a.advertisers.flatMap(\.beacons).map { a.onAirInterval(of: $0) })
            if intervals.count == 1, let i = intervals.first { line += " at \(i.millisecondText) ms" }
            let t = a.turnTiming
            line += "; \(Plural.of(t.commands, "command")) a turn at \(NumberText.string(t.commandTime.seconds * 1000, places: 1)) ms each"
        }
        return line
    }

    /// Fleets up to this size get the per-beacon table without asking.
    public static let tableWithoutAsking = 8

    /// The summary printed before a run: a line for the fleet and its coverage, one per adapter,
    /// one for the per-beacon rates, the warnings (grouped), each broken to fit 80 columns, and
    /// the per-beacon table for small fleets or with `verbose`.
    ///
    /// - Parameters:
    ///   - plan: the plan to describe.
    ///   - verbose: the per-beacon table whatever the fleet's size.
    ///   - tableOmitted: for a large fleet without `verbose`, how to get the table (the front
    ///     end's words: a flag, a button), shown in parentheses in its place.
    ///   - naming: the front end's name for each `FrontEndTerm` the backend reasons, warnings
    ///     and notes refer to (nil for a term it has no name for: the concept in words).
    public static func summary(_ plan: FleetPlan, verbose: Bool = false, tableOmitted: String,
                               namedBy naming: (FrontEndTerm) -> String?) -> [String] {
        let placements = plan.placements
        let count = placements.count
        // A scenario may hide every beacon: no coverage, no adapter in use, nothing to tabulate.
        if count == 0 { return ["plan: no beacons on air"] }
        var head = "plan: \(Plural.of(count, "beacon")) on \(Plural.of(plan.adapters.count, "adapter"))"
        if plan.meetsGoal {
            head += "; each beacon on air at least every \(text(plan.longestSilence)) (goal \(text(plan.maximumSilence)))"
        } else {
            let need = plan.adaptersNeeded.map { "; \($0) adapters like these would meet it" } ?? "; more adapters would not help: lower the beacons' intervals"
            head += "; goal NOT met: a beacon may go unseen for \(text(plan.longestSilence)) (goal \(text(plan.maximumSilence)))\(need)"
        }
        var lines = [head]
        for a in plan.adapters {
            lines.append("  " + adapterLine(a))
            if let why = a.capabilities.backendReason { lines.append("    backend: \(why.text(namedBy: naming))") }
        }
        let rates = placements.map(\.eventsPerSecond).sorted()
        if let low = rates.first {
            let median = rates[rates.count / 2]
            let least = NumberText.rounded(low, places: 1)
            lines.append("  per beacon: \(NumberText.string(least)) \(Plural.word(least, "event"))/s at least, \(NumberText.string(median, places: 1)) median; longest silence \(text(plan.longestSilence))")
        }
        lines += plan.warnings.map { "warning: \($0.text(namedBy: naming))" }
        lines += plan.notes.map { "note: \($0.text(namedBy: naming))" }
        // Prose fits 80 columns; the table below is as wide as its columns.
        lines = lines.flatMap { LineWrapping.wrap($0) }
        if verbose || count <= tableWithoutAsking {
            lines += table(plan).lines
        } else {
            lines.append("  (\(tableOmitted))")
        }
        return lines
    }

    /// `legacy`, or `set 3`: the advertiser that carries a beacon.
    public static func advertiserText(_ p: Placement) -> String { p.seat.advertiserText }

    /// One row per beacon: adapter, advertiser, turn, time on air, events a second, longest gap.
    public static func table(_ plan: FleetPlan) -> TextTable {
        var table = TextTable(headers: ["BEACON", "ADAPTER", "ADVERTISER", "TURN", "ON-AIR", "INTERVAL", "EVENTS/S", "MAX-GAP"])
        for p in plan.placements {
            let rotating = p.slots > 1
            table.append([
                p.beacon.name,
                p.adapter.text,
                advertiserText(p),
                rotating ? "\(p.slot + 1) of \(p.slots)" : "-",
                rotating ? "\(text(p.slotDuration)) every \(text(p.cycle))" : "always",
                "\(p.interval.millisecondText) ms" + (p.intervalChanged ? " (asks \(p.profileInterval.millisecondText))" : ""),
                NumberText.string(p.eventsPerSecond, places: 1),
                text(p.longestGap),
            ])
        }
        return table
    }

    /// The plan as one JSON object: `adapters`, `beacons` (one object each, as in ``table(_:)``),
    /// the goal and what the plan reaches (times in milliseconds), `warnings` and `notes`; the
    /// terms of reasons, warnings and notes as `naming` names them (see
    /// ``summary(_:verbose:tableOmitted:namedBy:)``).
    public static func json(_ plan: FleetPlan, namedBy naming: (FrontEndTerm) -> String?) -> JSONValue {
        .object([
            ("adapters", .array(plan.adapters.map { a in
                let caps = a.capabilities
                return .object([
                    ("adapter", .string(caps.adapter.text)),
                    ("mode", .string(a.mode.rawValue)),
                    ("hci_version", .string(caps.hciVersion.name ?? caps.hciVersion.description)),
                    ("extended_advertising", .bool(caps.hasExtendedAdvertising)),
                    ("advertising_sets", .int(caps.advertisingSets)),
                    ("advertisers", .int(a.advertisers.count)),
                    ("rotates", .bool(a.rotates)),
                    ("slot_ms", .double(milliseconds(a.slotDuration))),
                    ("cycle_ms", .double(milliseconds(a.cycleDuration))),
                    ("events_per_turn", a.eventsPerTurn.map { .int($0.lowerBound) } ?? .null),
                    ("command_ms", .double(milliseconds(a.turnTiming.commandTime))),
                    ("commands_per_turn", a.rotates ? .int(a.turnTiming.commands) : .null),
                    ("backend_reason", .string(caps.backendReason?.text(namedBy: naming))),
                ])
            })),
            ("beacons", .array(plan.placements.map { p in
                .object([
                    ("beacon", .string(p.beacon.name)),
                    ("adapter", .string(p.adapter.text)),
                    ("advertiser", .int(p.advertiser)),
                    ("mode", .string(p.mode.rawValue)),
                    ("address", .string(p.beacon.address.description)),
                    ("slot", .int(p.slot)),
                    ("slots", .int(p.slots)),
                    ("slot_ms", .double(milliseconds(p.slotDuration))),
                    ("cycle_ms", .double(milliseconds(p.cycle))),
                    ("interval_ms", .double(p.interval.milliseconds)),
                    ("profile_interval_ms", .double(p.profileInterval.milliseconds)),
                    ("events_per_turn", p.slots > 1 ? .int(p.eventsPerTurn) : .null),
                    ("events_per_second", .double(NumberText.rounded(p.eventsPerSecond, places: 3))),
                    ("longest_gap_ms", .double(milliseconds(p.longestGap))),
                ])
            })),
            ("goal_ms", .double(milliseconds(plan.maximumSilence))),
            ("longest_silence_ms", .double(milliseconds(plan.longestSilence))),
            ("meets_goal", .bool(plan.meetsGoal)),
            ("adapters_needed", plan.adaptersNeeded.map { .int($0) } ?? .null),
            ("warnings", .array(plan.warnings.map { .string($0.text(namedBy: naming)) })),
            ("notes", .array(plan.notes.map { .string($0.text(namedBy: naming)) })),
        ])
    }

    /// Milliseconds with at most three decimals.
    private static func milliseconds(_ d: Duration) -> Double { (d.seconds * 1_000_000).rounded() / 1000 }

    /// `300 ms`, `1.2 s`.
    private static func text(_ d: Duration) -> String { NumberText.duration(d) }
}
