// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// A 16-bit HCI command opcode: OpCode Group Field in the top 6 bits, OpCode Command Field in the
/// low 10 bits (Core Vol 4 Part E §5.4.1). Printed as btmon does: `0x08|0x0006`.
@frozen
public struct HCIOpcode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16

    @inlinable public init(rawValue: UInt16) { self.rawValue = rawValue }

    @inlinable
    public init(ogf: UInt8, ocf: UInt16) {
        precondition(ogf < 0x40 && ocf < 0x400, "OGF has 6 bits and OCF 10 bits")
        rawValue = UInt16(ogf) << 10 | ocf
    }

    /// OpCode Group Field: 0x03 controller & baseband, 0x04 informational, 0x08 LE.
    @inlinable public var ogf: UInt8 { UInt8(rawValue >> 10) }
    /// OpCode Command Field.
    @inlinable public var ocf: UInt16 { rawValue & 0x03FF }

    /// `0x08|0x0006`, the form btmon prints.
    public var description: String { "0x\(Hex.byte(ogf))|0x\(Hex.word(ocf))" }

    /// Opcode 0x0000 ("no operation"): a controller uses it in Command Complete/Status only to
    /// grant command credits.
    public static let noOperation = HCIOpcode(rawValue: 0x0000)
}
