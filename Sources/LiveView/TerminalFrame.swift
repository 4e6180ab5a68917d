// SPDX-License-Identifier: GPL-2.0-or-later

/// The escape sequences a live view writes (ECMA-48 / xterm), kept in one place.
public enum TerminalFrame {
    static let escape = "\u{1B}["
    /// The alternate screen (xterm's 1049): the live view draws there, so nothing it draws ends
    /// up in the scrollback, and leaving it gives back the screen as it was before the run.
    public static let enter = escape + "?1049h" + escape + "?25l" + escape + "H" + escape + "2J"
    /// The whole screen erased (on the alternate screen this adds nothing to the scrollback).
    public static let clear = escape + "2J"
    /// Back to the normal screen, cursor visible again.
    public static let leave = escape + "?25h" + escape + "?1049l"

    /// One frame: the cursor goes home, each line is written and the rest of it erased, then
    /// everything below the last line is erased. No newline follows the last line, so even a
    /// frame as tall as the terminal never scrolls it.
    public static func text(_ lines: [LiveLine], colour: Bool) -> String {
        var out = escape + "H"
        for (i, line) in lines.enumerated() {
            if i > 0 { out += "\r\n" }
            if colour, let sgr = style(line.role) {
                out += escape + sgr + "m" + line.text + escape + "0m"
            } else {
                out += line.text
            }
            out += escape + "K"
        }
        return out + escape + "J"
    }

    /// SGR parameters per role: bold title and summary, problems red, active rows green.
    static func style(_ role: LiveLine.Role) -> String? {
        switch role {
        case .title, .summary: "1"
        case .header: "4"
        case .row(.problem): "31"
        case .more: "2"
        case .row(.active): "32"
        case .row(.idle): nil
        case .message: "33"
        }
    }
}
