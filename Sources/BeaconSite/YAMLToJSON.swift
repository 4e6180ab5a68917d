// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconJSON
import Yams

/// A composed YAML node as JSON: plain scalars that are numbers become numbers (`0x004C` too,
/// as YAML reads it), everything else strings; mappings keep their order.
enum YAMLToJSON {
    static func value(_ node: Node) -> JSONValue {
        switch node {
        case .scalar(let scalar):
            let text = scalar.string
            guard scalar.style == .plain || scalar.style == .any else { return .string(text) }
            if let i = Int(text) { return .int(i) }
            if text.hasPrefix("0x"), let i = Int(text.dropFirst(2), radix: 16) { return .int(i) }
            if let d = Double(text), d.isFinite, text.first.map({ $0.isNumber || $0 == "-" || $0 == "." }) == true { return .double(d) }
            return .string(text)
        case .mapping(let mapping):
            return .object(mapping.map { ($0.key.scalar?.string ?? "", value($0.value)) })
        case .sequence(let sequence):
            return .array(sequence.map(value))
        case .alias:
            return .null
        }
    }
}
