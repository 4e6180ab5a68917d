// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconEmulator
import BeaconJSON

/// Whether one beacon is on air, as its agent reports it.
public struct BeaconState: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case onAir = "on_air"
        case off
        case error
    }

    /// The beacon's identity on the site (``SiteBeaconID``).
    public var id: String
    public var name: String
    public var state: Kind
    /// Why it is off or in error (`nil` when on air).
    public var reason: String?
    /// Since when (seconds since 1970) it has been in this state.
    public var since: Double
    /// The advertiser of the radio that carries it, as the agent's plan chose it (on air only).
    public var seat: AdvertiserSeat?

    public init(id: String, name: String, state: Kind, reason: String? = nil, since: Double, seat: AdvertiserSeat? = nil) {
        self.id = id
        self.name = name
        self.state = state
        self.reason = reason
        self.since = since
        self.seat = seat
    }

    /// With the seat as `advertiser`, `mode`, `slot` and `slots`: the names `advertise --plan
    /// --json` gives them.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [("id", .string(id)), ("name", .string(name)), ("state", .string(state.rawValue))]
        if let reason { members.append(("reason", .string(reason))) }
        members.append(("since", .double(since)))
        if let seat { members += Self.members(of: seat) }
        return .object(members)
    }

    public init?(json object: JSONObjectView) {
        guard let id = object.string("id"), let state = object.string("state").flatMap(Kind.init(rawValue:)) else { return nil }
        self.init(id: id, name: object.string("name") ?? id, state: state, reason: object.string("reason"), since: object.double("since") ?? 0,
                  seat: Self.seat(in: object))
    }

    /// A seat's JSON members (a controller's `beacon` event carries them too).
    public static func members(of seat: AdvertiserSeat) -> [(String, JSONValue)] {
        [("advertiser", .int(Int(seat.advertiser))), ("mode", .string(seat.mode.rawValue)), ("slot", .int(seat.slot)), ("slots", .int(seat.slots))]
    }

    /// The seat in `object`, or nil when it has none (or one out of range).
    static func seat(in object: JSONObjectView) -> AdvertiserSeat? {
        guard let advertiser = object.int("advertiser").flatMap(UInt8.init(exactly:)),
              let mode = object.string("mode").flatMap(AdapterPlan.Mode.init(rawValue:)) else { return nil }
        let slots = max(1, object.int("slots") ?? 1)
        return AdvertiserSeat(mode: mode, advertiser: advertiser, slot: min(max(0, object.int("slot") ?? 0), slots - 1), slots: slots)
    }
}

/// What an agent publishes, retained, on `…/hosts/<host>/<adapter>/state`: the desired revision it
/// applied, each beacon's state, and the last desired payload it refused, if any.
public struct RadioStateReport: Sendable, Hashable {
    /// The revision of the desired fleet on air (`nil`: none received yet).
    public var revision: Int?
    public var beacons: [BeaconState]
    /// The last desired payload refused (what stays on air is the revision before it).
    public var rejected: DesiredRejection?

    /// The largest state payload the controller reads (16 MiB): a radio's fleet of 65,536
    /// beacons (a desired fleet's most, `ProfileLoader.maximumFleetSize`) at 256 bytes each, where
    /// a beacon on air takes about 170. Anything larger is dropped unread and said once.
    public static let maximumPayloadSize = 16 << 20

    public init(revision: Int?, beacons: [BeaconState], rejected: DesiredRejection? = nil) {
        self.revision = revision
        self.beacons = beacons
        self.rejected = rejected
    }

    public var json: JSONValue {
        var members: [(String, JSONValue)] = [("revision", .int(revision)), ("beacons", .array(beacons.map(\.json)))]
        if let rejected { members.append(("rejected", rejected.json)) }
        return .object(members)
    }

    public var payload: [UInt8] {
        var bytes: [UInt8] = []
        json.write(to: &bytes)
        return bytes
    }

    /// How many characters of a reason (and of a refused value) a state shortened to fit
    /// ``maximumPayloadSize`` keeps (see ``boundedPayload``).
    public static let shortenedTextLength = 120

    /// ``payload`` within ``maximumPayloadSize``, which is all the controller reads: in whole when
    /// it fits. Else each beacon without its name (the controller names a beacon by its site's
    /// file, and by its identity without it) and every reason, and the refusal's value, cut to
    /// ``shortenedTextLength`` characters; else without reasons at all. A radio's most beacons
    /// (65,536, each at most its identity, state, time and seat) then take about 11 MiB, so the
    /// state always reaches the controller, never dropped whole for its names and reasons.
    public var boundedPayload: [UInt8] {
        let whole = payload
        guard whole.count > Self.maximumPayloadSize else { return whole }
        func cut(_ text: String?) -> String? { text.map { $0.count > Self.shortenedTextLength ? String($0.prefix(Self.shortenedTextLength)) + "…" : $0 } }
        var short = self
        short.beacons = beacons.map { b in
            var b = b
            b.name = b.id
            b.reason = cut(b.reason)
            return b
        }
        if var refusal = rejected {
            refusal.value = cut(refusal.value) ?? ""
            refusal.reason = cut(refusal.reason) ?? ""
            short.rejected = refusal
        }
        let shortened = short.payload
        guard shortened.count > Self.maximumPayloadSize else { return shortened }
        for i in short.beacons.indices { short.beacons[i].reason = nil }
        return short.payload
    }

    /// Reads a state payload; `nil` when it is not one.
    public init?(payload: [UInt8]) {
        guard let text = String(validating: payload, as: UTF8.self), let value = try? JSONValue(parsing: text),
              let members = value.members else { return nil }
        let object = JSONObjectView(members)
        guard case .array(let list)? = object["beacons"] else { return nil }
        let beacons = list.compactMap { $0.members.flatMap { BeaconState(json: JSONObjectView($0)) } }
        let rejected = object["rejected"]?.members.flatMap { DesiredRejection(json: JSONObjectView($0)) }
        self.init(revision: object.int("revision"), beacons: beacons, rejected: rejected)
    }
}
