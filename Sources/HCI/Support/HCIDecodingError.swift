// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// Why bytes from a controller, a capture or a test could not be read as the HCI packet they claim
/// to be. Each case names the field so a bad capture can be located.
public enum HCIDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The bytes ended inside `field`.
    case truncated(field: String, needed: Int, available: Int)
    /// Bytes were left after the last parameter of `after`.
    case trailingBytes(after: String, count: Int)
    /// A length or count field does not fit the rest of the packet, or a value that decides the
    /// layout (e.g. a PHY bit) is not one the spec defines.
    case invalidValue(field: String, value: UInt64, allowed: String)
    /// A command or event was decoded as the wrong type.
    case opcodeMismatch(expected: HCIOpcode, actual: HCIOpcode)
    /// The header's length byte disagrees with the bytes that follow it.
    case lengthMismatch(declared: Int, actual: Int)
    /// The event is not the kind that was asked for.
    case unexpectedEvent(expected: String, actualCode: UInt8)

    public var description: String {
        switch self {
        case let .truncated(field, needed, available):
            "HCI packet ends inside \(field): needs \(needed) more byte(s), only \(available) left"
        case let .trailingBytes(after, count):
            "\(count) unexpected byte(s) after the last parameter of \(after)"
        case let .invalidValue(field, value, allowed):
            "\(field) is 0x\(String(value, radix: 16, uppercase: true)), allowed: \(allowed)"
        case let .opcodeMismatch(expected, actual):
            "expected opcode \(expected), got \(actual)"
        case let .lengthMismatch(declared, actual):
            "parameter length byte says \(declared) but \(actual) byte(s) follow"
        case let .unexpectedEvent(expected, actualCode):
            "expected \(expected), got event code 0x\(Hex.byte(actualCode))"
        }
    }
}
