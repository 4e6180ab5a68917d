// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconJSON
import BeaconScanner
import LiveView
import Synchronization

/// What `beacon scan` prints: on a terminal a live view (nearest first, see
/// ScanOutput+Live.swift) redrawn with every ranging update, with the latest enters and exits
/// under it; with `TERM=dumb` the same as plain lines at each update; otherwise (and with
/// `--json`) one JSON object per line for every report, ranging update and enter/exit.
final class ScanOutput: Sendable {
    enum Style: Sendable {
        case table
        /// The live view's lines, printed whole at each ranging update (`TERM=dumb`).
        case plain
        case json
    }

    struct State: Sendable {
        /// The latest enter/exit lines, newest last, for the table's footer.
        var recent: [String] = []
        var mode: ScanMode?
        /// The last ranging update.
        var beacons: [RangedBeacon] = []
        var rangedAt: ContinuousClock.Instant?
        /// iBeacon reports taken in (in the region).
        var reports = 0
        /// The region's own state: entered or exited, and when (seconds since the start); `nil`
        /// until its first enter. Shown on the summary line, so it never scrolls away.
        var region: (inside: Bool, at: Double)?
        /// The region's enters and exits (the events with `region_changed`), oldest first, for
        /// the scrollback when the live view ends; at most ``regionLogLimit``, then the newest.
        var regionLog: [String] = []
        var regionLogDropped = 0
    }

    let style: Style
    let adapter: String
    let region: BeaconRegion
    let model: DistanceModel
    /// `--as`: with ios, a beacon silent this second shows RSSI 0 and accuracy −1, as CLBeacon does.
    let phone: PhoneProfile
    let start: ContinuousClock.Instant
    /// The events' JSON and the enter/exit lines (BeaconScanner's).
    let events: ScanEventFormat
    let state = Mutex(State())
    /// The terminal layer of the live view (table style only).
    let terminal: LiveTerminal?
    /// How many enter/exit lines the table keeps under it.
    static let recentLimit = 6
    /// How many region enters and exits the end of a scan repeats in the scrollback.
    static let regionLogLimit = 50

    init(style: Style, adapter: String, region: BeaconRegion, model: DistanceModel, phone: PhoneProfile = .raw,
         start: ContinuousClock.Instant = .now) {
        self.style = style
        self.adapter = adapter
        self.region = region
        self.model = model
        self.phone = phone
        self.start = start
        events = ScanEventFormat(adapter: adapter, region: region, model: model, phone: phone, start: start)
        terminal = style == .table ? LiveOutput.terminal(colour: LiveOutput.colour) : nil
    }

    /// Seconds since the scan began, to the millisecond.
    func seconds(_ instant: ContinuousClock.Instant) -> Double { events.seconds(instant) }

    func handle(_ update: ScanUpdate, now: ContinuousClock.Instant = .now) {
        switch style {
        case .json:
            keepForPage(update)
            LineOutput.out(events.json(update, now: now).text)
        case .table, .plain: table(update, now: now)
        }
    }

    // MARK: The live table

    private func table(_ update: ScanUpdate, now: ContinuousClock.Instant) {
        switch update {
        case .started(let mode):
            state.withLock { $0.mode = mode }
            Log.notice("scanning on \(adapter) (\(mode.rawValue) scanning), region \(region), model \(model), as \(phone); Ctrl-C stops")
            terminal?.start()
            terminal?.show(liveScreen(now: now))
        case .report:
            // The view shows them at the next ranging update.
            state.withLock { $0.reports += 1 }
        case let .ranging(beacons, at):
            state.withLock { s in
                s.beacons = beacons
                s.rangedAt = at
            }
            if let terminal {
                terminal.show(liveScreen(now: at))
            } else {
                for line in liveScreen(now: at).lines(width: Self.plainWidth, height: .max) { LineOutput.out(line.text) }
            }
        case .region(let e):
            let line = events.line(e)
            state.withLock { s in
                s.recent.append(line)
                if s.recent.count > Self.recentLimit { s.recent.removeFirst(s.recent.count - Self.recentLimit) }
                guard e.regionChanged else { return }
                s.region = (e.kind == .enter, seconds(e.time))
                s.regionLog.append(line)
                if s.regionLog.count > Self.regionLogLimit {
                    s.regionLog.removeFirst()
                    s.regionLogDropped += 1
                }
            }
        case .stopped:
            finish(now: now)
            LineOutput.out("scanning stopped")
        }
    }
}
