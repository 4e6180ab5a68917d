// SPDX-License-Identifier: GPL-2.0-or-later
import TextLayout
import BeaconCodec
import BeaconJSON
import BeaconRadio
import Foundation

/// Position fixes and a run's error summary as text lines and JSON objects (docs/JSON.md, "beacon
/// locate"), the same for every front end that locates: the CLI's `locate`, a live page, a
/// program of one's own.
public enum PositionFixText {
    /// `t=1.00 s  x=+0.52 y=-1.03 m  ±0.40 m  rms 0.31 m  4 beacons`, then, when the geometry
    /// leaves a second answer, `  ambiguous: as good at (-0.31, +1.20)`, and with the true position
    /// known (a simulation), `  true (+0.50, -1.00)  error 0.04 m`.
    public static func line(_ fix: PositionFix, truth: Point? = nil) -> String {
        let e = fix.estimate
        let f = { (v: Double) in NumberText.fixed(v) }
        let signed = { (v: Double) in NumberText.signed(v) }
        var line = "t=\(f(fix.time)) s  x=\(signed(e.position.x)) y=\(signed(e.position.y)) m"
        line += e.errorRadius.map { "  ±\(f($0)) m" } ?? "  ±? m"
        line += "  rms \(f(e.rmsResidual)) m  \(e.rangeCount) beacons"
        if let other = e.alternative { line += "  ambiguous: as good at (\(signed(other.x)), \(signed(other.y)))" }
        if let truth {
            line += "  true (\(signed(truth.x)), \(signed(truth.y)))  error \(f(e.position.distance(to: truth))) m"
        }
        return line
    }

    /// `{"time","x","y","error_radius","rms_residual","beacons"}` to the millimetre, with `z` when
    /// the receiver's height is not 0, `alternative` `{"x","y"}` when the geometry leaves a second
    /// answer (``PositionEstimate/alternative``), `unix_time` when the fixes' time 0 is known as Unix time (`wallClockStart`, so a fix can be
    /// set against another program's clock) and `true_x`, `true_y`, `error` with the truth.
    public static func json(_ fix: PositionFix, truth: Point? = nil, wallClockStart: Double? = nil) -> JSONValue {
        let e = fix.estimate
        var members: [(String, JSONValue)] = [
            ("time", rounded(fix.time)),
            ("x", rounded(e.position.x)), ("y", rounded(e.position.y)),
            ("error_radius", e.errorRadius.map(rounded) ?? .null),
            ("rms_residual", rounded(e.rmsResidual)),
            ("beacons", .int(e.rangeCount)),
        ]
        if e.position.z != 0 { members.insert(("z", rounded(e.position.z)), at: 3) }
        if let other = e.alternative { members.append(("alternative", .object([("x", rounded(other.x)), ("y", rounded(other.y))]))) }
        if let wallClockStart { members.append(("unix_time", rounded(wallClockStart + fix.time))) }
        if let truth {
            members += [("true_x", rounded(truth.x)), ("true_y", rounded(truth.y)), ("error", rounded(e.position.distance(to: truth)))]
        }
        return .object(members)
    }

    /// `40 fixes, noise 4.0 dB, seed 1: mean error 0.512 m, median …, 90% …, max … m`, after the
    /// `context` pairs (a benchmark's air, phone and method) as `name value, `.
    public static func summaryLine(_ s: LocationErrorSummary, noise: Double, seed: UInt64, context: [(String, String)] = []) -> String {
        let prefix = context.map { "\($0.0) \($0.1), " }.joined()
        let m = { (v: Double) in NumberText.fixed(v, places: 3) }
        return prefix + "\(s.fixes) fixes, noise \(NumberText.fixed(noise, places: 1)) dB, seed \(seed): mean error \(m(s.mean)) m, median \(m(s.median)) m, 90% \(m(s.p90)) m, max \(m(s.maximum)) m"
    }

    /// `{"summary":{…context…,"noise_db","seed","fixes","mean_error","median_error","p90_error","max_error"}}`.
    public static func summaryJSON(_ s: LocationErrorSummary, noise: Double, seed: UInt64, context: [(String, String)] = []) -> JSONValue {
        .object([("summary", .object(context.map { ($0.0, JSONValue.string($0.1)) } + [
            ("noise_db", .double(noise)), ("seed", .int(Int(seed))), ("fixes", .int(s.fixes)),
            ("mean_error", rounded(s.mean)), ("median_error", rounded(s.median)),
            ("p90_error", rounded(s.p90)), ("max_error", rounded(s.maximum)),
        ]))])
    }

    /// Metres and seconds to the thousandth.
    private static func rounded(_ value: Double) -> JSONValue { .double(NumberText.rounded(value, places: 3)) }
}
