// SPDX-License-Identifier: GPL-2.0-or-later

/// A value decodes from any `Decoder` (a run's "plan" member, ``RunEventObject``): a whole
/// number as `.int`, another as `.double`; an object's members in name order (a `Decoder` need
/// not keep the text's order: Foundation's `JSONDecoder` does not), so compare decoded objects
/// member by member.
extension JSONValue: Decodable {
    public init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer() {
            if single.decodeNil() { self = .null; return }
            if let b = try? single.decode(Bool.self) { self = .bool(b); return }
            if let i = try? single.decode(Int.self) { self = .int(i); return }
            if let d = try? single.decode(Double.self) { self = .double(d); return }
            if let s = try? single.decode(String.self) { self = .string(s); return }
        }
        if let object = try? decoder.container(keyedBy: MemberKey.self) {
            self = .object(try object.allKeys.sorted { $0.stringValue < $1.stringValue }.map { ($0.stringValue, try object.decode(JSONValue.self, forKey: $0)) })
            return
        }
        var array = try decoder.unkeyedContainer()
        var items: [JSONValue] = []
        while !array.isAtEnd { items.append(try array.decode(JSONValue.self)) }
        self = .array(items)
    }
}
