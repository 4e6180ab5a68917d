// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser

/// A length of time on the command line: `30s`, `500ms`, `2m`, `1h`, or a bare number of
/// seconds (`5`, `0.5`). Always more than zero.
struct DurationArgument: ExpressibleByArgument, Sendable, CustomStringConvertible {
    var duration: Duration
    /// How it was written, for messages.
    var text: String

    init?(argument: String) {
        let t = argument.trimmingCharacters(in: " ")
        // Longest suffix first: "ms" before "m" and "s".
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
        var number = Substring(t)
        var scale = 1.0
        for (suffix, factor) in units where t.hasSuffix(suffix) {
            number = t.dropLast(suffix.count)
            scale = factor
            break
        }
        guard let value = Double(number.trimmingCharacters(in: " ")), value.isFinite, value > 0 else { return nil }
        let nanoseconds = (value * scale * 1e9).rounded()
        guard nanoseconds >= 1, nanoseconds < Double(Int64.max) else { return nil }
        duration = .nanoseconds(Int64(nanoseconds))
        text = t
    }

    var description: String { text }

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
