// SPDX-License-Identifier: GPL-2.0-or-later

// Here, at the root of the dependency graph, so that the scanner, the emulator and the CLI share
// one conversion instead of each declaring its own.
extension Duration {
    /// The duration in seconds, as a `Double`.
    @inlinable
    public var seconds: Double {
        let (s, atto) = components
        return Double(s) + Double(atto) / 1e18
    }
}
