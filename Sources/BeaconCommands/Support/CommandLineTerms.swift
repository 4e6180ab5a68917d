// SPDX-License-Identifier: GPL-2.0-or-later
import HCI

/// This tool's names for what library messages refer to (``FrontEndTerm``): its commands and
/// options. Library messages carry their terms (`TermedText`); this tool names them here when it
/// prints them (``text(_:)``), and passes ``name(_:)`` to the libraries that present text for it
/// (the run's status board, the plan report, the site agent).
enum CommandLineTerms {
    /// `text` with this tool's names for its terms.
    static func text(_ text: TermedText) -> String { text.text(namedBy: name) }

    /// What `value` says (an error, say), its terms named as this tool names them.
    static func text(describing value: Any) -> String { text(TermedText(describing: value)) }

    @Sendable static func name(_ term: FrontEndTerm) -> String? {
        switch term {
        case .stop: "`beacon stop`"
        case .stopWithReset: "`beacon stop --reset`"
        case .stopOn(let adapter): "`beacon stop -i \(adapter)`"
        case .examineAdapter: "`beacon doctor`"
        case .listAdapters: "`beacon adapters`"
        case .adapter(let spec): "-i \(spec)"
        case .trafficCapture: "--btsnoop"
        case .maximumSilence: "--max-silence"
        case .dryRun: "--dry-run"
        }
    }
}
