// SPDX-License-Identifier: GPL-2.0-or-later

/// The one grammar of a length of time, for the command line (`--duration`, `--window`, …) and
/// every file (a scenario's `at`, `every`, `duration`): a bare number of seconds (`5`, `0.5`), a
/// number with a unit (`30s`, `500ms`, `2m`, `1h`), or compound values such as `1m30s` or
/// `1h2m3.5s` (largest unit first, each unit once, as Go and systemd write them). Spaces around
/// the text and between a number and its unit are ignored (`35 s`). The caller checks the range.
public enum DurationSyntax {
    /// The units, largest first; "ms" is matched before "m".
    static let units: [(suffix: String, seconds: Double)] = [("h", 3600), ("m", 60), ("s", 1), ("ms", 0.001)]

    /// Seconds, or nil when `text` is not a duration. Only a bare number may be negative (`-1`),
    /// so that a range check, not the grammar, refuses it.
    public static func seconds(_ text: some StringProtocol) -> Double? {
        let trimmed = String(text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
        if let seconds = NumberSyntax.decimal(trimmed) { return seconds }
        guard !trimmed.isEmpty, let seconds = compoundSeconds(Substring(trimmed)), seconds.isFinite else { return nil }
        return seconds
    }

    /// `1m30s` → 90: numbers each followed by a unit, units in decreasing order.
    private static func compoundSeconds(_ text: Substring) -> Double? {
        var rest = text
        var total = 0.0
        var smallestSoFar = Int.min  // index into `units` of the last unit used
        while !rest.isEmpty {
            let number = rest.prefix { ($0.isASCII && $0.isNumber) || $0 == "." }
            guard !number.isEmpty, let value = Double(number) else { return nil }
            rest = rest.dropFirst(number.count).drop { $0 == " " }
            // "ms" before "m": try the longer suffix first.
            guard let (index, unit) = units.enumerated().sorted(by: { $0.element.suffix.count > $1.element.suffix.count })
                .first(where: { rest.hasPrefix($0.element.suffix) }) else { return nil }
            guard index > smallestSoFar else { return nil }
            smallestSoFar = index
            total += value * unit.seconds
            rest = rest.dropFirst(unit.suffix.count).drop { $0 == " " }
        }
        return total
    }
}
