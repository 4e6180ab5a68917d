// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconJSON
import BeaconPositioning
import BeaconRadio
import BeaconWeb
import Foundation
import Synchronization

/// Prints `beacon locate` fixes as text lines or JSON Lines.
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
        let e = fix.estimate
        if json {
            var members: [(String, JSONValue)] = [
                ("time", .double(NumberText.rounded(fix.time, places: 3))),
                ("x", .double(NumberText.rounded(e.position.x, places: 3))), ("y", .double(NumberText.rounded(e.position.y, places: 3))),
                ("error_radius", e.errorRadius.map { .double(NumberText.rounded($0, places: 3)) } ?? .null),
                ("rms_residual", .double(NumberText.rounded(e.rmsResidual, places: 3))),
                ("beacons", .int(e.rangeCount)),
            ]
            if let wallClockStart { members.append(("unix_time", .double(NumberText.rounded(wallClockStart + fix.time, places: 3)))) }
            if let truth {
                members += [("true_x", .double(NumberText.rounded(truth.x, places: 3))), ("true_y", .double(NumberText.rounded(truth.y, places: 3))),
                            ("error", .double(NumberText.rounded(e.position.distance(to: truth), places: 3)))]
            }
            LineOutput.out(JSONValue.object(members).text)
        } else {
            var line = String(format: "t=%.2f s  x=%+.2f y=%+.2f m", fix.time, e.position.x, e.position.y)
            line += e.errorRadius.map { String(format: "  ±%.2f m", $0) } ?? "  ±? m"
            line += String(format: "  rms %.2f m  %d beacons", e.rmsResidual, e.rangeCount)
            if let truth {
                line += String(format: "  true (%+.2f, %+.2f)  error %.2f m", truth.x, truth.y, e.position.distance(to: truth))
            }
            LineOutput.out(line)
        }
    }

    /// `context`: what else describes the run (a benchmark's air, phone and method), shown first.
    func printSummary(_ summary: LocationErrorSummary?, noise: Double, seed: UInt64, context: [(String, String)] = []) {
        guard let s = summary else {
            LineOutput.err("no fix")
            return
        }
        if json {
            LineOutput.out(JSONValue.object([("summary", .object(context.map { ($0.0, JSONValue.string($0.1)) } + [
                ("noise_db", .double(noise)), ("seed", .int(Int(seed))), ("fixes", .int(s.fixes)),
                ("mean_error", .double(NumberText.rounded(s.mean, places: 3))), ("median_error", .double(NumberText.rounded(s.median, places: 3))),
                ("p90_error", .double(NumberText.rounded(s.p90, places: 3))), ("max_error", .double(NumberText.rounded(s.maximum, places: 3))),
            ]))]).text)
        } else {
            let prefix = context.map { "\($0.0) \($0.1), " }.joined()
            LineOutput.out(prefix + String(format: "%d fixes, noise %.1f dB, seed %llu: mean error %.3f m, median %.3f m, 90%% %.3f m, max %.3f m",
                                           s.fixes, noise, seed, s.mean, s.median, s.p90, s.maximum))
        }
    }
}

/// The fixes a live run printed, kept for `locate --live --map` (the run's loop stays as it is).
final class FixRecorder: Sendable {
    let fixes = Mutex<[PositionFix]>([])
}
