// SPDX-License-Identifier: GPL-2.0-or-later

/// Times in scenario files: a number of seconds (`35`, `0.5`) or a number with a unit (`35s`,
/// `500ms`, `2m`), the same units as the command line's durations.
public enum ScenarioTime {
    /// The longest time a scenario may name: one week, in seconds.
    static let maximum = 7.0 * 24 * 3600

    /// Seconds, or nil when `text` is not a time.
    static func seconds(_ text: String) -> Double? {
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
        var number = Substring(text)
        var scale = 1.0
        for (suffix, factor) in units where text.hasSuffix(suffix) {
            number = number.dropLast(suffix.count)
            scale = factor
            break
        }
        while number.last == " " { number = number.dropLast() }
        guard let value = NumberSyntax.decimal(String(number)) else { return nil }
        return value * scale
    }

    /// `35`, `0.5`, `1.25` (seconds or milliseconds as given; no trailing `.0`).
    public static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return String((value * 1000).rounded() / 1000)
    }
}
