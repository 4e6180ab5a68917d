// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// One advertising report as `beacon scan --json` prints it (a "report" event): the beacon's
/// fields in profile words, then what was received. ``TraceSample`` reads it back: the contract of
/// `beacon scan --json | beacon locate FLEET --trace -` (docs/schema/scan-report.schema.json).
///
/// `Codable` for a Swift program: it encodes the members ``json`` writes, and decodes a line
/// `beacon scan --json` prints (see ``init(from:)``).
public struct SightingObject: Sendable, Hashable, Codable {
    /// Seconds since the scan began.
    public var time: Double
    public var beacon: AnyBeacon
    /// The received signal strength (dBm); `nil` when the controller did not give one.
    public var rssi: Int8?
    public var address: BluetoothAddress
    /// The HCI address type (0 public, 1 random, …).
    public var addressType: UInt8
    /// Whether it came in an extended advertising report.
    public var extended: Bool

    /// A report with its values; `time` is written as given (callers round it).
    public init(time: Double, beacon: AnyBeacon, rssi: Int8?, address: BluetoothAddress, addressType: UInt8, extended: Bool) {
        self.time = time
        self.beacon = beacon
        self.rssi = rssi
        self.address = address
        self.addressType = addressType
        self.extended = extended
    }

    /// The "event" of a report line.
    public static let event = "report"

    /// The members after the envelope and the beacon's, in the order they are written.
    enum CodingKeys: String, CodingKey {
        case time, event
        case rssi, address, addressType = "address_type", extended
    }

    /// The line's object: ``EventObject`` envelope, the beacon, then rssi, address, address_type
    /// and extended.
    public var json: JSONValue {
        EventObject.object(time: time, event: Self.event, BeaconObject.fields(beacon, naming: .profile) + [
            (CodingKeys.rssi.rawValue, .int(rssi)), (CodingKeys.address.rawValue, .string(address.description)),
            (CodingKeys.addressType.rawValue, .int(addressType)), (CodingKeys.extended.rawValue, .bool(extended)),
        ])
    }

    /// Encodes the members of ``json``.
    public func encode(to encoder: any Encoder) throws { try json.encode(to: encoder) }

    /// Decodes a report line: "event" must be "report", the beacon's members are in profile
    /// words, and "rssi" is present (`null` when the controller gave none). A missing member
    /// throws `DecodingError.keyNotFound`, a member of the wrong type `typeMismatch`, an
    /// unreadable or out-of-range value `dataCorrupted`, each naming the member.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try c.decodeEvent(Self.event, forKey: .event)
        self.init(time: try c.decode(Double.self, forKey: .time),
                  beacon: try CodableBeacon(from: decoder.container(keyedBy: BeaconObject.Key.self), naming: .profile).beacon,
                  rssi: try c.decodeNullable(forKey: .rssi) { try c.decodeInRange(Int8.self, forKey: $0) },
                  address: try c.decode(.address, as: "a Bluetooth address") { BluetoothAddress($0) },
                  addressType: try c.decodeInRange(UInt8.self, forKey: .addressType),
                  extended: try c.decode(Bool.self, forKey: .extended))
    }
}

/// What `locate --trace` takes from a line: a ``SightingObject`` (of any format but TLM) or a
/// plain `{"time","uuid","major","minor","rssi"[,"power"]}` line.
public struct TraceSample: Sendable, Equatable {
    public var time: Double
    public var key: BeaconKey
    public var rssi: Double
    /// The beacon's power at 1 m, when the line has it.
    public var powerAt1m: Int8?

    /// Why a trace line is not a sample.
    public enum LineError: Error, Equatable, CustomStringConvertible {
        case notAnObject
        /// An iBeacon line (or one without "format") without its fields.
        case incompleteIBeacon
        /// A line of another format without its fields.
        case incomplete(format: String)

        public var description: String {
            switch self {
            case .notAnObject: "not a JSON object"
            case .incompleteIBeacon: "a sample needs time, uuid, major, minor and rssi (finite numbers; major and minor 0 to 65535)"
            case .incomplete(let format): "a \(format) sample needs time, rssi and the format's identity fields as a scan's JSON lines give them"
            }
        }
    }

    /// The sample of one line; `nil` for a blank line, an event other than a report, or a TLM
    /// report (no identity).
    public init?(line: some StringProtocol) throws(LineError) {
        if line.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) { return nil }
        guard let members = (try? JSONValue(parsing: line))?.members else { throw .notAnObject }
        let object = JSONObjectView(members)
        if let event = object.string("event"), event != SightingObject.event { return nil }
        let format = object.string("format") ?? BeaconFormat.iBeacon.rawValue
        if format == BeaconFormat.eddystoneTLM.rawValue { return nil }
        let failure: LineError = format == BeaconFormat.iBeacon.rawValue ? .incompleteIBeacon : .incomplete(format: format)
        // 1e999 reads as infinity: not a time or an RSSI.
        guard let time = object.double("time"), let rssi = object.double("rssi"), time.isFinite, rssi.isFinite,
              let (key, power) = BeaconObject.key(from: object) else { throw failure }
        self.init(time: time, key: key, rssi: rssi, powerAt1m: power)
    }

    /// A sample with its values given (what a line reads as).
    public init(time: Double, key: BeaconKey, rssi: Double, powerAt1m: Int8?) {
        self.time = time
        self.key = key
        self.rssi = rssi
        self.powerAt1m = powerAt1m
    }
}
