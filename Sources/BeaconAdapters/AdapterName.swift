// SPDX-License-Identifier: GPL-2.0-or-later
import HCITransport

/// Which adapter something happened on: the adapter as the user named it (`hci0`, `mgmt:hci0`,
/// `virtual`, `tcp:127.0.0.1:1234`), as its connection reports it
/// (``AdapterConnection/adapterName``).
///
/// Events, plans, teardowns and outcomes name their adapter with this type, so a program can
/// group, compare and print them without reading strings back. Its ``description`` is the
/// name itself.
public struct AdapterName: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The name, as given.
    public let text: String

    /// The adapter named `text`.
    public init(_ text: String) { self.text = text }

    /// The name `spec` gives its adapter (its `description`: `hci0`, `virtual:sets=4`).
    public init(_ spec: AdapterSpec) { self.init(spec.description) }

    public init(stringLiteral value: String) { self.init(value) }

    public var description: String { text }

    public static func < (lhs: AdapterName, rhs: AdapterName) -> Bool { lhs.text < rhs.text }

    /// Whether it names a `mgmt:` adapter (the kernel's management API, where the kernel, not
    /// the profile, picks each beacon's address).
    public var isManagementAPI: Bool {
        if case .management? = try? AdapterSpec(parsing: text) { return true }
        return false
    }
}
