// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import BeaconEmulator
import HCI

/// A ``FleetPlan`` for people (the summary before a run, the `--plan` table) and for programs
/// (`--plan --json`): per beacon, which adapter and advertiser carry it, its turn in a rotation,
/// and how often a scanner gets a chance to see it.
enum PlanReport {
    /// `virtual: extended rotation on 2 of 16 sets (Bluetooth 5.4), turns of 300 ms, cycle 600 ms`
    static func adapterLine(_ a: AdapterPlan) -> String {
        let caps = a.capabilities
        let version = caps.hciVersion.name.map { "Bluetooth \($0)" } ?? caps.hciVersion.description
        var line = "\(caps.adapter): \(a.mode.rawValue)"
        switch a.mode {
        case .legacy: line += " (one advertiser; \(version))"
        case .extendedSets, .extendedRotation:
            line += " on \(a.advertisers.count) of \(caps.advertisingSets) sets (\(version))"
        }
        if a.rotates { line += ", turns of \(text(a.slotDuration)), cycle \(text(a.cycleDuration))" }
        return line
    }

    /// The summary printed before a run: adapters, the per-beacon table, the warnings.
    static func summary(_ plan: FleetPlan) -> [String] {
        let count = plan.placements.count
        var lines = ["plan: \(count) \(count == 1 ? "beacon" : "beacons") on \(plan.adapters.count) \(plan.adapters.count == 1 ? "adapter" : "adapters")"]
        lines += plan.adapters.map { "  " + adapterLine($0) }
        lines += table(plan).lines
        lines += plan.warnings.map { "warning: \($0)" }
        return lines
    }

    static func advertiserText(_ p: Placement) -> String { p.mode == .legacy ? "legacy" : "set \(p.advertiser)" }

    static func table(_ plan: FleetPlan) -> TextTable {
        var table = TextTable(headers: ["BEACON", "ADAPTER", "ADVERTISER", "TURN", "ON-AIR", "EVENTS/S", "MAX-GAP"])
        for p in plan.placements {
            let rotating = p.slots > 1
            table.append([
                p.beacon.name,
                p.adapter,
                advertiserText(p),
                rotating ? "\(p.slot + 1) of \(p.slots)" : "-",
                rotating ? "\(text(p.slotDuration)) every \(text(p.cycle))" : "always",
                NumberText.string((p.eventsPerSecond * 10).rounded() / 10),
                text(p.longestGap),
            ])
        }
        return table
    }

    static func json(_ plan: FleetPlan) -> JSONValue {
        .object([
            ("adapters", .array(plan.adapters.map { a in
                let caps = a.capabilities
                return .object([
                    ("adapter", .string(caps.adapter)),
                    ("mode", .string(a.mode.rawValue)),
                    ("hci_version", .string(caps.hciVersion.name ?? caps.hciVersion.description)),
                    ("extended_advertising", .bool(caps.hasExtendedAdvertising)),
                    ("advertising_sets", .int(caps.advertisingSets)),
                    ("advertisers", .int(a.advertisers.count)),
                    ("rotates", .bool(a.rotates)),
                    ("slot_ms", .double(milliseconds(a.slotDuration))),
                    ("cycle_ms", .double(milliseconds(a.cycleDuration))),
                ])
            })),
            ("beacons", .array(plan.placements.map { p in
                .object([
                    ("beacon", .string(p.beacon.name)),
                    ("adapter", .string(p.adapter)),
                    ("advertiser", .int(p.advertiser)),
                    ("mode", .string(p.mode.rawValue)),
                    ("address", .string(p.beacon.address.description)),
                    ("slot", .int(p.slot)),
                    ("slots", .int(p.slots)),
                    ("slot_ms", .double(milliseconds(p.slotDuration))),
                    ("cycle_ms", .double(milliseconds(p.cycle))),
                    ("events_per_second", .double((p.eventsPerSecond * 1000).rounded() / 1000)),
                    ("longest_gap_ms", .double(milliseconds(p.longestGap))),
                ])
            })),
            ("warnings", .array(plan.warnings.map { .string($0) })),
        ])
    }

    /// Milliseconds with at most three decimals.
    static func milliseconds(_ d: Duration) -> Double { (d.seconds * 1_000_000).rounded() / 1000 }

    /// `300 ms`, `1.2 s`.
    static func text(_ d: Duration) -> String {
        let ms = milliseconds(d)
        return ms < 1000 ? "\(NumberText.string(ms.rounded())) ms" : "\(NumberText.string((ms / 10).rounded() / 100)) s"
    }
}
