// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconRadio
import BeaconJSON
import BeaconProfiles

/// `beacon site SITE --plan --json`: one object with each radio and the beacons it carries, and
/// the beacons no radio can carry with why (docs/schema/site-plan.schema.json).
public enum SitePlanJSON {
    public static func object(site: Site, placement: SitePlacement) -> JSONValue {
        let byRadio = placement.assignmentsByRadio()
        let radios: [JSONValue] = placement.radios.map { radio in
            let carried: [JSONValue] = (byRadio[radio.id] ?? []).map { a in
                .object([("id", .string(a.id)), ("name", .string(a.beacon.name)), ("distance", .double((a.distance * 1000).rounded() / 1000))])
            }
            return .object([
                ("host", .string(radio.host)), ("adapter", .string(radio.adapter.text)), ("position", position(radio.position)),
                ("capacity", .int(placement.capacities[radio.id] ?? 0)), ("beacons", .array(carried)),
            ])
        }
        let unplaced: [JSONValue] = placement.unplaced.map { u in
            .object([("id", .string(u.id)), ("name", .string(u.beacon.name)), ("reason", .string(u.reason))])
        }
        var members: [(String, JSONValue)] = [
            ("site", .string(site.name)), ("max_distance", .double(site.maximumDistance)), ("failover", .string(site.failover.rawValue)),
        ]
        if let air = site.air { members.append(("air", self.air(air))) }
        return .object(members + [("radios", .array(radios)), ("unplaced", .array(unplaced))])
    }

    /// A site's `air:` with every figure the channel takes, the file's keys as names.
    static func air(_ c: AirChannel) -> JSONValue {
        .object([
            ("name", .string(c.name)), ("exponent", .double(c.exponent)), ("sigma", .double(c.shadowingSigma)),
            ("fading", .string(c.fading.description)), ("loss", .double(c.randomLoss)), ("wall_db", .double(c.wallLoss)),
            ("seed", .int(Int(clamping: c.seed))),
        ])
    }

    /// `{"x":…,"y":…}` with `"z"` when not 0.
    public static func position(_ p: Point) -> JSONValue {
        var members: [(String, JSONValue)] = [("x", .double(p.x)), ("y", .double(p.y))]
        if p.z != 0 { members.append(("z", .double(p.z))) }
        return .object(members)
    }
}
