// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconSystem

/// The live terminal calls under their former name: they are now part of the one system-call
/// seam, BeaconSystem's `SystemCalls` (`isTerminal(_:)`, `terminalSize(of:)`); kept so code
/// written against LiveView's earlier `LiveTerminalCalls().size(of:)` still builds.
public typealias LiveTerminalCalls = LiveSystemCalls

extension SystemCalls {
    /// The size of the terminal on `fd`: BeaconSystem's `SystemCalls.terminalSize(of:)`.
    public func size(of fd: Int32) -> TerminalSize? { terminalSize(of: fd) }
}
