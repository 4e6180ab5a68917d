// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconMQTT

extension SiteBroker {
    /// The longest wait between an agent's or a controller's attempts to reconnect (the wait
    /// doubles from 1 s up to this).
    public static let reconnectDelayMaxSeconds: UInt32 = 5

    /// The client configuration of a site's agent or controller: the broker's address and TLS
    /// settings, credentials from `credentials_file` (which must not be readable by others) or
    /// else from `BEACON_MQTT_USERNAME` / `BEACON_MQTT_PASSWORD` in `environment` (never from
    /// the command line), and the Last Will `will`. With credentials the client id is the user
    /// name (`clientID` only without): what a broker set up as contrib/mosquitto/beacon.conf
    /// (`use_username_as_clientid true`) makes it anyway, so that the id the broker's log shows
    /// is the one asked for, and one host's credentials can only ever take that host's session.
    public func clientConfiguration(clientID: String, will: MQTTWill, environment: [String: String],
                                    keepaliveSeconds: Int32 = 5) throws(MQTTError) -> MQTTConfiguration {
        let credentials: MQTTCredentials?
        if let credentialsFile {
            credentials = try MQTTCredentials.load(fromFile: credentialsFile)
        } else {
            credentials = try MQTTCredentials.load(fromEnvironment: environment)
        }
        return MQTTConfiguration(broker: url, clientID: credentials?.username ?? clientID, credentials: credentials, tls: tls, will: will,
                                 keepaliveSeconds: keepaliveSeconds, reconnectDelaySeconds: 1, reconnectDelayMaxSeconds: Self.reconnectDelayMaxSeconds)
    }
}

extension SiteRadio {
    /// What `-i` the radio's adapter name stands for: the name itself (`hci0`, `user:hci1`), except
    /// that a name beginning with `virtual` that is no virtual spec (`virtual-east`, `virtual2`:
    /// several virtual radios on one host need names of their own) is the built-in virtual
    /// controller, with the options after its first colon (`virtual-east:sets=64` is
    /// `virtual:sets=64`).
    public var adapterSpecText: String {
        let name = adapter.text
        if name == "virtual" || name.hasPrefix("virtual:") || !name.hasPrefix("virtual") { return name }
        guard let colon = name.firstIndex(of: ":") else { return "virtual" }
        return "virtual" + name[colon...]
    }
}
