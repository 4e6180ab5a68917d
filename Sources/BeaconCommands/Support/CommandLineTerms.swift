// SPDX-License-Identifier: GPL-2.0-or-later
import HCI

/// This tool's names for what library messages refer to (``FrontEndTerm``): its commands and
/// options, installed before any command runs.
enum CommandLineTerms {
    static func install() { FrontEndTerm.name(with: name) }

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
