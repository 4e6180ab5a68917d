// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconJSON

/// Home Assistant MQTT discovery (https://www.home-assistant.io/integrations/mqtt/): each beacon
/// a `switch` (on or off air) on the site's device, each radio a `connectivity` `binary_sensor`
/// on its host's device. Published retained by the controller under the site's discovery prefix.
public enum HomeAssistantDiscovery {
    /// The device a host's entities belong to.
    static func device(_ topics: SiteTopics, host: String) -> JSONValue {
        .object([
            ("identifiers", .array([.string(topics.objectID(host))])), ("name", .string("\(topics.site) \(host)")),
            ("manufacturer", .string("beacon")), ("model", .string("beacon agent")),
        ])
    }

    /// The device the beacons' switches belong to: the site's, which a beacon never leaves. Home
    /// Assistant (checked with 2024.1.6) keeps an entity on the device it was first discovered on:
    /// a discovery update naming another device adds that device but leaves the entity where it
    /// was, so a beacon on its host's device would stay with a host it left after a failover.
    static func siteDevice(_ topics: SiteTopics) -> JSONValue {
        .object([
            ("identifiers", .array([.string(topics.objectID())])), ("name", .string("\(topics.site) beacons")),
            ("manufacturer", .string("beacon")), ("model", .string("beacon site")),
        ])
    }

    /// A beacon's switch: on = on air. Available while the controller and the host of the radio
    /// carrying it are both online (their Last Will topics); published again when it moves.
    public static func beaconSwitch(_ topics: SiteTopics, id: String, name: String, host: String) -> JSONValue {
        .object([
            ("name", .string(name)),
            ("unique_id", .string(topics.objectID(id))),
            ("command_topic", .string(topics.beaconSet(id))),
            ("state_topic", .string(topics.beaconState(id))),
            ("payload_on", .string(SiteTopics.on)), ("payload_off", .string(SiteTopics.off)),
            ("state_on", .string(SiteTopics.on)), ("state_off", .string(SiteTopics.off)),
            ("availability", .array([availability(topics.controllerStatus), availability(topics.hostStatus(host))])),
            ("availability_mode", .string("all")),
            ("qos", .int(1)), ("retain", .bool(false)),
            ("icon", .string("mdi:bluetooth-audio")),
            ("device", siteDevice(topics)),
        ])
    }

    /// A radio's connectivity: its host's status (the agent's Last Will).
    public static func radioConnectivity(_ topics: SiteTopics, radio: SiteRadio.ID) -> JSONValue {
        .object([
            ("name", .string("\(radio.adapter) connectivity")),
            ("unique_id", .string(topics.objectID(radio.host, radio.adapter.text))),
            ("device_class", .string("connectivity")),
            ("state_topic", .string(topics.hostStatus(radio.host))),
            ("payload_on", .string(SiteTopics.online)), ("payload_off", .string(SiteTopics.offline)),
            ("entity_category", .string("diagnostic")),
            ("qos", .int(1)),
            ("device", device(topics, host: radio.host)),
        ])
    }

    static func availability(_ topic: String) -> JSONValue {
        .object([("topic", .string(topic)), ("payload_available", .string(SiteTopics.online)),
                 ("payload_not_available", .string(SiteTopics.offline))])
    }

    /// Every discovery message of a placed site: topic and payload.
    public static func messages(_ site: Site, placement: SitePlacement) -> [(topic: String, payload: JSONValue)] {
        let topics = SiteTopics(site)
        var out: [(String, JSONValue)] = site.radios.map { (topics.discoveryConnectivity($0.id), radioConnectivity(topics, radio: $0.id)) }
        for a in placement.assignments {
            out.append((topics.discoverySwitch(a.id), beaconSwitch(topics, id: a.id, name: a.beacon.name, host: a.radio.host)))
        }
        return out
    }
}
