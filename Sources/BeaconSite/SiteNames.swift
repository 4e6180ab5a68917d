// SPDX-License-Identifier: GPL-2.0-or-later

/// Which names may stand as one level of a topic (`beacon/<site>/hosts/<host>/<adapter>/…`), and
/// why a name may not: MQTT gives `/` a meaning in topic names and `+`, `#` in filters.
public enum SiteNames {
    /// Site and host names: lowercase letters, digits, `-` and `_` (a host name is also its MQTT
    /// user name, which the broker's ACL substitutes for `%u`), 1 to 64 characters.
    public static let maximumLength = 64

    /// Why `name` is not a site or host name, or `nil` when it is one.
    public static func problem(withName name: String) -> String? {
        if name.isEmpty || name.count > maximumLength { return "must have 1 to \(maximumLength) characters" }
        let allowed = name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" }
        return allowed ? nil : "may hold only lowercase letters, digits, - and _ (it is a topic level and an MQTT user name)"
    }

    /// Why `level` cannot be one topic level (an adapter's name, a discovery prefix), or `nil`.
    public static func problem(withTopicLevel level: String) -> String? {
        if level.isEmpty || level.count > maximumLength { return "must have 1 to \(maximumLength) characters" }
        let refused = level.unicodeScalars.contains { $0 == "/" || $0 == "+" || $0 == "#" || $0.value <= 0x20 || $0.value == 0x7F }
        return refused ? "may not hold /, +, #, spaces or control characters (it is one topic level)" : nil
    }
}
