// SPDX-License-Identifier: GPL-2.0-or-later

/// Whether a command draws a live view or prints plain lines, and in colour or not.
public enum LiveViewMode: Sendable, Equatable {
    /// Redrawn in place on a terminal that understands cursor movement.
    case live(colour: Bool)
    /// Plain lines: standard output is a pipe or a file, or `TERM` is unset or `dumb`.
    case plain

    /// The mode for an output that is (or is not) a terminal, given the environment: plain
    /// unless a terminal with a `TERM` other than `dumb`; colour unless `NO_COLOR` is set to
    /// anything but the empty string (https://no-color.org).
    public static func decide(outputIsTerminal: Bool, environment: [String: String]) -> LiveViewMode {
        guard outputIsTerminal, let term = environment["TERM"], !term.isEmpty, term != "dumb" else { return .plain }
        let noColour = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        return .live(colour: !noColour)
    }

    public var isLive: Bool {
        if case .live = self { return true }
        return false
    }
}
