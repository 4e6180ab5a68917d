// SPDX-License-Identifier: GPL-2.0-or-later
import TextLayout
import BeaconCodec
import BeaconJSON
import VirtualController

/// The `--air-log` lines: what the built-in virtual controller put on the air, one line per
/// advertising event (`air +0.100 s set 0 C0:… random ADV_NONCONN_IND 0201…`), or one JSON
/// object per event with `--json`. VirtualController's ``AirLogFollower`` reads the log.
enum AirLogLines {
    /// A follower of `controller` that writes its lines to `sink`.
    static func follower(_ controller: VirtualController, adapter: String, json: Bool, sink: AirLogSink) -> AirLogFollower {
        AirLogFollower(controller: controller) { entries in
            for entry in entries { sink.write(line(entry, adapter: adapter, json: json)) }
        }
    }

    static func line(_ entry: AirLogEntry, adapter: String, json: Bool) -> String {
        guard json else { return "air \(entry)" }
        return JSONValue.object([
            ("event", .string("air")),
            ("adapter", .string(adapter)),
            ("controller_time", .double(NumberText.rounded(entry.time.seconds, places: 6))),
            ("advertiser", .string(entry.advertiser.description)),
            ("address", .string(entry.address.description)),
            ("address_type", .string("\(entry.addressType)")),
            ("pdu", .string(entry.pdu.rawValue)),
            ("data", .string(Hex.string(entry.data))),
            ("tx_power", .int(entry.txPower)),
            ("scan_response", entry.scanResponse.isEmpty ? .null : .string(Hex.string(entry.scanResponse))),
        ]).text
    }
}
