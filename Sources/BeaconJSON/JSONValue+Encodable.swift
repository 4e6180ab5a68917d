// SPDX-License-Identifier: GPL-2.0-or-later

/// A value encodes as the JSON it writes as ``JSONValue/text``, through any `Encoder`: this is how
/// BeaconJSON's `Codable` types encode, so that their members are written in one place (the
/// `json` form) whether a command prints them or a Swift program hands them to `JSONEncoder`
/// (which may order the members its own way).
extension JSONValue: Encodable {
    /// A member name as a coding key.
    struct MemberKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Encodes the value: an object's members in order (the encoder may reorder them), a
    /// number that is not finite as `null`.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .object(let members):
            var container = encoder.container(keyedBy: MemberKey.self)
            for (key, value) in members { try container.encode(value, forKey: MemberKey(stringValue: key)) }
        case .array(let items):
            var container = encoder.unkeyedContainer()
            for item in items { try container.encode(item) }
        case .string(let s):
            var container = encoder.singleValueContainer()
            try container.encode(s)
        case .int(let i):
            var container = encoder.singleValueContainer()
            try container.encode(i)
        case .double(let d):
            // As `text` writes it: JSON has no NaN or infinity.
            var container = encoder.singleValueContainer()
            if d.isFinite { try container.encode(d) } else { try container.encodeNil() }
        case .bool(let b):
            var container = encoder.singleValueContainer()
            try container.encode(b)
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        }
    }
}

extension KeyedDecodingContainer {
    /// A member that must be present and may be `null` (as "rssi" is when the controller gave
    /// none): `keyNotFound` when it is missing, `nil` when it is `null`.
    func decodeNullable<T>(forKey key: Key, _ read: (Key) throws -> T) throws -> T? {
        guard contains(key) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no member \"\(key.stringValue)\""))
        }
        return try decodeNil(forKey: key) ? nil : read(key)
    }

    /// An integer member that must fit `T`: `dataCorrupted` naming the key and the range when it
    /// does not (Foundation's `JSONDecoder` reports an out-of-range number as invalid JSON, naming
    /// no member).
    func decodeInRange<T: FixedWidthInteger>(_ type: T.Type, forKey key: Key) throws -> T {
        let value = try decode(Int.self, forKey: key)
        guard let fitting = T(exactly: value) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "\(value) is not in \(T.min)…\(T.max)")
        }
        return fitting
    }

    /// A string member read by `parse` (a UUID, an address…); `dataCorrupted` naming the key
    /// when `parse` refuses it.
    func decode<T>(_ key: Key, as what: String, _ parse: (String) -> T?) throws -> T {
        let text = try decode(String.self, forKey: key)
        guard let value = parse(text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "\"\(text)\" is not \(what)")
        }
        return value
    }

    /// The "event" member of an ``EventObject`` line, which must be `expected`.
    func decodeEvent(_ expected: String, forKey key: Key) throws {
        let event = try decode(String.self, forKey: key)
        guard event == expected else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "\"\(event)\" is not \"\(expected)\"")
        }
    }
}
