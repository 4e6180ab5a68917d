// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// What a running fleet reports, for the live table, the log lines and `--json`.
public enum EmulatorEvent: Sendable {
    /// A beacon went on air (or came back in its turn).
    case onAir(beacon: String, adapter: String, advertiser: UInt8, address: BluetoothAddress, selectedTxPower: Int8?)
    /// A beacon left the air (its turn ended, or the run is stopping).
    case offAir(beacon: String, adapter: String, advertiser: UInt8)
    /// A rotation slot was carried out: how many commands it took and how late it started.
    case slot(adapter: String, index: Int, commands: Int, lateness: Duration)
    /// Something failed on an adapter.
    case error(adapter: String, message: String)
    /// Advertising is off and sets are removed on this adapter.
    case stopped(adapter: String)
}
