// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import Foundation

/// The golden vectors of the formats other than iBeacon: `Vectors/<format>.jsonl`, one file per
/// ``BeaconFormat`` (see `Vectors/README.md`). Written by `Tests/Harness/beacon_formats.py` from
/// the published specs and checked there against its own reference decoder, never by our codec.
struct FormatVector: Hashable, Sendable, CustomStringConvertible {
    enum Expectation: Hashable, Sendable {
        case beacon(AnyBeacon)
        case error(AnyBeaconDecodingError)
    }

    var format: BeaconFormat
    var name: String
    var bytes: [UInt8]
    var expected: Expectation
    var flags: BeaconFlags?
    var canonical: Bool
    var options: BeaconDecodingOptions
    /// What lenient decoding must give (valid vectors: the beacon itself).
    var lenient: Expectation?
    var description: String { "\(format)/\(name)" }
}

enum FormatVectorFiles {
    struct LoadError: Error, CustomStringConvertible {
        var description: String
    }

    /// The fields each format's lines carry (besides the common keys).
    static let fieldKeys: [BeaconFormat: Set<String>] = [
        .eddystoneUID: ["namespace", "instance", "tx_power"],
        .eddystoneURL: ["url", "tx_power"],
        .eddystoneTLM: ["battery_mv", "temperature", "advertising_count", "uptime_tenths"],
        .altBeacon: ["manufacturer", "id", "rssi", "reserved"],
    ]
    static let commonKeys: Set<String> = ["name", "hex", "flags", "canonical", "max_length", "error", "offset", "lenient", "lenient_error"]

    static let shipped: Result<[FormatVector], LoadError> = {
        var all: [FormatVector] = []
        for format in fieldKeys.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
            guard let url = Bundle.module.url(forResource: format.rawValue, withExtension: "jsonl", subdirectory: "Vectors") else {
                return .failure(LoadError(description: "Vectors/\(format.rawValue).jsonl is not in the test bundle"))
            }
            do {
                all += try parse(String(contentsOf: url, encoding: .utf8), format: format)
            } catch let error as LoadError {
                return .failure(LoadError(description: "\(format.rawValue).jsonl: \(error.description)"))
            } catch {
                return .failure(LoadError(description: "\(format.rawValue).jsonl: \(error)"))
            }
        }
        return .success(all)
    }()

    static var vectors: [FormatVector] { (try? shipped.get()) ?? [] }

    static func parse(_ text: String, format: BeaconFormat) throws -> [FormatVector] {
        var out: [FormatVector] = []
        for (number, line) in text.split(separator: "\n").enumerated() {
            func fail(_ why: String) -> LoadError { LoadError(description: "line \(number + 1): \(why)") }
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { throw fail("not a JSON object") }
            let fields = fieldKeys[format] ?? []
            let unknown = Set(object.keys).subtracting(commonKeys).subtracting(fields)
            guard unknown.isEmpty else { throw fail("unknown keys \(unknown.sorted())") }
            guard let name = object["name"] as? String, let hex = object["hex"] as? String, let bytes = Hex.bytes(hex),
                  hex == hex.uppercased(), !hex.contains(" ") else { throw fail("name and upper-case hex without separators needed") }
            var options = BeaconDecodingOptions.strict
            if let max = object["max_length"] as? Int { options.maximumLength = max }
            var lenient: FormatVector.Expectation? = nil
            if let l = object["lenient"] as? [String: Any] {
                lenient = .beacon(try beacon(format, l, fail))
            } else if let e = object["lenient_error"] as? String {
                guard let kind = AnyBeaconDecodingError.Kind(rawValue: e) else { throw fail("unknown lenient_error \(e)") }
                lenient = .error(AnyBeaconDecodingError(kind, at: bytes.count))
            }
            if let errorName = object["error"] as? String {
                guard let kind = AnyBeaconDecodingError.Kind(rawValue: errorName), let offset = object["offset"] as? Int else {
                    throw fail("error needs a known kind and an offset")
                }
                guard Set(object.keys).isDisjoint(with: fields.union(["flags", "canonical"])) else { throw fail("a malformed vector has no beacon fields") }
                out.append(FormatVector(format: format, name: name, bytes: bytes, expected: .error(AnyBeaconDecodingError(kind, at: offset)),
                                        flags: nil, canonical: false, options: options, lenient: lenient))
            } else {
                guard let flagsText = object["flags"] as? String, let flags = BeaconFlags(text: flagsText), flags.description == flagsText else {
                    throw fail("a valid vector needs flags (0x06, 0x1A or none)")
                }
                guard object["offset"] == nil, lenient == nil else { throw fail("offset and lenient fields belong to malformed vectors") }
                let b = try beacon(format, object, fail)
                out.append(FormatVector(format: format, name: name, bytes: bytes, expected: .beacon(b), flags: flags,
                                        canonical: object["canonical"] as? Bool ?? true, options: options, lenient: .beacon(b)))
            }
        }
        return out
    }

    /// The beacon a line's fields describe; exactly the format's keys, spelled canonically.
    static func beacon(_ format: BeaconFormat, _ o: [String: Any], _ fail: (String) -> LoadError) throws -> AnyBeacon {
        let keys = Set(o.keys).subtracting(commonKeys)
        guard keys == fieldKeys[format] else { throw fail("\(format) needs exactly \(fieldKeys[format]?.sorted() ?? []), got \(keys.sorted())") }
        func int(_ key: String) throws -> Int {
            guard let v = o[key] as? Int else { throw fail("\(key) must be an integer") }
            return v
        }
        func text(_ key: String) throws -> String {
            guard let v = o[key] as? String else { throw fail("\(key) must be a string") }
            return v
        }
        func fits<T: FixedWidthInteger>(_ key: String, _: T.Type) throws -> T {
            guard let v = T(exactly: try int(key)) else { throw fail("\(key) out of range for \(T.self)") }
            return v
        }
        switch format {
        case .eddystoneUID:
            guard let ns = EddystoneNamespace(try text("namespace")), ns.description == (try text("namespace")),
                  let inst = EddystoneInstance(try text("instance")), inst.description == (try text("instance")) else {
                throw fail("namespace: 20 and instance: 12 upper-case hex digits")
            }
            return .eddystoneUID(EddystoneUID(namespace: ns, instance: inst, txPower: try fits("tx_power", Int8.self)))
        case .eddystoneURL:
            do {
                return .eddystoneURL(try EddystoneURL(url: try text("url"), txPower: try fits("tx_power", Int8.self)))
            } catch let e as EddystoneURLError {
                throw fail("url: \(e)")
            }
        case .eddystoneTLM:
            return .eddystoneTLM(EddystoneTLM(
                batteryMillivolts: try fits("battery_mv", UInt16.self), temperature: try fits("temperature", Int16.self),
                advertisingCount: try fits("advertising_count", UInt32.self), uptimeTenths: try fits("uptime_tenths", UInt32.self)))
        case .altBeacon:
            guard let id = AltBeaconID(try text("id")), id.description == (try text("id")) else { throw fail("id: UUID-XXXXXXXX in upper case") }
            return .altBeacon(AltBeacon(manufacturerID: try fits("manufacturer", UInt16.self), id: id,
                                        referenceRSSI: try fits("rssi", Int8.self), reserved: try fits("reserved", UInt8.self)))
        case .iBeacon:
            throw fail("iBeacon vectors live in ibeacon.jsonl")
        }
    }
}
