// SPDX-License-Identifier: GPL-2.0-or-later
import TextLayout
import BeaconCodec
import BeaconJSON

/// A scan's updates as the JSON Lines events of docs/JSON.md ("beacon scan"): `scanning`, one
/// `report` per advertising report (BeaconJSON's `SightingObject`), `ranging`, `enter`/`exit`
/// and `stopped`, each with its time in seconds since the scan began. The objects are
/// BeaconJSON's, so every front end that prints a scan (and `locate --trace`, which reads one)
/// shares them. Enters and exits also have a line of text (``line(_:)``).
public struct ScanEventFormat: Sendable {
    /// The adapter scanned on, as the `scanning` event names it.
    public var adapter: String
    public var region: BeaconRegion
    public var model: DistanceModel
    /// With ``PhoneProfile/ios``, a beacon silent this second shows RSSI 0 and accuracy −1, as
    /// CLBeacon does.
    public var phone: PhoneProfile
    /// The scan's time 0.
    public var start: ContinuousClock.Instant

    /// The form of one scan's events.
    public init(adapter: String, region: BeaconRegion, model: DistanceModel, phone: PhoneProfile, start: ContinuousClock.Instant) {
        self.adapter = adapter
        self.region = region
        self.model = model
        self.phone = phone
        self.start = start
    }

    /// Seconds since the scan began, to the millisecond.
    public func seconds(_ instant: ContinuousClock.Instant) -> Double { NumberText.rounded((instant - start).seconds, places: 3) }

    /// The region scanned for: its UUID, major and minor (`null` for any).
    public var regionJSON: JSONValue { Self.region(region).json }

    /// `region` as BeaconJSON's scan events give it.
    static func region(_ region: BeaconRegion) -> ScanEvent.Region {
        ScanEvent.Region(uuid: region.uuid, major: region.major, minor: region.minor, namespace: region.namespace, instance: region.instance)
    }

    /// The distance model: its name and parameters.
    public var modelJSON: JSONValue {
        switch model {
        case .altBeacon: .object([("name", .string("altbeacon"))])
        case .pathLoss(let n): .object([("name", .string("pathloss")), ("exponent", .double(n))])
        case .curveFit(let c):
            .object([("name", .string("curvefit")), ("device", .string(c.device)), ("coefficients", .array([
                .double(c.coefficient1), .double(c.coefficient2), .double(c.coefficient3)]))])
        }
    }

    /// The event of `update`; `now` times the updates that carry no time of their own
    /// (`scanning`, `stopped`).
    public func json(_ update: ScanUpdate, now: ContinuousClock.Instant) -> JSONValue {
        switch update {
        case .started(let mode):
            return ScanEventObject(time: seconds(now), .scanning(adapter: adapter, mode: mode.rawValue, region: Self.region(region),
                                                                 model: modelJSON, as: phone.rawValue)).json
        case .report(let s):
            return SightingObject(time: seconds(s.time), beacon: s.beacon, rssi: s.rssi, address: s.address,
                                  addressType: s.addressType.rawValue, extended: s.extendedReport).json
        case let .ranging(beacons, at):
            let list = beacons.map { b in
                RangingEntryObject(identity: b.identity, power: b.measuredPower,
                                   rssi: b.rssi.map { NumberText.rounded($0, places: 1) } ?? (phone == .ios ? 0 : nil),
                                   accuracy: b.accuracy.map { NumberText.rounded($0, places: 2) } ?? (phone == .ios ? -1 : nil), proximity: b.proximity.rawValue,
                                   lastSeen: NumberText.rounded((at - b.lastSeen).seconds, places: 3),
                                   reportsPerSecond: NumberText.rounded(b.reportsPerSecond, places: 1), address: b.address)
            }
            return RangingObject(time: seconds(at), beacons: list).json
        case .region(let e):
            let region = Self.region(e.region)
            return ScanEventObject(time: seconds(e.time), e.kind == .enter ? .enter(beacon: e.beacon, region: region, regionChanged: e.regionChanged)
                                                                         : .exit(beacon: e.beacon, region: region, regionChanged: e.regionChanged)).json
        case .stopped:
            return ScanEventObject(time: seconds(now), .stopped).json
        }
    }

    /// An enter or exit as a line of text: `+1.2 s UUID 1 2 entered`, and ` (region … entered)`
    /// when the region's own state changed with it.
    public func line(_ e: RegionEvent) -> String {
        let what = e.kind == .enter ? "entered" : "exited"
        let region = e.regionChanged ? " (region \(e.region) \(what))" : ""
        return "+\(NumberText.fixed(seconds(e.time), places: 1)) s \(BeaconText.identity(e.beacon)) \(what)\(region)"
    }
}
