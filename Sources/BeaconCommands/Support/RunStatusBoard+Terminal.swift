// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconConsole

/// The library's board (``RunStatusBoard``, BeaconConsole) wired to this tool's output: lines
/// through ``LineOutput``, the live view on the terminal ``LiveOutput`` decides.
extension RunStatusBoard {
    static func onTerminal(style: Style, showsOffAir: Bool = true) -> RunStatusBoard {
        RunStatusBoard(style: style, showsOffAir: showsOffAir, terminal: style == .table ? LiveOutput.terminal(colour: LiveOutput.colour) : nil,
                       output: Output(out: LineOutput.out, err: LineOutput.err, errorsShareTerminal: LiveOutput.standardErrorIsTerminal))
    }
}

extension RunStatusBoard.Style {
    /// JSON with --json; the live view on a terminal (not `TERM=dumb`) unless the air log takes
    /// standard output; lines otherwise.
    static func choose(json: Bool, airLog: AirLogOptions) -> Self {
        if json { return .json }
        return LiveOutput.mode.isLive && !airLog.takesStandardOutput ? .table : .lines
    }
}
