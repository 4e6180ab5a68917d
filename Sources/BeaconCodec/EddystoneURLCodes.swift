// SPDX-License-Identifier: GPL-2.0-or-later

/// The Eddystone-URL scheme prefixes and expansion codes (eddystone-url spec), and encoding text
/// with them.
public enum EddystoneURLCodes {
    /// Scheme prefix byte 0x00…0x03.
    public static let schemes = ["http://www.", "https://www.", "http://", "https://"]
    /// Expansion code 0x00…0x0D; the bytes 0x0E–0x20 and 0x7F–0xFF are reserved.
    public static let expansions = [
        ".com/", ".org/", ".edu/", ".net/", ".info/", ".biz/", ".gov/",
        ".com", ".org", ".edu", ".net", ".info", ".biz", ".gov",
    ]

    /// The highest scheme code and expansion code, as the decoder checks them: plain constants,
    /// so decoding never touches the tables above (whose first use would allocate them).
    public static let lastScheme: UInt8 = 0x03
    public static let lastExpansion: UInt8 = 0x0D

    /// Whether a URL byte is an expansion code or a printable ASCII character.
    static func isAllowed(_ b: UInt8) -> Bool {
        b <= lastExpansion || (0x21...0x7E).contains(b)
    }

    /// The scheme byte and encoded bytes of `url`; longest matches first, so `https://www.`
    /// beats `https://` and `.com/` beats `.com`.
    static func encode(_ url: String) throws(EddystoneURLError) -> (UInt8, EddystoneURL.EncodedURL) {
        let text = Array(url.utf8)
        var best: (code: Int, length: Int)? = nil
        for (code, prefix) in schemes.enumerated() where text.starts(with: prefix.utf8) {
            if prefix.utf8.count > best?.length ?? 0 { best = (code, prefix.utf8.count) }
        }
        guard let scheme = best else { throw EddystoneURLError(.unsupportedScheme, url: url) }

        var encoded = EddystoneURL.EncodedURL()
        var length = 0
        var i = scheme.length
        while i < text.count {
            var byte = text[i]
            var taken = 1
            for (code, expansion) in expansions.enumerated() where expansion.utf8.count > taken && text[i...].starts(with: expansion.utf8) {
                byte = UInt8(code)
                taken = expansion.utf8.count
            }
            if taken == 1, !(0x21...0x7E).contains(byte) {
                // The character's offset in the text, counted in Unicode scalars as people read it.
                let offset = String(decoding: text[..<i], as: UTF8.self).unicodeScalars.count
                throw EddystoneURLError(.invalidCharacter, url: url, characterOffset: offset)
            }
            if length < EddystoneFormat.urlMaximumLength { encoded.append(byte) }
            length += 1
            i += taken
        }
        guard length <= EddystoneFormat.urlMaximumLength else {
            throw EddystoneURLError(.tooLong, url: url, encodedLength: length)
        }
        return (UInt8(scheme.code), encoded)
    }
}

/// Why text cannot be an Eddystone-URL.
public struct EddystoneURLError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong with the URL.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// Not http://, https://, http://www. or https://www. (lower case).
        case unsupportedScheme = "unsupported-scheme"
        /// A space, control or non-ASCII character: the frame carries printable ASCII only.
        case invalidCharacter = "invalid-character"
        /// More than 17 bytes after the scheme, once expansion codes are applied.
        case tooLong = "too-long"
    }

    public var kind: Kind
    public var url: String
    /// For ``Kind/invalidCharacter``: where, in characters from 0.
    public var characterOffset: Int
    /// For ``Kind/tooLong``: the encoded length after the scheme byte.
    public var encodedLength: Int

    public init(_ kind: Kind, url: String, characterOffset: Int = 0, encodedLength: Int = 0) {
        self.kind = kind
        self.url = url
        self.characterOffset = characterOffset
        self.encodedLength = encodedLength
    }

    public var description: String {
        switch kind {
        case .unsupportedScheme:
            return "'\(url)' must start with http://, https://, http://www. or https://www. (the schemes an Eddystone-URL frame can carry)"
        case .invalidCharacter:
            return "'\(url)' has a character Eddystone-URL cannot carry at character \(characterOffset) (printable ASCII only; percent-encode the rest)"
        case .tooLong:
            let limit = EddystoneFormat.urlMaximumLength
            return "'\(url)' encodes to \(encodedLength) bytes after the scheme, \(encodedLength - limit) over the \(limit)-byte limit of an Eddystone-URL frame (expansion codes such as .com/ already count as one byte; use a shorter URL or a redirect)"
        }
    }
}
