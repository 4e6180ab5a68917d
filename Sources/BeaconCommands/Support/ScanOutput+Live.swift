// SPDX-License-Identifier: GPL-2.0-or-later
import TextLayout
import BeaconCodec
import BeaconScanner
import BeaconSystem
import LiveView

/// The live view of a scan: the beacons heard, nearest first; the latest enters and exits; a
/// summary line (the region's state and last change, beacons, in range, reports, elapsed time).
extension ScanOutput {
    /// UUID, MAJOR, MINOR, PROXIMITY and ACCURACY stay longest; REPORTS/S, LAST SEEN and POWER go
    /// first on a narrow terminal.
    static let columns = [
        LiveColumn("UUID"), LiveColumn("MAJOR", alignment: .right), LiveColumn("MINOR", alignment: .right),
        LiveColumn("RSSI", alignment: .right, dropOrder: 4), LiveColumn("POWER", alignment: .right, dropOrder: 5),
        LiveColumn("ACCURACY", alignment: .right), LiveColumn("PROXIMITY"),
        LiveColumn("LAST SEEN", alignment: .right, dropOrder: 6), LiveColumn("REPORTS/S", alignment: .right, dropOrder: 7),
    ]

    /// When other formats than iBeacon are in the list: FORMAT and ID replace UUID, MAJOR, MINOR.
    static let mixedColumns = [LiveColumn("FORMAT"), LiveColumn("ID")] + columns.dropFirst(3)

    /// How wide plain lines may be when the terminal does not say (`TERM=dumb`).
    static var plainWidth: Int { LiveSystemCalls().terminalSize(of: StandardStream.output)?.columns ?? 160 }

    func liveScreen(now: ContinuousClock.Instant) -> LiveScreen {
        let s = state.withLock { $0 }
        let at = s.rangedAt ?? now
        let onlyIBeacons = s.beacons.allSatisfy { $0.identity.format == .iBeacon }
        let rows = s.beacons.map { b in
            let identity: [String]
            if onlyIBeacons, case .iBeacon(let i) = b.identity {
                identity = [i.uuid.description, String(i.major), String(i.minor)]
            } else {
                identity = [b.identity.format.rawValue, BeaconText.identity(b.identity)]
            }
            return LiveRow(identity + [
                b.rssi.map { String(NumberText.rounded($0, places: 1)) } ?? "-",
                String(b.measuredPower),
                b.accuracy.map { "\(NumberText.fixed($0)) m" } ?? "-",
                b.proximity.rawValue,
                "\(NumberText.fixed((at - b.lastSeen).seconds)) s ago",
                NumberText.fixed(b.reportsPerSecond, places: 1),
            ], status: b.proximity == .unknown ? .idle : .active)
        }
        let inRange = s.beacons.filter { $0.proximity != .unknown }.count
        let title = "beacon scan on \(adapter) (\(s.mode?.rawValue ?? "starting") scanning), region \(region) — Ctrl-C stops"
        let summary = "\(Self.regionState(s)) · \(Plural.of(s.beacons.count, "beacon")) · \(inRange) in range · \(Plural.of(s.reports, "report")) · +\(NumberText.fixed(seconds(now), places: 1)) s"
        return LiveScreen(title: title, columns: onlyIBeacons ? Self.columns : Self.mixedColumns, rows: rows, placeholder: "no beacon heard yet",
                          messages: s.recent, summary: summary)
    }

    /// The region's state for the summary line: "in region since +1.2 s", "out of region since
    /// +5.0 s", or "region not entered" before its first enter.
    static func regionState(_ s: State) -> String {
        guard let region = s.region else { return "region not entered" }
        return "\(region.inside ? "in" : "out of") region since +\(NumberText.fixed(region.at, places: 1)) s"
    }

    /// Leaves the live view (once), then prints the region's enters and exits and the summary:
    /// the only copy in the scrollback.
    func finish(now: ContinuousClock.Instant = .now) {
        guard let terminal, terminal.isActive else { return }
        terminal.finish()
        let s = state.withLock { $0 }
        if s.regionLogDropped > 0 { LineOutput.out("(\(Plural.of(s.regionLogDropped, "earlier region change")) not repeated)") }
        for line in s.regionLog { LineOutput.out(line) }
        LineOutput.out(liveScreen(now: now).summary)
    }
}
