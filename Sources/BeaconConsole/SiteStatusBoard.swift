// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconJSON
import BeaconSite
import LiveView
import Synchronization
import TextLayout

/// What `beacon site` shows while its controller (or a site of one host) runs: on a terminal, a
/// live view of the whole site redrawn four times a second (``liveScreen(now:)``: the radios
/// above the beacons, the newest events, the unmet coverage goals in the summary); elsewhere one
/// line per event (the events' own text, SiteEventText.swift); with `--json`, one JSON object per
/// event. The same choice, terminal layer and redraw loop as ``RunStatusBoard``.
public final class SiteStatusBoard: Sendable {
    public let style: RunStatusBoard.Style
    /// The first line of the view, before "— Ctrl-C stops".
    public let title: String
    /// Whether SIGHUP reads the site file again (a site with a broker), said in the title.
    public let reloads: Bool
    let terminal: LiveTerminal?
    let output: RunStatusBoard.Output
    /// Seconds since the run began: the events' `time` and the view's "since".
    let clock: @Sendable () -> Double

    private struct State {
        var status: SiteStatus
        var messages = LiveMessages()
    }

    private let state: Mutex<State>

    /// - Parameters:
    ///   - placement: where the site's beacons go before any event says otherwise.
    ///   - terminal: the terminal the live view is drawn on (with ``RunStatusBoard/Style/table`` only).
    ///   - clock: seconds since the run began.
    public init(site: Site, placement: SitePlacement, title: String, reloads: Bool, style: RunStatusBoard.Style, terminal: LiveTerminal? = nil,
                output: RunStatusBoard.Output, clock: @escaping @Sendable () -> Double) {
        self.style = style
        self.title = title
        self.reloads = reloads
        self.terminal = style == .table ? terminal : nil
        self.output = output
        self.clock = clock
        state = Mutex(State(status: SiteStatus(site: site, placement: placement)))
    }

    /// The site as the events so far show it.
    public var status: SiteStatus { state.withLock { $0.status } }

    /// An event of the site's controller (from any thread).
    public func record(_ event: SiteController.Event) {
        let now = clock()
        state.withLock { $0.status.record(event, at: now) }
        // The tables show the beacons and the placement; the rest is news worth a line.
        let news = switch event {
        case .beacon, .desired, .placed, .unplaced: false
        default: true
        }
        show(event.text, json: { event.json(time: $0) }, at: now, news: news)
    }

    /// An event of a site run on this host (no broker).
    public func record(_ event: LocalSiteRun.Event) {
        let now = clock()
        state.withLock { $0.status.record(event, at: now) }
        let news = if case .failed = event { true } else { false }
        show(event.text, json: { event.json(time: $0) }, at: now, news: news)
    }

    /// An event's line, its JSON object, or (`news`) a message under the view's tables.
    private func show(_ text: String, json: (Double) -> JSONValue, at now: Double, news: Bool) {
        switch style {
        case .json: output.out(json(now).text)
        case .lines: output.out(text)
        case .table: if news { state.withLock { $0.messages.append(text, holdingBack: false) } }
        }
    }

    /// A diagnostic (a reload, a site file's issue): on standard error; with the view up, under
    /// its table too, and on standard error once it is gone when that is the terminal it covers.
    public func note(_ text: String) {
        guard style == .table else { return output.err(text) }
        let holdBack = output.errorsShareTerminal
        state.withLock { $0.messages.append(text, holdingBack: holdBack) }
        if !holdBack { output.err(text) }
    }

    // MARK: - The view

    static let radioColumns = [
        LiveColumn("RADIO"), LiveColumn("STATE"), LiveColumn("SINCE", alignment: .right, dropOrder: 2),
        LiveColumn("ON AIR", alignment: .right), LiveColumn("CAPACITY", alignment: .right, dropOrder: 1),
    ]

    static let beaconColumns = [
        LiveColumn("BEACON"), LiveColumn("IDENTITY", dropOrder: 3), LiveColumn("RADIO", dropOrder: 1), LiveColumn("STATE"),
        LiveColumn("SINCE", alignment: .right, dropOrder: 2), LiveColumn("WHY"),
    ]

    /// A reason in the table is cut to this many columns (the summary and the lines say it
    /// whole), so that one long reason does not push the other columns off an 80-column screen.
    static let reasonWidth = 32

    /// The view at `now` (seconds since the run began; the board's clock by default).
    public func liveScreen(now: Double? = nil) -> LiveScreen {
        let now = now ?? clock()
        let s = state.withLock { $0 }
        let status = s.status
        let radios = status.radios.map { radio -> LiveRow in
            let load = status.load(of: radio.id)
            let (words, rowStatus): (String, LiveStatus) = switch radio.state {
            case .waiting: ("waiting", .idle)
            case .online: ("online", .active)
            case .offline: ("offline", .problem)
            case .failed(let reason): ("failed: \(reason)", .problem)
            }
            return LiveRow([radio.id.description, words, Self.since(radio.since, now: now), "\(load.onAir) of \(load.carried)", String(radio.capacity)],
                           status: rowStatus)
        }
        // Off air before on air (problems first anyway): what the site misses comes first.
        let ordered = status.beacons.filter { $0.state != .onAir } + status.beacons.filter { $0.state == .onAir }
        let beacons = ordered.map { beacon -> LiveRow in
            let (words, why, rowStatus): (String, String, LiveStatus) = switch beacon.state {
            case .waiting: ("waiting", "", .idle)
            case .onAir: ("on air", "", .active)
            case .off(let reason): ("off air", reason, .idle)
            case .error(let reason): ("error", reason, .problem)
            case .unplaced(let reason): ("not placed", reason, .problem)
            }
            return LiveRow([beacon.name, beacon.id, beacon.radio?.description ?? "-", words, Self.since(beacon.since, now: now),
                            LiveScreen.fit(why, Self.reasonWidth)], status: rowStatus)
        }
        let stops = reloads ? "Ctrl-C stops, SIGHUP reloads" : "Ctrl-C stops"
        return LiveScreen(title: "\(title) — \(stops)", columns: Self.beaconColumns, rows: beacons, placeholder: "no beacons",
                          messages: s.messages.shown, summary: Self.summary(status), lead: LiveTable(columns: Self.radioColumns, rows: radios))
    }

    /// `2/3 radios online · 150/160 beacons on air · unmet: 1 not placed, 9 off air (6 pi-east is
    /// offline, 3 switched off)`: short, so that the counts fit 80 columns before the reasons.
    public static func summary(_ status: SiteStatus) -> String {
        let online = status.radios.filter { $0.state == .online }.count
        let onAir = status.beacons.filter { $0.state == .onAir }.count
        var text = "\(online)/\(status.radios.count) \(Plural.word(status.radios.count, "radio")) online · "
            + "\(onAir)/\(status.beacons.count) \(Plural.word(status.beacons.count, "beacon")) on air"
        if status.brokerConnected == false { text += " · broker connection lost" }
        let unmet = status.unmet
        var missed: [String] = []
        if unmet.unplaced > 0 { missed.append("\(unmet.unplaced) not placed") }
        let off = unmet.offAir.reduce(0) { $0 + $1.count }
        if off > 0 { missed.append("\(off) off air (" + unmet.offAir.map { "\($0.count) \($0.reason)" }.joined(separator: ", ") + ")") }
        if !missed.isEmpty { text += " · unmet: " + missed.joined(separator: ", ") }
        return text
    }

    /// How long ago `time` was, at `now`: `12s`, `4m05s`, `3h02m`, `2d03h`; `nil`: the state
    /// has held since the run began (time 0).
    static func since(_ time: Double?, now: Double) -> String {
        let s = max(0, Int((now - (time ?? 0)).rounded(.down)))
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }
        if s < 60 { return "\(s)s" }
        if s < 3600 { return "\(s / 60)m\(two(s % 60))s" }
        if s < 86400 { return "\(s / 3600)h\(two(s % 3600 / 60))m" }
        return "\(s / 86400)d\(two(s % 86400 / 3600))h"
    }

    /// Redraws four times a second until the task is cancelled (table style only).
    public func redrawing() -> Task<Void, Never>? {
        terminal?.redrawing { [self] in liveScreen() }
    }

    /// Leaves the view: the terminal shows what it showed before, then the summary (the only
    /// copy in the scrollback) and the notes held back.
    public func finishView() {
        guard let terminal else { return }
        terminal.finish()
        output.out(Self.summary(status))
        for line in state.withLock({ $0.messages.takeHeldBack() }) { output.err(line) }
    }
}
