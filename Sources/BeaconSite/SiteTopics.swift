// SPDX-License-Identifier: GPL-2.0-or-later

/// The topics of a site, in one place (docs/SITE.md lists them). Shaped like ESPresense's:
/// retained settings and state, `…/set` to write, a retained `status` that is the Last Will.
///
/// Written by an agent (the broker's ACL lets user `<host>` write only these of its own):
/// `beacon/<site>/hosts/<host>/status`, `…/radios`, `…/telemetry`, `…/<adapter>/state`.
/// Written by the controller: `…/hosts/<host>/<adapter>/desired`, `beacon/<site>/controller/status`,
/// `beacon/<site>/beacons/<id>/state`, `…/switch`, and Home Assistant's discovery configs; it
/// reads `beacon/<site>/beacons/<id>/set`.
public struct SiteTopics: Sendable, Hashable {
    public var site: String
    public var discoveryPrefix: String

    public init(site: String, discoveryPrefix: String = Site.defaultDiscoveryPrefix) {
        self.site = site
        self.discoveryPrefix = discoveryPrefix
    }

    public init(_ site: Site) {
        self.init(site: site.name, discoveryPrefix: site.discoveryPrefix)
    }

    /// `beacon/<site>`.
    public var root: String { "beacon/\(site)" }

    /// Retained `online` / `offline`; an agent's Last Will is `offline`.
    public func hostStatus(_ host: String) -> String { "\(root)/hosts/\(host)/status" }
    /// Retained JSON: the host's radios and their probed capabilities.
    public func hostRadios(_ host: String) -> String { "\(root)/hosts/\(host)/radios" }
    /// Not retained JSON: uptime, beacons on air, errors.
    public func hostTelemetry(_ host: String) -> String { "\(root)/hosts/\(host)/telemetry" }
    /// Retained JSON, written by the controller, read by the radio's agent: its desired fleet.
    public func desired(_ radio: SiteRadio.ID) -> String { "\(root)/hosts/\(radio.host)/\(radio.adapter)/desired" }
    /// Retained JSON, written by the radio's agent: each beacon's state, or a rejection.
    public func state(_ radio: SiteRadio.ID) -> String { "\(root)/hosts/\(radio.host)/\(radio.adapter)/state" }
    /// What an agent subscribes to: the desired fleets of all its radios.
    public func desiredFilter(host: String) -> String { "\(root)/hosts/\(host)/+/desired" }
    /// What the controller subscribes to: every host's status, radios and radios' state.
    public var hostsFilter: String { "\(root)/hosts/#" }

    /// Retained `online` / `offline`; the controller's Last Will is `offline`.
    public var controllerStatus: String { "\(root)/controller/status" }
    /// Retained `ON` / `OFF`: whether the beacon is on air (a Home Assistant switch's state).
    public func beaconState(_ id: String) -> String { "\(root)/beacons/\(id)/state" }
    /// `ON` / `OFF` from Home Assistant (the switch's command topic).
    public func beaconSet(_ id: String) -> String { "\(root)/beacons/\(id)/set" }
    /// What the controller subscribes to for commands.
    public var beaconSetFilter: String { "\(root)/beacons/+/set" }
    /// Retained `OFF` while Home Assistant has the beacon switched off (nothing once it is
    /// switched on again): written by the controller and read back by its next run, so a switch-off
    /// survives a controller restart.
    public func beaconSwitch(_ id: String) -> String { "\(root)/beacons/\(id)/switch" }
    /// What a starting controller subscribes to, to read back the beacons switched off.
    public var beaconSwitchFilter: String { "\(root)/beacons/+/switch" }

    /// The radio and topic kind of an agent's topic (`…/hosts/<host>/<adapter>/state`), or of a
    /// host's own (`…/hosts/<host>/status`: adapter `nil`); `nil` for any other topic.
    public func parseHostTopic(_ topic: String) -> (host: String, adapter: String?, kind: String)? {
        let prefix = "\(root)/hosts/"
        guard topic.hasPrefix(prefix) else { return nil }
        let levels = topic.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        switch levels.count {
        case 2: return (levels[0], nil, levels[1])
        case 3: return (levels[0], levels[1], levels[2])
        default: return nil
        }
    }

    /// The beacon identity of a `…/beacons/<id>/set` topic, or `nil`.
    public func parseBeaconSet(_ topic: String) -> String? { beaconID(in: topic, kind: "set") }

    /// The beacon identity of a `…/beacons/<id>/switch` topic, or `nil`.
    public func parseBeaconSwitch(_ topic: String) -> String? { beaconID(in: topic, kind: "switch") }

    private func beaconID(in topic: String, kind: String) -> String? {
        let prefix = "\(root)/beacons/"
        guard topic.hasPrefix(prefix), topic.hasSuffix("/\(kind)") else { return nil }
        let id = topic.dropFirst(prefix.count).dropLast(kind.count + 1)
        return id.isEmpty || id.contains("/") ? nil : String(id)
    }

    /// A Home Assistant object id: the site and `parts` joined by `_`, anything outside
    /// `[A-Za-z0-9_-]` (which discovery topics allow) replaced by `_`.
    public func objectID(_ parts: String...) -> String {
        let joined = (["beacon", site] + parts).joined(separator: "_")
        return String(joined.unicodeScalars.map { scalar -> Character in
            let ok = ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-"
            return ok ? Character(scalar) : "_"
        })
    }

    /// `<prefix>/switch/beacon_<site>_<id>/config`: a beacon's switch.
    public func discoverySwitch(_ id: String) -> String { "\(discoveryPrefix)/switch/\(objectID(id))/config" }
    /// `<prefix>/binary_sensor/beacon_<site>_<host>_<adapter>/config`: a radio's connectivity.
    public func discoveryConnectivity(_ radio: SiteRadio.ID) -> String {
        "\(discoveryPrefix)/binary_sensor/\(objectID(radio.host, radio.adapter.text))/config"
    }

    /// The payloads of the status topics.
    public static let online = "online"
    public static let offline = "offline"
    /// The payloads of a beacon's switch.
    public static let on = "ON"
    public static let off = "OFF"
}
