// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconJSON
import BeaconSite

/// `beacon agent`'s lines: one per event, as text or JSON (`{"time":…,"event":…}`).
enum AgentOutput {
    static func text(_ event: SiteAgent.Event) -> String {
        switch event {
        case .connected: "connected to the broker"
        case .disconnected(let reason): "broker connection lost (\(reason)); the beacons stay on air, reconnecting"
        case .brokerRefused(let reason): "the broker refused the reconnection: \(reason)"
        case .applied(let radio, let revision, let beacons): "\(radio): revision \(revision) on air (\(beacons) beacons)"
        case .unchanged(let radio, let revision): "\(radio): revision \(revision): nothing changed"
        case .rejected(let radio, let rejection): "\(radio): desired fleet refused: \(rejection)"
        case .failed(let radio, let reason): "\(radio): \(reason)"
        }
    }

    static func json(_ event: SiteAgent.Event) -> JSONValue {
        let time = SiteEventTime.now
        switch event {
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
        }
    }
}
