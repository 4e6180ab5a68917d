// SPDX-License-Identifier: GPL-2.0-or-later
import TextLayout
import BeaconCodec
import BeaconJSON

// The events of a site's controller, its agents and a broker-less site as a line of text or a
// JSON object (`{"time":…,"event":…}`, docs/JSON.md): what `beacon site` and `beacon agent`
// print, and what any other front end shows.

extension SiteController.Event {
    /// The event as a line for people: `ready`, `hall: online`, `door (…): on air on hall/hci0 set 1`.
    /// Values from elsewhere (names, reasons, hosts from the broker) are escaped
    /// (`escapingControlCharacters`): a line can neither drive the terminal nor forge another.
    public var text: String { unescapedText.escapingControlCharacters }

    private var unescapedText: String {
        switch self {
        case .connected: "connected to the broker"
        case .disconnected(let reason): "broker connection lost (\(reason)); reconnecting (the agents keep their beacons on air)"
        case .adopted(let radios, let beacons): "adopted what was published before: \(Plural.of(radios, "radio")), \(Plural.of(beacons, "beacon"))"
        case .ready: "ready"
        case .resynced(let unchanged, let republished):
            "reconnected: \(Plural.of(unchanged, "desired fleet")) kept by the broker, \(republished) published again"
        case .hostOnline(let host): "\(host): online"
        case .hostOffline(let host): "\(host): offline"
        case .desired(let radio, let revision, let beacons): "\(radio): desired revision \(revision) (\(Plural.of(beacons, "beacon")))"
        case .placed(_, let placement):
            "placed \(Plural.of(placement.assignments.count, "beacon")) on \(Plural.of(placement.radios.count, "radio")), \(placement.unplaced.count) not placed"
        case .beacon(let id, let name, let onAir, let radio, let reason, let error, let seat):
            "\(name) (\(id)): " + (onAir ? "on air on \(radio.map(\.description) ?? "?")" + (seat.map { " \($0.text)" } ?? "")
                : "off air\(error ? " (error)" : ""): \(reason ?? "unknown")")
        case .unplaced(let id, let name, let reason): "\(name) (\(id)): not placed: \(reason)"
        case .rejected(let radio, let rejection): "\(radio): the agent refused the desired fleet: \(rejection)"
        case .publishRefused(let topic, let code, let reason):
            "the broker refused the message on \(topic): \(reason) (code \(code)); further refusals under \(OrderedPublisher.Refusal.kind(of: topic))/ are not repeated"
        case .ignored(let topic, let reason): "ignored the message on \(topic): \(reason) (said once per topic)"
        }
    }

    /// The event as one JSON object at `time` (seconds since the front end started).
    public func json(time: Double) -> JSONValue {
        func object(_ name: String, _ members: [(String, JSONValue)] = []) -> JSONValue { EventObject.object(time: time, event: name, members) }
        switch self {
        case .connected: return object("connected")
        case .disconnected(let reason): return object("disconnected", [("reason", .string(reason))])
        case .adopted(let radios, let beacons): return object("adopted", [("radios", .int(radios)), ("beacons", .int(beacons))])
        case .ready: return object("ready")
        case .resynced(let unchanged, let republished): return object("resynced", [("unchanged", .int(unchanged)), ("republished", .int(republished))])
        case .hostOnline(let host): return object("host_online", [("host", .string(host))])
        case .hostOffline(let host): return object("host_offline", [("host", .string(host))])
        case .desired(let radio, let revision, let beacons):
            return object("desired", [("radio", .string(radio.description)), ("revision", .int(revision)), ("beacons", .int(beacons))])
        case .placed(_, let placement):
            return object("placed", [("radios", .int(placement.radios.count)), ("placed", .int(placement.assignments.count)),
                                     ("unplaced", .int(placement.unplaced.count))])
        case .beacon(let id, let name, let onAir, let radio, let reason, let error, let seat):
            var members: [(String, JSONValue)] = [("id", .string(id)), ("name", .string(name)), ("on_air", .bool(onAir)),
                                                  ("radio", .string(radio?.description))]
            if let seat { members += BeaconState.members(of: seat) }
            if let reason { members.append(("reason", .string(reason))) }
            if error { members.append(("error", .bool(true))) }
            return object("beacon", members)
        case .unplaced(let id, let name, let reason): return object("unplaced", [("id", .string(id)), ("name", .string(name)), ("reason", .string(reason))])
        case .rejected(let radio, let rejection): return object("rejected", [("radio", .string(radio.description)), ("rejected", rejection.json)])
        case .publishRefused(let topic, let code, let reason):
            return object("publish_refused", [("topic", .string(topic)), ("code", .int(code)), ("reason", .string(reason))])
        case .ignored(let topic, let reason): return object("ignored", [("topic", .string(topic)), ("reason", .string(reason))])
        }
    }
}

extension LocalSiteRun.Event {
    /// A broker-less site's event as a line: `hall/hci0: 3 beacons on air`.
    /// Values from elsewhere (names, reasons, hosts from the broker) are escaped
    /// (`escapingControlCharacters`): a line can neither drive the terminal nor forge another.
    public var text: String { unescapedText.escapingControlCharacters }

    private var unescapedText: String {
        switch self {
        case .onAir(let radio, let beacons, _): "\(radio): \(Plural.of(beacons, "beacon")) on air"
        case .unplaced(let id, let name, let reason): "\(name) (\(id)): not placed: \(reason)"
        case .failed(let radio, let reason): "\(radio): \(reason)"
        }
    }

    /// The event as one JSON object at `time` (seconds since the front end started).
    public func json(time: Double) -> JSONValue {
        switch self {
        case .onAir(let radio, let beacons, _): return EventObject.object(time: time, event: "on_air", [("radio", .string(radio.description)), ("beacons", .int(beacons))])
        case .unplaced(let id, let name, let reason): return EventObject.object(time: time, event: "unplaced", [("id", .string(id)), ("name", .string(name)), ("reason", .string(reason))])
        case .failed(let radio, let reason): return EventObject.object(time: time, event: "failed", [("radio", .string(radio.description)), ("reason", .string(reason))])
        }
    }
}

extension SiteAgent.Event {
    /// An agent's event as a line: `hall/hci0: revision 3 on air (2 beacons)`.
    /// Values from elsewhere (names, reasons, hosts from the broker) are escaped
    /// (`escapingControlCharacters`): a line can neither drive the terminal nor forge another.
    public var text: String { unescapedText.escapingControlCharacters }

    private var unescapedText: String {
        switch self {
        case .connected: "connected to the broker"
        case .disconnected(let reason): "broker connection lost (\(reason)); the beacons stay on air, reconnecting"
        case .brokerRefused(let reason): "the broker refused the reconnection: \(reason)"
        case .applied(let radio, let revision, let beacons): "\(radio): revision \(revision) on air (\(beacons) beacons)"
        case .unchanged(let radio, let revision): "\(radio): revision \(revision): nothing changed"
        case .rejected(let radio, let rejection): "\(radio): desired fleet refused: \(rejection)"
        case .failed(let radio, let reason): "\(radio): \(reason)"
        case .publishRefused(let topic, let code, let reason, let stopping):
            "the broker refused the message on \(topic): \(reason) (code \(code)); "
                + (stopping ? "this host cannot say it is online: stopping" : "further refusals under \(OrderedPublisher.Refusal.kind(of: topic))/ are not repeated")
        }
    }

    /// The event as one JSON object at `time` (seconds since the agent started).
    public func json(time: Double) -> JSONValue {
        switch self {
        case .connected: return EventObject.object(time: time, event: "connected")
        case .disconnected(let reason): return EventObject.object(time: time, event: "disconnected", [("reason", .string(reason))])
        case .brokerRefused(let reason): return EventObject.object(time: time, event: "refused", [("reason", .string(reason))])
        case .applied(let radio, let revision, let beacons):
            return EventObject.object(time: time, event: "applied", [("radio", .string(radio.description)), ("revision", .int(revision)), ("beacons", .int(beacons))])
        case .unchanged(let radio, let revision):
            return EventObject.object(time: time, event: "unchanged", [("radio", .string(radio.description)), ("revision", .int(revision))])
        case .rejected(let radio, let rejection):
            return EventObject.object(time: time, event: "rejected", [("radio", .string(radio.description)), ("rejected", rejection.json)])
        case .failed(let radio, let reason):
            return EventObject.object(time: time, event: "failed", [("radio", .string(radio.description)), ("reason", .string(reason))])
        case .publishRefused(let topic, let code, let reason, let stopping):
            return EventObject.object(time: time, event: "publish_refused",
                                      [("topic", .string(topic)), ("code", .int(code)), ("reason", .string(reason)), ("stopping", .bool(stopping))])
        }
    }
}
