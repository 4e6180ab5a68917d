// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// Numbers and lengths of time as the tool writes them, in one place for every library and the
/// CLI (messages, tables, JSON, profiles written back): `100` rather than `100.0`, `1.50` in a
/// column, `300 ms` and `1.2 s`. Pure Swift, no Foundation, like the rest of this module.
public enum NumberText {
    /// As people write numbers: `100` rather than `100.0`, `152.5` as is.
    public static func string(_ value: Double) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return String(value)
    }

    /// Rounded to `places` decimals first, then as ``string(_:)``: `1.5`, `35`, `0.333`.
    public static func string(_ value: Double, places: Int) -> String {
        string(rounded(value, places: places))
    }

    /// `value` rounded to `places` decimals (half away from zero), for JSON and for text.
    public static func rounded(_ value: Double, places: Int) -> Double {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return (value * scale).rounded() / scale
    }

    /// Exactly `places` decimals (2 by default), zero-padded, for columns: `1.50`, `12.00`.
    public static func fixed(_ value: Double, places: Int = 2) -> String {
        var text = String(rounded(value, places: places))
        if text.contains("e") { return text }
        if !text.contains(".") { text += "." }
        let decimals = text.count - (text.firstIndex(of: ".").map { text.distance(from: text.startIndex, to: $0) } ?? 0) - 1
        return text + String(repeating: "0", count: max(0, places - decimals))
    }

    /// With its sign always written, as coordinates in a column: `+0.52`, `-1.03`, `+0.00`
    /// (``fixed(_:places:)`` after the sign; a value that rounds to zero is `+`).
    public static func signed(_ value: Double, places: Int = 2) -> String {
        let r = rounded(value, places: places)
        return (r < 0 ? "-" : "+") + fixed(abs(r), places: places)
    }

    /// A length of time for people: whole milliseconds below a second (`300 ms`), else seconds to
    /// the hundredth (`1.2 s`, `2 s`).
    public static func duration(_ d: Duration) -> String {
        let ms = (d.seconds * 1000).rounded()
        return ms < 1000 ? "\(string(ms)) ms" : "\(string((ms / 10).rounded() / 100)) s"
    }
}
