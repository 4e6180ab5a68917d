// SPDX-License-Identifier: GPL-2.0-or-later
import HCI

/// Why a command to a controller did not give its result, in words a user can act on.
public enum HCIControllerError: Error, Hashable, Sendable, CustomStringConvertible, TermedTextConvertible {
    /// The transport failed (could not write, the peer closed, …).
    case transport(TransportError)
    /// No Command Complete/Status in time.
    case timeout(command: String, opcode: HCIOpcode, adapter: String, milliseconds: Int)
    /// The controller answered with an error status, or a reply we cannot read.
    case command(HCICommandError, adapter: String)
    /// The bytes from the controller are not H4.
    case garbage(H4DecodingError, adapter: String)
    /// The command was refused before sending (out-of-range value for this controller).
    case invalid(HCIValidationError, command: String)
    /// The session was closed (Ctrl-C, or the controller went away) while waiting.
    case closed(adapter: String)

    /// The status the controller answered, if that is what went wrong.
    public var status: HCIStatus? {
        if case let .command(.failed(_, _, status), _) = self { return status }
        return nil
    }

    /// ``termedText`` in words.
    public var description: String { termedText.description }

    /// The failure and what to do (actions as `FrontEndTerm`s, named by the front end).
    public var termedText: TermedText {
        switch self {
        case let .transport(e): return e.termedText
        case let .timeout(command, opcode, adapter, ms):
            // A UART answers nothing at the wrong rate, and a controller whose CTS is never raised
            // (a UART wired without it) never even hears the command.
            let cause = adapter.hasPrefix("serial:")
                ? "wrong port, baud rate or flow control: serial: uses RTS/CTS unless ,nortscts is given; Zephyr's hci_uart runs at 1000000 baud, ESP32's HCI UART at 921600 unless its menuconfig says otherwise; or it hung"
                : "wrong port or device, or it hung"
            return "\(adapter): no reply to \(command) (\(opcode)) within \(ms) ms: the controller is not answering (\(cause))"
        case let .command(e, adapter): return "\(adapter): \(e)"
        case let .garbage(e, adapter): return "\(adapter): \(e)"
        case let .invalid(e, command): return "\(command) not sent: \(e)"
        case let .closed(adapter): return "\(adapter): the session was closed"
        }
    }
}
