// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import Foundation

/// One line of `Vectors/ibeacon.jsonl`, exactly as written (see `Vectors/README.md`).
struct GoldenVectorLine: Decodable {
    struct Fields: Decodable {
        var uuid: String
        var major: UInt16
        var minor: UInt16
        var power: Int8
    }

    var name: String
    var hex: String
    var uuid: String?
    var major: UInt16?
    var minor: UInt16?
    var power: Int8?
    var flags: String?
    var canonical: Bool?
    var maxLength: Int?
    var error: String?
    var offset: Int?
    var lenient: Fields?
    var lenientError: String?

    /// Every key the format defines; a line with any other key is a typo, and refused.
    static let keys: Set<String> = [
        "name", "hex", "uuid", "major", "minor", "power", "flags", "canonical", "max_length",
        "error", "offset", "lenient", "lenient_error",
    ]
}

/// What lenient decoding of a malformed vector must give.
enum LenientExpectation: Hashable, Sendable {
    case beacon(IBeacon)
    case error(BeaconDecodingError.Kind)
}

/// A payload strict decoding must accept.
struct ValidVector: Hashable, Sendable, CustomStringConvertible {
    var name: String
    var bytes: [UInt8]
    var beacon: IBeacon
    var flags: BeaconFlags
    /// Whether `bytes` is exactly what `IBeacon.encode(flags:into:)` writes.
    var canonical: Bool
    var options: BeaconDecodingOptions
    var description: String { name }
}

/// A payload strict decoding must refuse, and why.
struct MalformedVector: Hashable, Sendable, CustomStringConvertible {
    var name: String
    var bytes: [UInt8]
    var error: BeaconDecodingError
    var options: BeaconDecodingOptions
    var lenient: LenientExpectation?
    var description: String { name }
}

struct GoldenVectorFile: Sendable {
    var valid: [ValidVector] = []
    var malformed: [MalformedVector] = []

    struct LoadError: Error, CustomStringConvertible {
        var description: String
    }

    /// The file as shipped in the test bundle.
    static let shipped: Result<GoldenVectorFile, LoadError> = {
        guard let url = Bundle.module.url(forResource: "ibeacon", withExtension: "jsonl", subdirectory: "Vectors") else {
            return .failure(LoadError(description: "Vectors/ibeacon.jsonl is not in the test bundle"))
        }
        do {
            return .success(try parse(String(contentsOf: url, encoding: .utf8)))
        } catch let error as LoadError {
            return .failure(error)
        } catch {
            return .failure(LoadError(description: "\(error)"))
        }
    }()

    /// Arguments for parameterised tests; empty when the file fails to load, which
    /// `GoldenVectorFileTests` reports as a failure of its own.
    static var validVectors: [ValidVector] { (try? shipped.get())?.valid ?? [] }
    static var malformedVectors: [MalformedVector] { (try? shipped.get())?.malformed ?? [] }

    static func parse(_ text: String) throws -> GoldenVectorFile {
        var file = GoldenVectorFile()
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where !line.isEmpty {
            func fail(_ why: String) -> LoadError { LoadError(description: "line \(number + 1): \(why)") }
            let data = Data(line.utf8)
            guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw fail("not a JSON object")
            }
            let unknown = Set(object.keys).subtracting(GoldenVectorLine.keys)
            guard unknown.isEmpty else { throw fail("unknown keys \(unknown.sorted())") }
            let v = try decoder.decode(GoldenVectorLine.self, from: data)
            guard let bytes = Hex.bytes(v.hex), v.hex == v.hex.uppercased(), !v.hex.contains(" ") else {
                throw fail("hex must be upper-case digits without separators")
            }
            var options = BeaconDecodingOptions.strict
            if let max = v.maxLength { options.maximumLength = max }

            if let errorName = v.error {
                guard let kind = BeaconDecodingError.Kind(rawValue: errorName), let offset = v.offset else {
                    throw fail("error needs a known kind and an offset")
                }
                guard v.uuid == nil, v.major == nil, v.minor == nil, v.power == nil, v.flags == nil, v.canonical == nil else {
                    throw fail("a malformed vector has no beacon fields")
                }
                var lenient: LenientExpectation? = nil
                if let f = v.lenient {
                    guard v.lenientError == nil else { throw fail("lenient and lenient_error are exclusive") }
                    lenient = .beacon(try beacon(f.uuid, f.major, f.minor, f.power, fail))
                } else if let e = v.lenientError {
                    guard let k = BeaconDecodingError.Kind(rawValue: e) else { throw fail("unknown lenient_error \(e)") }
                    lenient = .error(k)
                }
                file.malformed.append(MalformedVector(
                    name: v.name, bytes: bytes, error: BeaconDecodingError(kind, at: offset), options: options, lenient: lenient))
            } else {
                guard let uuid = v.uuid, let major = v.major, let minor = v.minor, let power = v.power,
                      let flagsText = v.flags, let flags = BeaconFlags(text: flagsText), flags.description == flagsText
                else { throw fail("a valid vector needs uuid, major, minor, power and flags (0x06, 0x1A or none)") }
                guard v.offset == nil, v.lenient == nil, v.lenientError == nil else {
                    throw fail("offset and lenient fields belong to malformed vectors")
                }
                file.valid.append(ValidVector(
                    name: v.name, bytes: bytes, beacon: try beacon(uuid, major, minor, power, fail), flags: flags,
                    canonical: v.canonical ?? true, options: options))
            }
        }
        return file
    }

    private static func beacon(
        _ uuid: String, _ major: UInt16, _ minor: UInt16, _ power: Int8, _ fail: (String) -> LoadError
    ) throws -> IBeacon {
        // The file spells UUIDs canonically in upper case; anything else is a mistake in the file.
        guard let u = BeaconUUID(uuid), u.description == uuid else { throw fail("bad uuid \(uuid)") }
        return IBeacon(uuid: u, major: major, minor: minor, measuredPower: power)
    }
}
