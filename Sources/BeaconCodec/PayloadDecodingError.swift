// SPDX-License-Identifier: GPL-2.0-or-later

/// Why one payload given as hex text is no beacon: the text is not hex, or the bytes break
/// the iBeacon rules or another format's structure (see ``AnyBeacon/init(identifying:options:)``).
public struct PayloadDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong.
    public enum Kind: Hashable, Sendable {
        /// The text is not hex: an odd digit count, or a character other than digits and separators.
        case notHex
        /// The iBeacon reading's fault (also "no iBeacon" for data without any beacon).
        case iBeacon(BeaconDecodingError.Kind)
        /// A fault another format's reading found in its own structure.
        case beacon(AnyBeaconDecodingError.Kind)

        /// The kind's stable name: `invalid-hex`, or the decoding error's raw value.
        public var name: String {
            switch self {
            case .notHex: "invalid-hex"
            case .iBeacon(let kind): kind.rawValue
            case .beacon(let kind): kind.rawValue
            }
        }
    }

    /// What was wrong.
    public var kind: Kind
    /// The character offset of the fault for ``Kind/notHex``, the byte offset otherwise (from 0).
    public var offset: Int

    /// A fault of `kind` at `offset`.
    public init(_ kind: Kind, at offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    /// The reason in plain words (worked out when asked: finding the fault allocates nothing).
    public var reason: String {
        switch kind {
        case .notHex: "not hex: an odd number of digits or a character other than 0-9, A-F and separators"
        case .iBeacon(let kind): BeaconDecodingError(kind, at: offset).reason
        case .beacon(let kind): AnyBeaconDecodingError(kind, at: offset).reason
        }
    }

    /// Whether ``offset`` counts characters of the text (not bytes of the data).
    public var offsetIsCharacter: Bool { kind == .notHex }

    public var description: String { "\(offsetIsCharacter ? "character" : "byte") \(offset): \(kind.name): \(reason)" }
}
