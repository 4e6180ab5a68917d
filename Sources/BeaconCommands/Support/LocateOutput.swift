// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconJSON
import BeaconPositioning
import BeaconRadio
import BeaconWeb
import Synchronization

/// Prints `beacon locate` fixes as text lines or JSON Lines (BeaconPositioning's `PositionFixText`).
struct LocateOutput {
    var json: Bool
    /// Live: the Unix time of the fixes' time 0, so a fix can be set against another program's
    /// clock (`beacon walk --json`'s walker positions); JSON fixes then carry "unix_time".
    var wallClockStart: Double? = nil
    /// `--map` of a live run: keeps every fix printed, for the picture at the end.
    var recorder: FixRecorder? = nil
    /// `--web` of a live run: the page each fix goes to.
    var page: PositioningPage? = nil

    func print(_ fix: PositionFix, truth: Point?) {
        recorder?.fixes.withLock { $0.append(fix) }
        page?.record(.fix(fix))
        LineOutput.out(json ? PositionFixText.json(fix, truth: truth, wallClockStart: wallClockStart).text : PositionFixText.line(fix, truth: truth))
    }

    /// `context`: what else describes the run (a benchmark's air, phone and method), shown first.
    func printSummary(_ summary: LocationErrorSummary?, noise: Double, seed: UInt64, context: [(String, String)] = []) {
        guard let s = summary else { return LineOutput.err("no fix") }
        LineOutput.out(json ? PositionFixText.summaryJSON(s, noise: noise, seed: seed, context: context).text
                            : PositionFixText.summaryLine(s, noise: noise, seed: seed, context: context))
    }
}

/// The fixes a live run printed, kept for `locate --live --map` (the run's loop stays as it is).
final class FixRecorder: Sendable {
    let fixes = Mutex<[PositionFix]>([])
}
