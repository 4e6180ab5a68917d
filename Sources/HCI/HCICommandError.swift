// SPDX-License-Identifier: GPL-2.0-or-later

/// Why a command's reply did not give its return parameters.
public enum HCICommandError: Error, Hashable, Sendable, CustomStringConvertible, TermedTextConvertible {
    /// The controller answered with a non-zero status.
    case failed(command: String, opcode: HCIOpcode, status: HCIStatus)
    /// The reply is for another command.
    case unexpectedOpcode(expected: HCIOpcode, actual: HCIOpcode)
    /// The reply's return parameters could not be read.
    case malformedReply(command: String, HCIDecodingError)

    /// ``termedText`` in words.
    public var description: String { termedText.description }

    /// The failure, with the status's advice (its actions as ``FrontEndTerm``s).
    public var termedText: TermedText {
        switch self {
        case let .failed(command, opcode, status):
            "\(command) (\(opcode)) failed: \(status.userMessage(for: opcode))"
        case let .unexpectedOpcode(expected, actual):
            "expected a reply to \(expected), got one to \(actual)"
        case let .malformedReply(command, error):
            "malformed reply to \(command): \(error)"
        }
    }
}
