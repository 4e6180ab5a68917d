// SPDX-License-Identifier: GPL-2.0-or-later

/// The keys each mapping of a site file accepts (docs/SITE.md lists the same).
enum SiteKeys {
    static let top = ["name", "broker", "radios", "max_distance", "failover", "discovery_prefix", "air", "profiles", "defaults", "beacons"]
    static let broker = ["url", "ca_file", "cert_file", "key_file", "credentials_file"]
    static let radio = ["host", "adapter", "position", "capacity"]
    static let radioPosition = ["x", "y", "z"]
}
