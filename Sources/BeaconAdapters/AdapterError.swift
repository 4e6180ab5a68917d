// SPDX-License-Identifier: GPL-2.0-or-later
import HCI
import HCITransport

/// Why probing or driving an adapter failed, whichever protocol reaches it: HCI (raw socket,
/// user channel, TCP, UART, virtual) or the kernel's management API (`mgmt:`).
public enum AdapterError: Error, Hashable, Sendable, CustomStringConvertible, TermedTextConvertible {
    case hci(HCIControllerError)
    case management(MgmtControllerError)

    /// ``termedText`` in words.
    public var description: String { termedText.description }

    /// The underlying error's text, its advice's terms kept for the front end to name.
    public var termedText: TermedText {
        switch self {
        case .hci(let e): e.termedText
        case .management(let e): e.termedText
        }
    }
}
