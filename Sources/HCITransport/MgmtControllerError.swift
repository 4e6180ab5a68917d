// SPDX-License-Identifier: GPL-2.0-or-later
import HCI
import Mgmt

/// Why a management command did not give its result, in words a user can act on.
public enum MgmtControllerError: Error, Hashable, Sendable, CustomStringConvertible, TermedTextConvertible {
    /// The socket failed (closed, or a read failed).
    case transport(TransportError)
    /// Writing `command` to the socket failed: the kernel refused it before answering.
    case sendFailed(TransportError, command: String)
    /// No Command Complete/Status for the command in time.
    case timeout(command: String, opcode: MgmtOpcode, adapter: String, milliseconds: Int)
    /// The kernel answered with an error status.
    case failed(command: String, opcode: MgmtOpcode, status: MgmtStatus, adapter: String)
    /// The kernel's reply could not be read as the command's return parameters.
    case badReply(HCIDecodingError, command: String, adapter: String)
    /// Refused before sending: a value outside the documented range.
    case invalid(HCIValidationError, command: String)
    /// The session was closed while waiting.
    case closed(adapter: String)

    /// The status the kernel answered, if that is what went wrong.
    public var status: MgmtStatus? {
        if case let .failed(_, _, status, _) = self { return status }
        return nil
    }

    /// ``termedText`` in words.
    public var description: String { termedText.description }

    /// The failure and what to do (actions as `FrontEndTerm`s, named by the front end).
    public var termedText: TermedText {
        switch self {
        case let .transport(e): e.termedText
        case let .sendFailed(e, command): "\(command) not sent: \(e)"
        case let .timeout(command, opcode, adapter, ms):
            "\(adapter): no reply to \(command) (\(opcode)) within \(ms) ms: the kernel's management API did not answer (the adapter may be hung; check dmesg)"
        case let .failed(command, opcode, status, adapter):
            "\(adapter): \(command) (\(opcode)) failed: \(status.userMessage)"
        case let .badReply(e, command, adapter):
            "\(adapter): the reply to \(command) is malformed: \(e)"
        case let .invalid(e, command): "\(command) not sent: \(e)"
        case let .closed(adapter): "\(adapter): the session was closed"
        }
    }
}
