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
    /// The reason in plain words.
    public var reason: String

    /// A fault of `kind` at `offset`, with its reason in words.
    public init(_ kind: Kind, at offset: Int, reason: String) {
        self.kind = kind
        self.offset = offset
        self.reason = reason
    }

    /// Whether ``offset`` counts characters of the text (not bytes of the data).
    public var offsetIsCharacter: Bool { kind == .notHex }

    public var description: String { "\(offsetIsCharacter ? "character" : "byte") \(offset): \(kind.name): \(reason)" }
}
