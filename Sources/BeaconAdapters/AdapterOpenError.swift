// SPDX-License-Identifier: GPL-2.0-or-later
import HCI
import HCITransport
import VirtualController

/// Why an adapter could not be opened. The description is the underlying error's, which names
/// the adapter and says what to do.
public enum AdapterOpenError: Error, Sendable, CustomStringConvertible, TermedTextConvertible {
    /// The transport could not be opened (no such adapter, no permission, no answer, …).
    case transport(TransportError)
    /// A `virtual` adapter's options are not valid.
    case virtualConfiguration(VirtualControllerConfigurationError)
    /// A `virtual` adapter could not join the shared virtual air.
    case sharedAir(SharedAirError)
    /// `all` names every kernel adapter: it is one spec per adapter only after
    /// ``AdapterConnection/expand(_:)``.
    case notExpanded(AdapterSpec)

    /// ``termedText`` in words.
    public var description: String { termedText.description }

    /// The underlying error's text, its advice's terms kept for the front end to name.
    public var termedText: TermedText {
        switch self {
        case .transport(let e): e.termedText
        case .virtualConfiguration(let e): TermedText(e.description)
        case .sharedAir(let e): e.termedText
        case .notExpanded(let spec): "\(spec): names every kernel adapter; expand it (AdapterConnection.expand) before opening"
        }
    }
}
