// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconConsole
import BeaconSite

/// The library's board (``RunStatusBoard``, BeaconConsole) wired to this tool's output: lines
/// through ``LineOutput``, the live view on the terminal ``LiveOutput`` decides, the events'
/// terms named as this tool names them (``CommandLineTerms``).
extension RunStatusBoard {
    static func onTerminal(style: Style, showsOffAir: Bool = true) -> RunStatusBoard {
        RunStatusBoard(style: style, showsOffAir: showsOffAir, terminal: style == .table ? LiveOutput.terminal(colour: LiveOutput.colour) : nil,
                       output: Output(out: LineOutput.out, err: LineOutput.err, errorsShareTerminal: LiveOutput.standardErrorIsTerminal),
                       naming: CommandLineTerms.name)
    }
}

extension RunStatusBoard.Style {
    /// JSON with --json; the live view on a terminal (not `TERM=dumb`) unless the air log takes
    /// standard output; lines otherwise.
    static func choose(json: Bool, airLog: AirLogOptions? = nil) -> Self {
        if json { return .json }
        return LiveOutput.mode.isLive && airLog?.takesStandardOutput != true ? .table : .lines
    }
}

extension SiteStatusBoard {
    /// `beacon site`'s board, shown as advertise's is (``RunStatusBoard/Style/choose(json:airLog:)``).
    static func onTerminal(site: Site, placement: SitePlacement, file: String, json: Bool) -> SiteStatusBoard {
        let style = RunStatusBoard.Style.choose(json: json)
        return SiteStatusBoard(site: site, placement: placement, title: "beacon: site \(file)", reloads: site.broker != nil, style: style,
                               terminal: style == .table ? LiveOutput.terminal(colour: LiveOutput.colour) : nil,
                               output: .init(out: LineOutput.out, err: LineOutput.err, errorsShareTerminal: LiveOutput.standardErrorIsTerminal),
                               clock: { SiteEventTime.now })
    }
}
