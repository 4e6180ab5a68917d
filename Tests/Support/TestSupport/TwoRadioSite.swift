// SPDX-License-Identifier: GPL-2.0-or-later

/// The site file the broker-less site tests share: one host (`box`) with two virtual radios on
/// cables 10 m apart, `door` next to the first and `desk` next to the second, and any further
/// beacon lines after them.
public enum TwoRadioSite {
    public static let uuid = "8B0C3B1E-6E2A-4C55-9B8F-3D1A2E4F5061"

    /// - Parameters:
    ///   - name: the site's name.
    ///   - major: the beacons' major (door is minor 1, desk minor 2).
    ///   - moreBeacons: further `- {name: …}` entries under `beacons:`, as YAML flow mappings.
    public static func yaml(name: String, major: Int, moreBeacons: [String] = []) -> String {
        (["name: \(name)",
          "radios:",
          "  - {host: box, adapter: virtual-a, position: {x: 0, y: 0}}",
          "  - {host: box, adapter: virtual-b, position: {x: 10, y: 0}}",
          "beacons:",
          "  - {name: door, uuid: \(uuid), major: \(major), minor: 1, position: {x: 1, y: 0}}",
          "  - {name: desk, uuid: \(uuid), major: \(major), minor: 2, position: {x: 9, y: 0}}"]
         + moreBeacons.map { "  - " + $0 }).joined(separator: "\n") + "\n"
    }
}
