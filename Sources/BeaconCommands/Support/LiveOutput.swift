// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import LiveView

/// Whether the commands that watch a run (advertise, cycle, scan) draw a live view, and the
/// terminal layer they draw it with (writing through ``LineOutput``).
enum LiveOutput {
    /// Live on a terminal whose `TERM` is set and not `dumb`; colour unless `NO_COLOR`.
    static var mode: LiveViewMode {
        LiveViewMode.decide(outputIsTerminal: LineOutput.standardOutputIsTerminal, environment: ProcessInfo.processInfo.environment)
    }

    static var colour: Bool { if case .live(let colour) = mode { colour } else { false } }

    static func terminal(colour: Bool) -> LiveTerminal {
        let terminal = LiveTerminal(colour: colour) { LineOutput.rawOut($0) }
        Log.info("live view: \(terminal.size.columns)×\(terminal.size.rows), \(colour ? "colour" : "no colour (NO_COLOR)")")
        return terminal
    }

    /// Whether standard error is the terminal too (then messages wait until the view is gone).
    static var standardErrorIsTerminal: Bool { LineOutput.standardErrorIsTerminal }
}
