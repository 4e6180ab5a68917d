// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconJSON
import HCI

/// The advertising interval as `list --json`, `encode --format json` and the dry run print it,
/// written once so the commands agree:
///
/// - `interval_ms`: what the profile (or `--interval`) asked for, as given (30.3);
/// - `interval_units`: the 0.625 ms units sent to the controller (48);
/// - `interval_on_air_ms`: what those units mean on air (30).
enum IntervalJSON {
    static func fields(requestedMilliseconds: Double) -> [(String, JSONValue)] {
        let onAir = AdvertisingInterval(milliseconds: requestedMilliseconds)
        return [
            ("interval_ms", .double(requestedMilliseconds)),
            ("interval_units", .int(onAir.rawValue)),
            ("interval_on_air_ms", .double(onAir.milliseconds)),
        ]
    }
}
