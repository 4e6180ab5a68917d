// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconEmulator
import BeaconJSON
import Synchronization
import VirtualController

/// Writes what the built-in virtual controller puts on the air while a run goes on (with
/// `--air-log`): its air log, read every 100 ms, one line per advertising event (`air +0.100 s set 0 C0:… random
/// ADV_NONCONN_IND 0201…`), or one JSON object per event with `--json`.
final class AirLogFollower: Sendable {
    let controller: VirtualController
    let adapter: String
    let json: Bool
    let sink: AirLogSink
    /// The sequence number of the next entry to print.
    private let next: Mutex<UInt64>

    init(controller: VirtualController, adapter: String, json: Bool, sink: AirLogSink) {
        self.controller = controller
        self.sink = sink
        self.adapter = adapter
        self.json = json
        next = Mutex(controller.airLogEnd)
    }

    /// Prints the entries logged since the last call.
    func drain() {
        // Under the lock, so two drains (the poller and the final one) never print an entry twice.
        next.withLock { next in
            let entries = controller.airLog(since: next)
            for entry in entries { sink.write(line(entry)) }
            if let last = entries.last { next = last.sequence + 1 }
        }
    }

    func line(_ entry: AirLogEntry) -> String {
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

    /// Drains every 100 ms until cancelled, then once more so the last events are not lost.
    func following() -> Task<Void, Never> {
        Task { [self] in
            while !Task.isCancelled {
                drain()
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
    }
}
