// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser

/// A length of time on the command line: `30s`, `500ms`, `2m`, `1h`, compound values such as
/// `1m30s` or `1h2m3.5s` (largest unit first, each unit once, as Go and systemd write them), or a
/// bare number of seconds (`5`, `0.5`). Always more than zero.
struct DurationArgument: ExpressibleByArgument, Sendable, CustomStringConvertible {
    var duration: Duration
    /// How it was written, for messages.
    var text: String

    /// The units, largest first; "ms" is matched before "m".
    private static let units: [(suffix: String, seconds: Double)] = [("h", 3600), ("m", 60), ("s", 1), ("ms", 0.001)]

    init?(argument: String) { self.init(argument, allowingZero: false) }

    /// `allowingZero`: `0` (or `0s`) is a duration too, for a point in time such as `play --from`.
    init?(_ argument: String, allowingZero: Bool) {
        let t = argument.trimmingCharacters(in: " ")
        guard let seconds = Double(t) ?? Self.compoundSeconds(t), seconds.isFinite, seconds > 0 || (allowingZero && seconds == 0) else { return nil }
        let nanoseconds = (seconds * 1e9).rounded()
        guard nanoseconds >= 1 || (allowingZero && seconds == 0), nanoseconds < Double(Int64.max) else { return nil }
        duration = .nanoseconds(Int64(nanoseconds))
        text = t
    }

    /// `1m30s` → 90: numbers each followed by a unit, units in decreasing order.
    private static func compoundSeconds(_ text: String) -> Double? {
        var rest = Substring(text)
        var total = 0.0
        var smallestSoFar = Int.min  // index into `units` of the last unit used
        while !rest.isEmpty {
            let number = rest.prefix { $0.isNumber || $0 == "." }
            guard !number.isEmpty, let value = Double(number) else { return nil }
            rest = rest.dropFirst(number.count)
            // "ms" before "m": try the longer suffix first.
            guard let (index, unit) = units.enumerated().sorted(by: { $0.element.suffix.count > $1.element.suffix.count })
                .first(where: { rest.hasPrefix($0.element.suffix) }) else { return nil }
            guard index > smallestSoFar else { return nil }
            smallestSoFar = index
            total += value * unit.seconds
            rest = rest.dropFirst(unit.suffix.count)
        }
        return total
    }

    var description: String { text }

    static var defaultCompletionKind: CompletionKind { .default }
}

/// A time from a start on the command line (`play --from`): a ``DurationArgument`` that may be 0.
struct TimeOffsetArgument: ExpressibleByArgument, Sendable, CustomStringConvertible {
    var offset: DurationArgument

    init?(argument: String) {
        guard let offset = DurationArgument(argument, allowingZero: true) else { return nil }
        self.offset = offset
    }

    var description: String { offset.text }

    static var defaultCompletionKind: CompletionKind { .default }
}

extension StringProtocol {
    /// Drops `character` from both ends (Foundation's version needs a `CharacterSet`).
    fileprivate func trimmingCharacters(in character: Character) -> String {
        var s = Substring(self)
        while s.first == character { s = s.dropFirst() }
        while s.last == character { s = s.dropLast() }
        return String(s)
    }
}
