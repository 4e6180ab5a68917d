// SPDX-License-Identifier: GPL-2.0-or-later
import HCI
import BeaconCodec
import BeaconSystem

/// Why a capture file could not be read.
public enum CaptureError: Error, Hashable, Sendable, CustomStringConvertible, TermedTextConvertible {
    /// `open(2)` failed.
    case cannotOpen(path: String, errno: Int32)
    /// `read(2)` failed part-way.
    case readFailed(path: String, errno: Int32)
    /// The file starts with neither `btsnoop\0`, a pcap magic number nor a pcapng Section Header Block.
    case notACapture(path: String)
    /// A btsnoop or pcap file whose link type this reader does not understand; a pcapng file whose
    /// packets all belong to interfaces of such link types (this one the first).
    case unsupportedLinkType(format: String, value: UInt32)
    /// A pcapng block that breaks the format's rules (see ``PcapngBlockProblem``).
    case malformedBlock(fileOffset: Int, blockType: UInt32, problem: PcapngBlockProblem)
    /// The file ends inside a record header or a record's data.
    case truncatedRecord(fileOffset: Int, needed: Int, available: Int)
    /// A record claims more bytes than any HCI packet may have: the file is corrupt.
    case recordTooLarge(fileOffset: Int, length: Int)

    /// The message in words (``termedText`` with its terms as concepts).
    public var description: String { termedText.description }

    /// Control characters of the path are escaped: the message stays one line.
    public var termedText: TermedText {
        let path: String
        switch self {
        case let .cannotOpen(p, _), let .readFailed(p, _), let .notACapture(p): path = p.escapingControlCharacters
        default: path = ""
        }
        return switch self {
        case let .cannotOpen(_, code): "cannot open \(path): \(Errno(rawValue: code))"
        case let .readFailed(_, code): "reading \(path) failed: \(Errno(rawValue: code))"
        case .notACapture:
            "\(path) is not a capture this tool reads: neither btsnoop (btmon -w, Android, beacon \(FrontEndTerm.trafficCapture)), pcap (tcpdump) nor pcapng (Wireshark, tshark)"
        case let .unsupportedLinkType(format, value):
            "\(format) link type \(value) is not supported (btsnoop: 1001, 1002, 2001; pcap and pcapng: 187, 201, 251, 254, 256)"
        case let .malformedBlock(offset, type, problem):
            "the pcapng \(Pcapng.BlockType.name(type)) at byte \(offset) is malformed: \(problem)"
        case let .truncatedRecord(offset, needed, available):
            "the capture ends inside the record at byte \(offset): \(needed) byte(s) needed, \(available) left"
        case let .recordTooLarge(offset, length):
            "the record at byte \(offset) claims \(length) bytes, more than an HCI packet can hold: the file is corrupt"
        }
    }
}

/// What is wrong with a pcapng block (see ``Pcapng``).
public enum PcapngBlockProblem: Hashable, Sendable, CustomStringConvertible {
    /// The total length is less than the block type's fixed fields need.
    case totalLengthTooSmall(length: UInt32, minimum: Int)
    case totalLengthNotMultipleOfFour(length: UInt32)
    /// The length at the end of the block differs from the one at its start.
    case trailingLengthMismatch(leading: UInt32, trailing: UInt32)
    /// A block this reader reads whole is longer than ``Pcapng/maximumBlockLength``.
    case tooLarge(length: UInt32, limit: Int)
    /// A Section Header Block whose byte-order field is neither 0x1A2B3C4D nor its reverse.
    case unknownByteOrder(magic: UInt32)
    case unsupportedVersion(major: UInt16, minor: UInt16)
    /// A packet of an interface no Interface Description Block of the section described.
    case unknownInterface(id: UInt32, described: Int)
    case tooManyInterfaces(limit: Int)
    /// The captured length runs past the block's end.
    case capturedLengthPastBlock(captured: UInt32, room: Int)
    /// An option whose length runs past the block's end.
    case optionPastBlock(code: UInt16, length: UInt16)
    /// An option whose length is not the one its type has.
    case optionLength(code: UInt16, length: UInt16, expected: Int)

    public var description: String {
        switch self {
        case let .totalLengthTooSmall(length, minimum): "its total length \(length) is below the \(minimum) bytes it needs"
        case let .totalLengthNotMultipleOfFour(length): "its total length \(length) is not a multiple of 4"
        case let .trailingLengthMismatch(leading, trailing):
            "its total length is \(leading) at the start and \(trailing) at the end"
        case let .tooLarge(length, limit): "it claims \(length) bytes, more than the \(limit) this reader accepts"
        case let .unknownByteOrder(magic):
            "its byte-order magic is 0x\(String(magic, radix: 16, uppercase: true)), neither 0x1A2B3C4D nor 0x4D3C2B1A"
        case let .unsupportedVersion(major, minor): "version \(major).\(minor) is not 1.x"
        case let .unknownInterface(id, described):
            "its packet is on interface \(id), but the section describes \(described) interface(s) before it"
        case let .tooManyInterfaces(limit): "the section describes more than \(limit) interfaces"
        case let .capturedLengthPastBlock(captured, room): "its captured length \(captured) is more than the \(room) bytes the block holds"
        case let .optionPastBlock(code, length): "option \(code) of \(length) bytes runs past the end of the block"
        case let .optionLength(code, length, expected): "option \(code) has \(length) bytes, not \(expected)"
        }
    }
}
