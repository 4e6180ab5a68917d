// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import BeaconRadio
import BeaconMQTT
import BeaconProfiles

/// A site: radios on one or more hosts and the beacons they carry between them, read from a
/// site file (docs/SITE.md) by ``SiteLoader``.
public struct Site: Sendable {
    /// The site's name: the second level of its topics (`beacon/<name>/…`).
    public var name: String
    /// The file as it was named to the loader.
    public var file: String
    /// The broker the hosts meet at; `nil` for a site of one host, which runs without one.
    public var broker: SiteBroker?
    public var radios: [SiteRadio]
    /// Every beacon of the site, each with a position (from the site file's `beacons:` and the
    /// profile files of its `profiles:`).
    public var beacons: [BeaconProfile]
    /// The farthest a beacon may be from the radio that carries it, in metres.
    public var maximumDistance: Double
    public var failover: FailoverPolicy
    /// The Home Assistant MQTT discovery prefix (`homeassistant` unless the file says otherwise).
    public var discoveryPrefix: String
    /// The site's `air:` (read as a profile's): the channel a `-i virtual` receiver standing in
    /// the site hears through (`scan -i virtual --areas SITE`; `--air` overrides it); `nil`: not given.
    public var air: AirChannel?
    /// The areas of the profile files of `profiles:`, in file order: the site's walls.
    public var areas: [Area]

    public init(name: String, file: String, broker: SiteBroker? = nil, radios: [SiteRadio], beacons: [BeaconProfile],
                maximumDistance: Double = Site.defaultMaximumDistance, failover: FailoverPolicy = .nearest,
                discoveryPrefix: String = Site.defaultDiscoveryPrefix, air: AirChannel? = nil, areas: [Area] = []) {
        self.name = name
        self.file = file
        self.broker = broker
        self.radios = radios
        self.beacons = beacons
        self.maximumDistance = maximumDistance
        self.failover = failover
        self.discoveryPrefix = discoveryPrefix
        self.air = air
        self.areas = areas
    }

    /// Every wall of ``areas``: what the air takes `wall_db` off for.
    public var walls: [Wall] { areas.flatMap(\.walls) }

    /// 20 m: a room or a corridor's worth, where a phone still hears a beacon at its calibrated power.
    public static let defaultMaximumDistance = 20.0
    /// The most radios a site lists (1,024): a building's worth of hosts with two radios each
    /// many times over. Placing B beacons costs about B × (the radios within `max_distance` of
    /// each), and the controller places again at every host that comes or goes.
    public static let maximumRadios = 1024
    /// Home Assistant's own default discovery prefix.
    public static let defaultDiscoveryPrefix = "homeassistant"

    /// The hosts, in the order their first radio is listed.
    public var hosts: [String] {
        var seen: Set<String> = []
        return radios.map(\.host).filter { seen.insert($0).inserted }
    }

    /// The radios of `host`, in file order.
    public func radios(of host: String) -> [SiteRadio] { radios.filter { $0.host == host } }
}

/// Where the broker is and how a client proves who it is. Credentials are never in the site file
/// itself: `credentials_file` names a file (mode 0600) or they come from the environment.
public struct SiteBroker: Sendable, Hashable {
    public var url: MQTTBrokerURL
    /// The certificate authorities that verify the broker (`mqtts://` only; required there).
    public var caFile: String?
    /// A client certificate and its key, for brokers that ask for one.
    public var certificateFile: String?
    public var keyFile: String?
    /// The file holding `username` and `password` lines (see `MQTTCredentials`, BeaconMQTT).
    public var credentialsFile: String?

    public init(url: MQTTBrokerURL, caFile: String? = nil, certificateFile: String? = nil, keyFile: String? = nil,
                credentialsFile: String? = nil) {
        self.url = url
        self.caFile = caFile
        self.certificateFile = certificateFile
        self.keyFile = keyFile
        self.credentialsFile = credentialsFile
    }

    /// The TLS settings of an `mqtts://` broker, `nil` for plain `mqtt://`.
    public var tls: MQTTTLSSettings? {
        guard url.usesTLS, let caFile else { return nil }
        return MQTTTLSSettings(caFile: caFile, certificateFile: certificateFile, keyFile: keyFile)
    }
}

/// One radio: an adapter on a host, mounted somewhere on the site.
public struct SiteRadio: Sendable, Hashable, Identifiable {
    /// A radio's name on the site: its host and adapter (`pi-east/hci0`).
    public struct ID: Sendable, Hashable, Comparable, CustomStringConvertible {
        public var host: String
        public var adapter: AdapterName
        public init(host: String, adapter: AdapterName) {
            self.host = host
            self.adapter = adapter
        }
        public var description: String { "\(host)/\(adapter)" }
        public static func < (a: ID, b: ID) -> Bool { (a.host, a.adapter) < (b.host, b.adapter) }
    }

    public var host: String
    /// The adapter as `-i` names it (`hci0`, `user:hci1`, `virtual`; see ``adapterSpecText``):
    /// one topic level (``SiteNames/problem(withTopicLevel:)``).
    public var adapter: AdapterName
    /// Where its antenna is, in metres, in the site's frame.
    public var position: Point
    /// The most beacons it carries; `nil`: what the coverage planner promises for an assumed
    /// Bluetooth 5 controller (see `SitePlacer.defaultCapacity`).
    public var capacity: Int?

    public init(host: String, adapter: AdapterName, position: Point, capacity: Int? = nil) {
        self.host = host
        self.adapter = adapter
        self.position = position
        self.capacity = capacity
    }

    public var id: ID { ID(host: host, adapter: adapter) }
}

/// What happens to the beacons of a radio that goes away.
public enum FailoverPolicy: String, Sendable, Hashable, CaseIterable {
    /// They move to the nearest radio still within the maximum distance that has room.
    case nearest
    /// They stay off air until their radio comes back.
    case none
}
