// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconScanner
import BeaconWeb

extension ScanOutput {
    /// The live page's snapshot of a scan: the table the terminal shows; each beacon heard is
    /// `beacon-ID` (its identity's words joined by `-`: `UUID-MAJOR-MINOR` for an iBeacon) with
    /// its proximity as its state. A scan has no positions, so no map.
    func webSnapshot() -> LivePageSnapshot {
        let heard = state.withLock { $0.beacons }
        let screen = liveScreen(now: .now)
        let ids = heard.map { BeaconText.identity($0.identity).split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "." }).joined(separator: "-") }
        let beacons = zip(zip(ids, heard), screen.rows).map { LivePageSnapshot.Beacon(id: $0.0, state: $0.1.proximity.rawValue, status: $1.status) }
        return LivePageSnapshot(screen: screen, beacons: beacons, beaconOfRow: { $0 < ids.count ? ids[$0] : nil })
    }

    /// With JSON lines on standard output the table is not drawn, but `--web`'s page shows it:
    /// its state is kept all the same (the mode, the report count, the latest ranging).
    func keepForPage(_ update: ScanUpdate) {
        state.withLock { s in
            switch update {
            case .started(let mode): s.mode = mode
            case .report: s.reports += 1
            case let .ranging(beacons, at): (s.beacons, s.rangedAt) = (beacons, at)
            default: break
            }
        }
    }
}
