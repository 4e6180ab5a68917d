// SPDX-License-Identifier: GPL-2.0-or-later

/// Why advertising data is not a valid iBeacon payload, and where.
///
/// `offset` is the byte offset (from 0) of the AD structure at fault — its length byte — except for
/// ``Kind/tooLong`` (the first byte past the limit) and ``Kind/noIBeacon`` (the end of the data).
@frozen
public struct BeaconDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong with the data.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// A structure's length byte is the last byte: there is no AD type after it.
        case truncatedStructure = "truncated-structure"
        /// A structure's length byte claims more bytes than remain in the data.
        case lengthOverrun = "length-overrun"
        /// A zero length byte (end of significant data) is followed by non-zero bytes.
        case zeroLengthFollowedByData = "zero-length-followed-by-data"
        /// Manufacturer data too short to hold a company identifier.
        case manufacturerDataTooShort = "manufacturer-data-too-short"
        /// Apple manufacturer data whose type/length bytes are not 0x02 0x15.
        case notIBeaconType = "not-ibeacon-type"
        /// An Apple iBeacon (02 15) structure whose own length byte is not 0x1A.
        case wrongManufacturerLength = "wrong-manufacturer-length"
        /// More bytes than the payload kind allows (31 for legacy advertising).
        case tooLong = "too-long"
        /// A second Flags structure.
        case duplicateFlags = "duplicate-flags"
        /// A second iBeacon structure.
        case duplicateIBeacon = "duplicate-ibeacon"
        /// The data holds no iBeacon structure at all.
        case noIBeacon = "no-ibeacon"
    }

    public var kind: Kind
    public var offset: Int

    @inlinable
    public init(_ kind: Kind, at offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    /// The reason in plain words.
    public var reason: String {
        switch kind {
        case .truncatedStructure: return "the data ends right after a length byte: the AD structure has no type"
        case .lengthOverrun: return "the AD structure's length byte runs past the end of the data"
        case .zeroLengthFollowedByData: return "a zero-length AD structure (end of data) is followed by non-zero bytes"
        case .manufacturerDataTooShort: return "manufacturer-specific data is too short to hold a company identifier"
        case .notIBeaconType: return "Apple manufacturer data is not an iBeacon (type 0x02, length 0x15 expected)"
        case .wrongManufacturerLength: return "the iBeacon manufacturer structure must have length 0x1A (26)"
        case .tooLong: return "more bytes than a legacy advertising payload may hold (31)"
        case .duplicateFlags: return "a second Flags AD structure"
        case .duplicateIBeacon: return "a second iBeacon structure"
        case .noIBeacon: return "no iBeacon (Apple manufacturer data 4C 00 02 15) in the data"
        }
    }

    public var description: String { "byte \(offset): \(reason)" }
}
