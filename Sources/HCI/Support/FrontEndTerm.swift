// SPDX-License-Identifier: GPL-2.0-or-later
import Synchronization

/// Something a library message advises or refers to that a front end offers under a name of its
/// own: an action (stopping an adapter's advertising, examining an adapter), a setting (the
/// longest silence a beacon may have) or an adapter to choose.
///
/// Messages name the concept. A message that keeps its terms (``TermedText``: the plan's
/// warnings, notes and backend reasons, capture errors, a run's outcome, …) is named by the front
/// end that presents it (``TermedText/text(namedBy:)``), so front ends in one process each use
/// their own names. The messages not converted yet (the HCI and management status explanations,
/// the transport's and the shared air's advice, a run's hardware-error and stopped events) still
/// read ``text``: the names a front end installs with ``name(with:)``, process-wide. Without a
/// front end's names, ``conceptText`` is used.
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

    /// The term in a message: the installed front end's name for it, else ``conceptText``. New
    /// messages use ``TermedText`` instead, which leaves the naming to the front end presenting them.
    public var text: String {
        let naming: @Sendable (FrontEndTerm) -> String? = Self.naming.withLock { $0 }
        return text(namedBy: naming)
    }

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

    private static let naming = Mutex<@Sendable (FrontEndTerm) -> String?>({ _ in nil })

    /// Installs a front end's names (nil for a term it has no name for: its concept is used).
    public static func name(with naming: @escaping @Sendable (FrontEndTerm) -> String?) {
        self.naming.withLock { $0 = naming }
    }
}
