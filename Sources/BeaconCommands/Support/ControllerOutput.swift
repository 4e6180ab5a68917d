// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconJSON
import BeaconSite

/// `beacon site`'s lines: one per event, as text or JSON (`{"time":…,"event":…}`).
enum ControllerOutput {
    static func text(_ event: SiteController.Event) -> String {
        switch event {
        case .connected: "connected to the broker"
        case .disconnected(let reason): "broker connection lost (\(reason)); reconnecting (the agents keep their beacons on air)"
        case .adopted(let radios, let beacons): "adopted what was published before: \(Plural.of(radios, "radio")), \(Plural.of(beacons, "beacon"))"
        case .ready: "ready"
        case .hostOnline(let host): "\(host): online"
        case .hostOffline(let host): "\(host): offline"
        case .desired(let radio, let revision, let beacons): "\(radio): desired revision \(revision) (\(Plural.of(beacons, "beacon")))"
        case .beacon(let id, let name, let onAir, let radio, let reason):
            "\(name) (\(id)): " + (onAir ? "on air on \(radio.map(\.description) ?? "?")" : "off air: \(reason ?? "unknown")")
        case .unplaced(let id, let name, let reason): "\(name) (\(id)): not placed: \(reason)"
        case .rejected(let radio, let rejection): "\(radio): the agent refused the desired fleet: \(rejection)"
        }
    }

    static func json(_ event: SiteController.Event) -> JSONValue {
        let time = SiteEventTime.now
        func object(_ name: String, _ members: [(String, JSONValue)] = []) -> JSONValue { EventObject.object(time: time, event: name, members) }
        switch event {
        case .connected: return object("connected")
        case .disconnected(let reason): return object("disconnected", [("reason", .string(reason))])
        case .adopted(let radios, let beacons): return object("adopted", [("radios", .int(radios)), ("beacons", .int(beacons))])
        case .ready: return object("ready")
        case .hostOnline(let host): return object("host_online", [("host", .string(host))])
        case .hostOffline(let host): return object("host_offline", [("host", .string(host))])
        case .desired(let radio, let revision, let beacons):
            return object("desired", [("radio", .string(radio.description)), ("revision", .int(revision)), ("beacons", .int(beacons))])
        case .beacon(let id, let name, let onAir, let radio, let reason):
            var members: [(String, JSONValue)] = [("id", .string(id)), ("name", .string(name)), ("on_air", .bool(onAir)),
                                                  ("radio", .string(radio?.description))]
            if let reason { members.append(("reason", .string(reason))) }
            return object("beacon", members)
        case .unplaced(let id, let name, let reason): return object("unplaced", [("id", .string(id)), ("name", .string(name)), ("reason", .string(reason))])
        case .rejected(let radio, let rejection): return object("rejected", [("radio", .string(radio.description)), ("rejected", rejection.json)])
        }
    }

    /// A broker-less site's lines.
    static func text(_ event: LocalSiteRun.Event) -> String {
        switch event {
        case .onAir(let radio, let beacons): "\(radio): \(Plural.of(beacons, "beacon")) on air"
        case .unplaced(let id, let name, let reason): "\(name) (\(id)): not placed: \(reason)"
        case .failed(let radio, let reason): "\(radio): \(reason)"
        }
    }

    static func json(_ event: LocalSiteRun.Event) -> JSONValue {
        let time = SiteEventTime.now
        switch event {
        case .onAir(let radio, let beacons): return EventObject.object(time: time, event: "on_air", [("radio", .string(radio.description)), ("beacons", .int(beacons))])
        case .unplaced(let id, let name, let reason): return EventObject.object(time: time, event: "unplaced", [("id", .string(id)), ("name", .string(name)), ("reason", .string(reason))])
        case .failed(let radio, let reason): return EventObject.object(time: time, event: "failed", [("radio", .string(radio.description)), ("reason", .string(reason))])
        }
    }
}
