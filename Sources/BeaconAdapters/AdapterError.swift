// SPDX-License-Identifier: GPL-2.0-or-later
import HCITransport

/// Why probing or driving an adapter failed, whichever protocol reaches it: HCI (raw socket,
/// user channel, TCP, UART, virtual) or the kernel's management API (`mgmt:`).
public enum AdapterError: Error, Hashable, Sendable, CustomStringConvertible {
    case hci(HCIControllerError)
    case management(MgmtControllerError)

    public var description: String {
        switch self {
        case .hci(let e): e.description
        case .management(let e): e.description
        }
    }
}
