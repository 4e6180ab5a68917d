// SPDX-License-Identifier: GPL-2.0-or-later
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BeaconCodec

/// Why a capture file could not be read.
public enum CaptureError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `open(2)` failed.
    case cannotOpen(path: String, errno: Int32)
    /// `read(2)` failed part-way.
    case readFailed(path: String, errno: Int32)
    /// The file starts with neither `btsnoop\0` nor a pcap magic number.
    case notACapture(path: String)
    /// A btsnoop or pcap file whose link type this reader does not understand.
    case unsupportedLinkType(format: String, value: UInt32)
    /// The file ends inside a record header or a record's data.
    case truncatedRecord(fileOffset: Int, needed: Int, available: Int)
    /// A record claims more bytes than any HCI packet may have: the file is corrupt.
    case recordTooLarge(fileOffset: Int, length: Int)

    /// Control characters of the path are escaped: the message stays one line.
    public var description: String {
        let path: String
        switch self {
        case let .cannotOpen(p, _), let .readFailed(p, _), let .notACapture(p): path = p.escapingControlCharacters
        default: path = ""
        }
        return switch self {
        case let .cannotOpen(_, code): "cannot open \(path): \(String(cString: strerror(code)))"
        case let .readFailed(_, code): "reading \(path) failed: \(String(cString: strerror(code)))"
        case .notACapture:
            "\(path) is neither a btsnoop file (btmon -w, Android, beacon --btsnoop) nor a pcap file"
        case let .unsupportedLinkType(format, value):
            "\(format) link type \(value) is not supported (btsnoop: 1001, 1002, 2001; pcap: 187, 201, 254)"
        case let .truncatedRecord(offset, needed, available):
            "the capture ends inside the record at byte \(offset): \(needed) byte(s) needed, \(available) left"
        case let .recordTooLarge(offset, length):
            "the record at byte \(offset) claims \(length) bytes, more than an HCI packet can hold: the file is corrupt"
        }
    }
}
