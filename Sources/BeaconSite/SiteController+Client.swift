// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconMQTT

extension SiteController {
    /// The client a controller of `site` connects with: the site's broker, credentials and TLS
    /// settings (``SiteBroker/clientConfiguration(clientID:will:environment:keepaliveSeconds:)``) and
    /// the controller's Last Will. `beacon site` is `beacon-site-<site>`; another controller (a
    /// scenario played across the site) names itself.
    public static func client(for site: Site, broker: SiteBroker, clientID: String? = nil,
                              environment: [String: String]) throws(MQTTError) -> MQTTClient {
        let configuration = try broker.clientConfiguration(clientID: clientID ?? "beacon-site-\(site.name)",
                                                           will: lastWill(topics: SiteTopics(site)), environment: environment)
        return try MQTTClient(configuration)
    }
}
