// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconEmulator
import BeaconProfiles

/// A beacon's identity on a site: what its format identifies it by, never its address (an
/// address is derived, or rotates, and phones never see it), written so it can stand as one topic
/// level (`beacon/<site>/beacons/<id>/…`) and in a Home Assistant object id: lowercase hex
/// digits, decimal numbers and `-`. The one function that makes it.
///
/// - iBeacon: `<uuid>-<major>-<minor>` (`25795a1d-c318-47f0-a49d-7a2d1d58c79e-1-0`)
/// - AltBeacon: `altbeacon-<uuid>-<last 4 id bytes in hex>-<manufacturer in hex>`
/// - Eddystone-UID: `eddystone-uid-<namespace>-<instance>`
/// - Eddystone-URL: `eddystone-url-<scheme and encoded URL in hex>`
public enum SiteBeaconID {
    public static func of(_ beacon: BeaconProfile) -> String {
        guard let key = beacon.beacon.key else { return "beacon-" + Hex.string(beacon.advertisingData).lowercased() }
        let text: String
        switch key {
        case .iBeacon(let i): text = "\(i.uuid)-\(i.major)-\(i.minor)"
        case .altBeacon(let manufacturer, let id): text = "altbeacon-\(id)-\(Hex.string([UInt8(manufacturer >> 8), UInt8(manufacturer & 0xFF)]))"
        case .eddystoneUID(let namespace, let instance): text = "eddystone-uid-\(namespace)-\(instance)"
        case .eddystoneURL(let scheme, let encoded): text = "eddystone-url-" + Hex.string([scheme] + encoded)
        }
        return text.lowercased()
    }

    /// The set (or legacy advertiser) `plan` gives each beacon, by its identity.
    public static func seats(in plan: FleetPlan) -> [String: AdvertiserSeat] {
        Dictionary(plan.placements.map { (of($0.beacon), $0.seat) }, uniquingKeysWith: { first, _ in first })
    }
}
