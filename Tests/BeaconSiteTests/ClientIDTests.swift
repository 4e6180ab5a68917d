// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconMQTT
@testable import BeaconSite
import Testing

/// With credentials an agent's or a controller's client id is its user name, the id a broker set
/// up as contrib/mosquitto/beacon.conf gives it anyway (`use_username_as_clientid`); without,
/// the id it names (docs/SITE.md, "Mosquitto").
@Suite struct ClientIDTests {
    @Test func theIdIsTheUserNameWithCredentials() throws {
        let broker = SiteBroker(url: try MQTTBrokerURL(parsing: "mqtt://127.0.0.1:1883"))
        let will = MQTTWill(topic: "beacon/lab/hosts/pi-west/status", payload: Array("offline".utf8), qos: .atLeastOnce, retain: true)
        let named = try broker.clientConfiguration(clientID: "beacon-agent-lab-pi-west", will: will,
                                                   environment: ["BEACON_MQTT_USERNAME": "pi-west", "BEACON_MQTT_PASSWORD": "secret"])
        #expect(named.clientID == "pi-west")
        let anonymous = try broker.clientConfiguration(clientID: "beacon-agent-lab-pi-west", will: will, environment: [:])
        #expect(anonymous.clientID == "beacon-agent-lab-pi-west")
    }
}
