// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// One advertising report as `beacon scan --json` prints it (a "report" event): the beacon's
/// fields in profile words, then what was received. ``TraceSample`` reads it back: the contract of
/// `beacon scan --json | beacon locate FLEET --trace -` (docs/schema/scan-report.schema.json).
public struct SightingObject: Sendable {
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

    /// The line's object: ``EventObject`` envelope, the beacon, then rssi, address, address_type
    /// and extended.
    public var json: JSONValue {
        EventObject.object(time: time, event: Self.event, BeaconObject.fields(beacon, naming: .profile) + [
            ("rssi", .int(rssi)), ("address", .string(address.description)),
            ("address_type", .int(addressType)), ("extended", .bool(extended)),
        ])
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
