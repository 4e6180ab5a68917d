// SPDX-License-Identifier: GPL-2.0-or-later
import TextLayout
import BeaconRadio
import BeaconCodec
import BeaconProfiles

/// `beacon site --plan`'s text (``SitePlanJSON`` is its JSON): a summary line, each radio with
/// its beacons, then the beacons no radio can carry and why.
public enum SitePlanText {
    /// The placement of `site`'s beacons as lines.
    public static func lines(site: Site, placement: SitePlacement) -> [String] {
        let hosts = site.hosts.count
        var out = ["site \(site.name): \(Plural.of(site.radios.count, "radio")) on \(Plural.of(hosts, "host")), "
            + "\(Plural.of(site.beacons.count, "beacon")), \(placement.assignments.count) placed, \(placement.unplaced.count) not placed",
                   site.broker.map { "broker \($0.url)" } ?? "no broker: one host"]
        // What a -i virtual receiver standing in the site hears through (scan --areas SITE).
        if let air = site.air { out.append("air \(air)") }
        let byRadio = placement.assignmentsByRadio()
        for radio in placement.radios {
            let carried = byRadio[radio.id] ?? []
            out.append("\(radio.id) at \(point(radio.position)): \(carried.count) of \(placement.capacities[radio.id] ?? 0) beacons")
            for a in carried {
                out.append("  \(a.beacon.name)  \(a.id)  \(metres(a.distance)) away")
            }
        }
        if !placement.unplaced.isEmpty {
            out.append("not placed:")
            for u in placement.unplaced { out.append("  \(u.beacon.name)  \(u.id): \(u.reason)") }
        }
        // Broken at spaces to fit an 80-column terminal: a long site name, broker URL or reason
        // would otherwise be cut mid-word by the terminal.
        return out.flatMap { LineWrapping.wrap($0, width: 80) }
    }

    /// `(1, 2)`, or `(1, 2, 0.5)` above the floor.
    static func point(_ p: Point) -> String {
        "(" + ([p.x, p.y] + (p.z != 0 ? [p.z] : [])).map(NumberText.string).joined(separator: ", ") + ")"
    }

    /// `2.5 m`, to the centimetre.
    static func metres(_ value: Double) -> String { NumberText.string((value * 100).rounded() / 100) + " m" }
}
