// SPDX-License-Identifier: GPL-2.0-or-later

/// English number agreement for the tool's messages, in one place: "1 beacon", "2 beacons",
/// "1 beacon asks", "2 beacons ask". Every library and the CLI count things in their text, so
/// this lives in the module they all import.
public enum Plural {
    /// `noun` for `count` things: `plural` (by default `noun` + "s") unless `count` is 1.
    public static func word(_ count: Int, _ noun: String, plural: String? = nil) -> String {
        count == 1 ? noun : plural ?? noun + "s"
    }

    /// `noun` for an amount that may be fractional ("1 event/s", "1.5 events/s").
    public static func word(_ amount: Double, _ noun: String, plural: String? = nil) -> String {
        amount == 1 ? noun : plural ?? noun + "s"
    }

    /// `count` and its noun: "1 beacon", "3 beacons", "0 samples".
    public static func of(_ count: Int, _ noun: String, plural: String? = nil) -> String {
        "\(count) \(word(count, noun, plural: plural))"
    }

    /// A present-tense verb agreeing with `count` subjects: "asks" for 1, "ask" otherwise
    /// (`singular` is the third-person singular form, "asks", "may", "is").
    public static func verb(_ count: Int, singular: String, plural: String) -> String {
        count == 1 ? singular : plural
    }
}
