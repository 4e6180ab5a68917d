// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import HCI

/// Turns advertising report events into beacon sightings with the shared codec (every format
/// BeaconCodec's `AnyBeacon` knows), strictly: data that is not a well-formed beacon advertisement (another
/// company's, a malformed structure, two beacons in one payload) is not a beacon, as on a phone.
public enum ReportDecoder {
    /// Every beacon in `event`; none for any other event.
    ///
    /// Extended reports whose Data_Status is not "complete" (a fragment with more to come, or a
    /// truncated one) are skipped: an iBeacon fits in one legacy PDU, and a fragment cannot be
    /// judged strictly on its own.
    public static func sightings(in event: HCIEvent, at time: ContinuousClock.Instant) -> [BeaconSighting] {
        switch event {
        case .leAdvertisingReport(let e):
            return e.reports.compactMap { r in
                guard let beacon = try? AnyBeacon(decoding: r.data, options: .strict) else { return nil }
                return BeaconSighting(beacon: beacon, rssi: r.measuredRSSI, address: r.address, addressType: r.addressType,
                                      extendedReport: false, time: time)
            }
        case .leExtendedAdvertisingReport(let e):
            return e.reports.compactMap { r in
                guard r.eventType.dataStatus == 0 else { return nil }
                // A legacy PDU carries at most 31 bytes; an extended one up to 254 in one fragment.
                let options: BeaconDecodingOptions = r.eventType.contains(.legacyPDU) ? .strict : .strictExtended
                guard let beacon = try? AnyBeacon(decoding: r.data, options: options) else { return nil }
                return BeaconSighting(beacon: beacon, rssi: r.measuredRSSI, address: r.address, addressType: r.addressType,
                                      extendedReport: true, time: time)
            }
        default:
            return []
        }
    }
}
