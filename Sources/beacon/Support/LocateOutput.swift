// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconJSON
import BeaconPositioning
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

    func print(_ fix: PositionFix, truth: PlanePoint?) {
        recorder?.fixes.withLock { $0.append(fix) }
        let e = fix.estimate
        if json {
            var members: [(String, JSONValue)] = [
                ("time", .double(Self.round(fix.time, 3))),
                ("x", .double(Self.round(e.position.x, 3))), ("y", .double(Self.round(e.position.y, 3))),
                ("error_radius", e.errorRadius.map { .double(Self.round($0, 3)) } ?? .null),
                ("rms_residual", .double(Self.round(e.rmsResidual, 3))),
                ("beacons", .int(e.rangeCount)),
            ]
            if let wallClockStart { members.append(("unix_time", .double(Self.round(wallClockStart + fix.time, 3)))) }
            if let truth {
                members += [("true_x", .double(Self.round(truth.x, 3))), ("true_y", .double(Self.round(truth.y, 3))),
                            ("error", .double(Self.round(e.position.distance(to: truth), 3)))]
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
                ("mean_error", .double(Self.round(s.mean, 3))), ("median_error", .double(Self.round(s.median, 3))),
                ("p90_error", .double(Self.round(s.p90, 3))), ("max_error", .double(Self.round(s.maximum, 3))),
            ]))]).text)
        } else {
            let prefix = context.map { "\($0.0) \($0.1), " }.joined()
            LineOutput.out(prefix + String(format: "%d fixes, noise %.1f dB, seed %llu: mean error %.3f m, median %.3f m, 90%% %.3f m, max %.3f m",
                                           s.fixes, noise, seed, s.mean, s.median, s.p90, s.maximum))
        }
    }

    static func round(_ v: Double, _ places: Int) -> Double {
        let f = pow(10, Double(places))
        return (v * f).rounded() / f
    }
}

/// The fixes a live run printed, kept for `locate --live --map` (the run's loop stays as it is).
final class FixRecorder: Sendable {
    let fixes = Mutex<[PositionFix]>([])
}
