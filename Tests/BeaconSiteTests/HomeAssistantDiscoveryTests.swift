// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconJSON
import Testing
import TestSupport
@testable import BeaconSite

/// The discovery payloads against Home Assistant's documented MQTT switch and binary_sensor
/// configuration variables (https://www.home-assistant.io/integrations/switch.mqtt/,
/// https://www.home-assistant.io/integrations/binary_sensor.mqtt/, and the device keys of
/// https://www.home-assistant.io/integrations/mqtt/#discovery-payload): only documented keys,
/// the required ones present, values of the documented kinds.
@Suite struct HomeAssistantDiscoveryTests {
    static let common: Set<String> = [
        "availability", "availability_mode", "availability_template", "availability_topic", "default_entity_id", "device",
        "enabled_by_default", "encoding", "entity_category", "entity_picture", "icon", "json_attributes_template",
        "json_attributes_topic", "name", "object_id", "payload_available", "payload_not_available", "platform", "qos",
        "unique_id", "value_template",
    ]
    static let switchKeys = common.union(["command_template", "command_topic", "device_class", "optimistic", "payload_off",
                                          "payload_on", "retain", "state_off", "state_on", "state_topic"])
    static let binarySensorKeys = common.union(["device_class", "expire_after", "force_update", "off_delay", "payload_off",
                                                "payload_on", "state_topic"])
    static let deviceKeys: Set<String> = ["configuration_url", "connections", "hw_version", "identifiers", "manufacturer", "model",
                                          "model_id", "name", "serial_number", "suggested_area", "sw_version", "via_device"]
    static let availabilityKeys: Set<String> = ["payload_available", "payload_not_available", "topic", "value_template"]
    /// Home Assistant's binary_sensor device classes include `connectivity` (on = connected).
    static let entityCategories: Set<String> = ["config", "diagnostic"]

    static func object(_ value: JSONValue) throws -> JSONObjectView { JSONObjectView(try #require(value.members)) }

    func checkCommon(_ config: JSONObjectView, allowed: Set<String>) throws {
        let keys = Set(config.members.map(\.0))
        #expect(keys.isSubset(of: allowed), "undocumented keys: \(keys.subtracting(allowed))")
        #expect(config.members.count == keys.count, "a key twice")
        let device = try Self.object(try #require(config["device"]))
        #expect(Set(device.members.map(\.0)).isSubset(of: Self.deviceKeys))
        guard case .array(let ids)? = device["identifiers"], !ids.isEmpty else { Issue.record("device.identifiers must be a list"); return }
        let unique = try #require(config.string("unique_id"))
        #expect(unique.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" })
        if let qos = config.int("qos") { #expect((0...2).contains(qos)) }
        if let category = config.string("entity_category") { #expect(Self.entityCategories.contains(category)) }
    }

    @Test func aBeaconsSwitchUsesOnlyDocumentedKeysAndTheLastWillTopics() throws {
        let topics = SiteTopics(site: "lab")
        let config = try Self.object(HomeAssistantDiscovery.beaconSwitch(topics, id: "8b0c-7-1", name: "corridor-1", host: "pi-west"))
        try checkCommon(config, allowed: Self.switchKeys)
        #expect(config.string("command_topic") == topics.beaconSet("8b0c-7-1"))
        #expect(config.string("state_topic") == topics.beaconState("8b0c-7-1"))
        #expect(config.string("payload_on") == "ON" && config.string("state_on") == "ON")
        #expect(config.string("payload_off") == "OFF" && config.string("state_off") == "OFF")
        #expect(["all", "any", "latest"].contains(config.string("availability_mode")))
        guard case .array(let availability)? = config["availability"] else { Issue.record("availability must be a list"); return }
        var availabilityTopics: [String] = []
        for item in availability {
            let entry = try Self.object(item)
            #expect(Set(entry.members.map(\.0)).isSubset(of: Self.availabilityKeys))
            #expect(entry.string("payload_available") == SiteTopics.online && entry.string("payload_not_available") == SiteTopics.offline)
            availabilityTopics.append(try #require(entry.string("topic")))
        }
        // The two Last Will topics: the controller's and the host's.
        #expect(availabilityTopics == [topics.controllerStatus, topics.hostStatus("pi-west")])
        if case .bool? = config["retain"] {} else { Issue.record("retain must be a boolean") }
    }

    /// Home Assistant 2024.1.6 never moves an entity to another device on a discovery update
    /// (Tests/Harness/ha_discovery.py saw a failed-over beacon stay on the host it left): a
    /// beacon's switch is on the site's device wherever it is carried; only its availability
    /// follows the host.
    @Test func aBeaconsSwitchStaysOnTheSitesDeviceWhicheverHostCarriesIt() throws {
        let topics = SiteTopics(site: "lab")
        let west = try Self.object(HomeAssistantDiscovery.beaconSwitch(topics, id: "8b0c-7-1", name: "stair", host: "pi-west"))
        let east = try Self.object(HomeAssistantDiscovery.beaconSwitch(topics, id: "8b0c-7-1", name: "stair", host: "pi-east"))
        #expect(west["device"] == east["device"])
        let device = try Self.object(try #require(west["device"]))
        #expect(device["identifiers"] == .array([.string("beacon_lab")]))
        #expect(device.string("name") == "lab beacons")
        #expect(west["availability"] != east["availability"])
        // Not any host's device (each radio's connectivity sensor is on its host's).
        let radio = try Self.object(HomeAssistantDiscovery.radioConnectivity(topics, radio: SiteRadio.ID(host: "pi-west", adapter: "hci0")))
        #expect(radio["device"] != west["device"])
    }

    @Test func aRadiosConnectivitySensorFollowsItsHostsLastWill() throws {
        let topics = SiteTopics(site: "lab", discoveryPrefix: "ha")
        let radio = SiteRadio.ID(host: "pi-west", adapter: "hci1")
        let config = try Self.object(HomeAssistantDiscovery.radioConnectivity(topics, radio: radio))
        try checkCommon(config, allowed: Self.binarySensorKeys)
        #expect(config.string("device_class") == "connectivity")
        #expect(config.string("state_topic") == topics.hostStatus("pi-west"))
        #expect(config.string("payload_on") == SiteTopics.online && config.string("payload_off") == SiteTopics.offline)
        #expect(topics.discoveryConnectivity(radio) == "ha/binary_sensor/beacon_lab_pi-west_hci1/config")
    }

    @Test func theExampleSitesMessagesAreOnePerRadioAndOnePerPlacedBeacon() throws {
        let site = try SiteLoader.load(contentsOf: PackageRoot.path("examples/site-lab.yaml"))
        let placement = SitePlacer(maximumDistance: site.maximumDistance).place(site.beacons, on: site.radios)
        let messages = HomeAssistantDiscovery.messages(site, placement: placement)
        #expect(messages.count == site.radios.count + placement.assignments.count)
        #expect(Set(messages.map(\.topic)).count == messages.count)
        #expect(messages.allSatisfy { $0.topic.hasPrefix("homeassistant/") && $0.topic.hasSuffix("/config") })
    }
}
