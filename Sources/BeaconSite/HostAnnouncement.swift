// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import BeaconEmulator
import BeaconJSON

/// What an agent publishes, retained, on `…/hosts/<host>/radios`: its radios and what each was
/// probed to offer.
public enum HostAnnouncement {
    public static func json(host: String, radios: [(adapter: AdapterName, capabilities: ControllerCapabilities?)], planner: FleetPlanner) -> JSONValue {
        let list: [JSONValue] = radios.map { radio in
            var members: [(String, JSONValue)] = [("adapter", .string(radio.adapter.text))]
            if let caps = radio.capabilities {
                members += [
                    ("hci_version", .string(caps.hciVersion.description)),
                    ("extended", .bool(planner.usesExtendedSets(caps))),
                    ("sets", .int(planner.usableSets(caps))),
                    ("capacity", .int(planner.beaconCapacity(of: caps))),
                ]
            }
            return .object(members)
        }
        return .object([("host", .string(host)), ("radios", .array(list))])
    }
}

/// What an agent publishes now and then (not retained) on `…/hosts/<host>/telemetry`.
public struct HostTelemetry: Sendable, Hashable {
    public var host: String
    /// Seconds since the agent started.
    public var uptime: Double
    public var onAir: Int
    public var errors: Int
    /// Desired payloads refused since the start.
    public var rejected: Int
    /// The agent process's resident set size in bytes (``ResidentSetSize``); `nil` where the
    /// system does not say, and then left out of the JSON.
    public var residentBytes: Int?

    public init(host: String, uptime: Double, onAir: Int, errors: Int, rejected: Int, residentBytes: Int? = nil) {
        self.host = host
        self.uptime = uptime
        self.onAir = onAir
        self.errors = errors
        self.rejected = rejected
        self.residentBytes = residentBytes
    }

    public var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("host", .string(host)), ("uptime", .double((uptime * 1000).rounded() / 1000)), ("on_air", .int(onAir)),
            ("errors", .int(errors)), ("rejected", .int(rejected)),
        ]
        if let residentBytes { members.append(("rss_bytes", .int(residentBytes))) }
        return .object(members)
    }
}
