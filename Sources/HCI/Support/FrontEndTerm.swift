// SPDX-License-Identifier: GPL-2.0-or-later

/// Something a library message advises or refers to that a front end offers under a name of its
/// own: an action (stopping an adapter's advertising, examining an adapter), a setting (the
/// longest silence a beacon may have) or an adapter to choose.
///
/// Messages name the concept and keep their terms (``TermedText``: status explanations, errors'
/// advice, the plan's warnings, a run's events and outcome, …); the front end that presents a
/// message names them (``TermedText/text(namedBy:)``). No library holds a front end's names, so
/// front ends in one process each use their own. Without a front end's names, ``conceptText``
/// is used.
public enum FrontEndTerm: Hashable, Sendable {
    /// Taking the adapter's advertising off the air (sets removed).
    case stop
    /// ``stop`` with a reset of the controller.
    case stopWithReset
    /// ``stop`` on `adapter` (an adapter spec such as `raw:hci0`).
    case stopOn(adapter: String)
    /// Examining an adapter and this machine for advertising.
    case examineAdapter
    /// Listing the kernel's adapters.
    case listAdapters
    /// Choosing the adapter `spec` names (`raw:hci0`, `virtual`, `tcp:HOST:PORT`).
    case adapter(String)
    /// The btsnoop capture of a run's HCI traffic.
    case trafficCapture
    /// The longest a beacon may go unseen (the planner's goal).
    case maximumSilence
    /// Listing a run's commands without opening an adapter.
    case dryRun

    /// The term as `naming` names it, else ``conceptText``.
    public func text(namedBy naming: (FrontEndTerm) -> String?) -> String { naming(self) ?? conceptText }

    /// The concept in words, for programs without names of their own.
    public var conceptText: String {
        switch self {
        case .stop: "a stop of its advertising"
        case .stopWithReset: "a stop with a controller reset"
        case .stopOn(let adapter): "a stop of the advertising of adapter \(adapter)"
        case .examineAdapter: "an examination of the adapter"
        case .listAdapters: "the list of adapters"
        case .adapter(let spec): "adapter \(spec)"
        case .trafficCapture: "btsnoop capture"
        case .maximumSilence: "the maximum silence"
        case .dryRun: "a dry run"
        }
    }
}
