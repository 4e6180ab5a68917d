// SPDX-License-Identifier: GPL-2.0-or-later
import TextLayout
import BeaconCodec
import BeaconEmulator
import LiveView

/// The live view of a running fleet: one row per beacon (problems first), the newest messages,
/// and a summary line (beacons on air, adapters, turns, errors, elapsed time).
extension RunStatusBoard {
    /// What `play` and `walk` put in the live view's title and summary: the scenario clock and
    /// the next step, or the walker's position, and the late updates.
    public struct Headline: Sendable {
        public var title: String
        /// Updates posted before the one before was applied (the controller behind the timeline).
        public var late: Int

        public init(title: String, late: Int) {
            self.title = title
            self.late = late
        }
    }

    /// From now on the view's title and summary come from `headline`, asked at each redraw.
    public func show(headline: @escaping @Sendable () -> Headline) {
        state.withLock { $0.headline = headline }
        changed()
    }

    static let columns = [
        LiveColumn("BEACON"), LiveColumn("ADAPTER", dropOrder: 3), LiveColumn("ADVERTISER", dropOrder: 2),
        LiveColumn("ADDRESS", dropOrder: 4), LiveColumn("STATE"), LiveColumn("TURNS", alignment: .right, dropOrder: 1),
        LiveColumn("SILENCE", alignment: .right, dropOrder: 1), LiveColumn("LAST ERROR"),
    ]

    /// A note or an error while the view is up: shown under the table; on standard error at once
    /// when that is not the terminal, otherwise once the view is gone.
    public func message(_ text: String) {
        let now = output.errorsShareTerminal
        state.withLock { $0.messages.append(text, holdingBack: now) }
        changed()
        if !now { output.err(text) }
    }

    /// The view as it stands.
    public func liveScreen() -> LiveScreen {
        let s = state.withLock { $0 }
        let rows = s.rows.map { r in
            let problem = r.lastError != "-" || r.state == "may be on air"
            return LiveRow([r.beacon.text + (r.nonConforming ? " (non-conforming)" : ""), r.adapter.text, r.advertiser, r.address.description, r.state, String(r.turns), r.silence, r.lastError],
                           status: problem ? .problem : (r.state.hasPrefix("on air") ? .active : .idle))
        }
        let adapters = Self.adapters(s.rows).sorted()
        let headline = s.headline?()
        let title = headline.map { "\($0.title) — Ctrl-C stops" }
            ?? "beacon: \(Self.count(s.rows.count, "beacon")) on \(adapters.map(\.text).joined(separator: ", ")) — Ctrl-C stops, SIGHUP reloads"
        return LiveScreen(title: title, columns: Self.columns, rows: rows, placeholder: "no beacons", messages: s.messages.shown,
                          summary: Self.summary(s, elapsed: elapsed))
    }

    /// `12 of 160 beacons on air · 1 adapter · 4816 turns · 0 errors · +12.3 s`.
    static func summary(_ s: State, elapsed: Double) -> String {
        let onAir = s.rows.filter { $0.state.hasPrefix("on air") }.count
        let adapters = Self.adapters(s.rows).count
        let turns = s.rows.reduce(0) { $0 + $1.turns }
        let late = s.headline.map { " · \($0().late) late" } ?? ""
        return "\(onAir) of \(count(s.rows.count, "beacon")) on air · \(count(adapters, "adapter")) · \(count(turns, "turn")) · \(count(s.errors, "error"))\(late) · +\(NumberText.fixed(elapsed, places: 1)) s"
    }

    /// `1 beacon`, `12 beacons`.
    public static func count(_ n: Int, _ noun: String) -> String { Plural.of(n, noun) }

    /// Redraws four times a second until the task is cancelled (table style only).
    public func redrawing() -> Task<Void, Never>? {
        terminal?.redrawing { [self] in liveScreen() }
    }

    /// Leaves the view: the terminal shows what it showed before, then the summary (the only
    /// copy in the scrollback) and the messages held back.
    public func finishView() {
        guard let terminal else { return }
        let summary = state.withLock { Self.summary($0, elapsed: elapsed) }
        terminal.finish()
        output.out(summary)
        for line in state.withLock({ $0.messages.takeHeldBack() }) { output.err(line) }
    }
}
