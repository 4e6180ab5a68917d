// SPDX-License-Identifier: GPL-2.0-or-later

/// What is known about the controller a command is for; validation applies the rules that depend
/// on it only when the fact is known.
@frozen
public struct HCIControllerInfo: Hashable, Sendable {
    /// From Read Local Version Information.
    public var hciVersion: HCIVersion?
    /// From LE Read Local Supported Features.
    public var leFeatures: LEFeatures?

    @inlinable
    public init(hciVersion: HCIVersion? = nil, leFeatures: LEFeatures? = nil) {
        self.hciVersion = hciVersion
        self.leFeatures = leFeatures
    }

    /// Nothing known: only the specification's own ranges are checked.
    public static let unknown = HCIControllerInfo()
}
