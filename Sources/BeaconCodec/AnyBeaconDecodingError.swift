// SPDX-License-Identifier: GPL-2.0-or-later

/// Why advertising data holds no valid beacon of any format, and where.
///
/// The offset convention is ``BeaconDecodingError``'s: the length byte of the AD structure at
/// fault; for ``Kind/tooLong`` the first byte past the limit; for ``Kind/noBeacon`` the end of
/// the data. The kinds shared with ``BeaconDecodingError`` (AD structure faults, Apple data that
/// is not an iBeacon) keep its names and reasons.
public struct AnyBeaconDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong with the data.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case truncatedStructure = "truncated-structure"
        case lengthOverrun = "length-overrun"
        case zeroLengthFollowedByData = "zero-length-followed-by-data"
        case tooLong = "too-long"
        case duplicateFlags = "duplicate-flags"
        case manufacturerDataTooShort = "manufacturer-data-too-short"
        case notIBeaconType = "not-ibeacon-type"
        case wrongManufacturerLength = "wrong-manufacturer-length"
        /// Manufacturer data with the AltBeacon code `BE AC` whose length byte is not 0x1B.
        case altBeaconWrongLength = "altbeacon-wrong-length"
        /// Service data (AD type 0x16) too short to hold a 16-bit UUID.
        case serviceDataTooShort = "service-data-too-short"
        /// Eddystone service data whose frame type is not UID (0x00), URL (0x10) or TLM (0x20).
        case eddystoneUnknownFrame = "eddystone-unknown-frame"
        /// An Eddystone frame of the wrong length for its type (UID 20, URL 3–20, TLM 14 bytes).
        case eddystoneWrongLength = "eddystone-wrong-length"
        /// An Eddystone-UID frame whose two reserved bytes are not zero.
        case eddystoneReservedNotZero = "eddystone-reserved-not-zero"
        /// An Eddystone-URL scheme byte above 0x03.
        case eddystoneURLScheme = "eddystone-url-scheme"
        /// An Eddystone-URL byte Eddystone reserves (0x0E–0x20, 0x7F–0xFF).
        case eddystoneURLCharacter = "eddystone-url-character"
        /// An Eddystone-TLM version other than 0x00 (0x01 is encrypted TLM).
        case eddystoneTLMVersion = "eddystone-tlm-version"
        /// An Eddystone frame without 0xFEAA in a 16-bit service UUID list.
        case eddystoneUUIDNotListed = "eddystone-uuid-not-listed"
        /// A second beacon (of any format) in the same data.
        case duplicateBeacon = "duplicate-beacon"
        /// Well-formed data without a beacon of any supported format.
        case noBeacon = "no-beacon"

        /// The kind for an iBeacon decoding fault: the same name, except that "no iBeacon" and
        /// "a second iBeacon" become "no beacon" and "a second beacon".
        public init(sameAs kind: BeaconDecodingError.Kind) {
            // Spelled out rather than through the raw values: `init(rawValue:)` of a String enum
            // allocates, and decoding must not (AnyBeaconOnIBeaconVectorsTests checks the names).
            switch kind {
            case .truncatedStructure: self = .truncatedStructure
            case .lengthOverrun: self = .lengthOverrun
            case .zeroLengthFollowedByData: self = .zeroLengthFollowedByData
            case .manufacturerDataTooShort: self = .manufacturerDataTooShort
            case .notIBeaconType: self = .notIBeaconType
            case .wrongManufacturerLength: self = .wrongManufacturerLength
            case .tooLong: self = .tooLong
            case .duplicateFlags: self = .duplicateFlags
            case .duplicateIBeacon: self = .duplicateBeacon
            case .noIBeacon: self = .noBeacon
            }
        }
    }

    public var kind: Kind
    public var offset: Int

    public init(_ kind: Kind, at offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    /// The same fault as an iBeacon decoding error (the AD walker's and Apple data's).
    public init(_ e: BeaconDecodingError) {
        self.init(Kind(sameAs: e.kind), at: e.offset)
    }

    /// The reason in plain words.
    public var reason: String {
        if let shared = BeaconDecodingError.Kind(rawValue: kind.rawValue) {
            return BeaconDecodingError(shared, at: offset).reason
        }
        switch kind {
        case .altBeaconWrongLength: return "manufacturer data with the AltBeacon code BE AC must have length 0x1B (27)"
        case .serviceDataTooShort: return "service data is too short to hold a 16-bit service UUID"
        case .eddystoneUnknownFrame: return "Eddystone frame type is not UID (0x00), URL (0x10) or TLM (0x20)"
        case .eddystoneWrongLength: return "the Eddystone frame's length does not fit its type (UID 20, URL 3 to 20, TLM 14 bytes)"
        case .eddystoneReservedNotZero: return "the Eddystone-UID frame's two reserved bytes must be zero"
        case .eddystoneURLScheme: return "the Eddystone-URL scheme prefix must be 0x00 to 0x03"
        case .eddystoneURLCharacter: return "the Eddystone-URL holds a reserved byte (0x0E to 0x20 or 0x7F to 0xFF)"
        case .eddystoneTLMVersion: return "the Eddystone-TLM version is not 0x00 (unencrypted)"
        case .eddystoneUUIDNotListed: return "an Eddystone frame without 0xFEAA in a 16-bit service UUID list (AD type 0x02 or 0x03)"
        case .duplicateBeacon: return "a second beacon structure"
        case .noBeacon: return "no iBeacon, Eddystone or AltBeacon in the data"
        default: return kind.rawValue  // shared kinds, answered above
        }
    }

    public var description: String { "byte \(offset): \(reason)" }
}
