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
        terminal = style == .table ? LiveOutput.terminal(colour: LiveOutput.colour) : nil
    }

    /// Seconds since the scan began, to the millisecond.
    func seconds(_ instant: ContinuousClock.Instant) -> Double { NumberText.rounded((instant - start).seconds, places: 3) }

    func handle(_ update: ScanUpdate, now: ContinuousClock.Instant = .now) {
        switch style {
        case .json:
            keepForPage(update)
            if let line = json(update, now: now) { LineOutput.out(line.text) }
        case .table, .plain: table(update, now: now)
        }
    }

    // MARK: JSON lines

    var regionJSON: JSONValue { BeaconObject.region(uuid: region.uuid, major: region.major, minor: region.minor) }

    var modelJSON: JSONValue {
        switch model {
        case .altBeacon: .object([("name", .string("altbeacon"))])
        case .pathLoss(let n): .object([("name", .string("pathloss")), ("exponent", .double(n))])
        case .curveFit(let c):
            .object([("name", .string("curvefit")), ("device", .string(c.device)), ("coefficients", .array([
                .double(c.coefficient1), .double(c.coefficient2), .double(c.coefficient3)]))])
        }
    }

    /// The event of `update` (docs/JSON.md, "beacon scan"); the objects are BeaconJSON's.
    func json(_ update: ScanUpdate, now: ContinuousClock.Instant) -> JSONValue? {
        switch update {
        case .started(let mode):
            return EventObject.object(time: seconds(now), event: "scanning", [("adapter", .string(adapter)),
                                      ("mode", .string(mode.rawValue)), ("region", regionJSON), ("model", modelJSON), ("as", .string(phone.rawValue))])
        case .report(let s):
            return SightingObject(time: seconds(s.time), beacon: s.beacon, rssi: s.rssi, address: s.address,
                                  addressType: s.addressType.rawValue, extended: s.extendedReport).json
        case let .ranging(beacons, at):
            let list = beacons.map { b in
                // With --as ios a beacon silent this second shows RSSI 0 and accuracy -1, as CLBeacon does.
                RangingEntryObject.json(identity: b.identity, power: b.measuredPower,
                                        rssi: b.rssi.map { NumberText.rounded($0, places: 1) } ?? (phone == .ios ? 0 : nil),
                                        accuracy: b.accuracy.map { NumberText.rounded($0, places: 2) } ?? (phone == .ios ? -1 : nil), proximity: b.proximity.rawValue,
                                        lastSeen: NumberText.rounded((at - b.lastSeen).seconds, places: 3),
                                        reportsPerSecond: NumberText.rounded(b.reportsPerSecond, places: 1), address: b.address)
            }
            return EventObject.object(time: seconds(at), event: "ranging", [("beacons", .array(list))])
        case .region(let e):
            return EventObject.object(time: seconds(e.time), event: e.kind.rawValue, BeaconObject.identityFields(e.beacon) + [
                ("region", BeaconObject.region(uuid: e.region.uuid, major: e.region.major, minor: e.region.minor)),
                ("region_changed", .bool(e.regionChanged)),
            ])
        case .stopped:
            return EventObject.object(time: seconds(now), event: "stopped")
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
            let what = e.kind == .enter ? "entered" : "exited"
            let region = e.regionChanged ? " (region \(e.region) \(e.kind == .enter ? "entered" : "exited"))" : ""
            let line = "+\(NumberText.fixed(seconds(e.time), places: 1)) s \(BeaconText.identity(e.beacon)) \(what)\(region)"
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
