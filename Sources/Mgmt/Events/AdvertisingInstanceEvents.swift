// SPDX-License-Identifier: GPL-2.0-or-later

/// Advertising Added (since 1.9) — BlueZ doc/mgmt-api.txt:
///
/// ```
/// Event Code:         0x0023
/// Controller Index:   <controller id>
/// Event Parameters:   Instance (1 Octet)
/// ```
/// "The event will only be sent to management sockets other than the one through which the
/// command was sent": beacon sees other programs' instances come, never its own.
public enum AdvertisingAddedEvent {
    public static let code: UInt16 = 0x0023
}

/// Advertising Removed (since 1.9) — BlueZ doc/mgmt-api.txt:
///
/// ```
/// Event Code:         0x0024
/// Controller Index:   <controller id>
/// Event Parameters:   Instance (1 Octet)
/// ```
/// Sent to the other sockets on Remove Advertising, and to every socket when the kernel drops an
/// instance itself (timeout expired, a failed update): how beacon learns that bluetoothd's start
/// (which removes every instance) or a power cycle took one of its instances.
public enum AdvertisingRemovedEvent {
    public static let code: UInt16 = 0x0024
}

/// Index Added — BlueZ doc/mgmt-api.txt: Event Code 0x0004, Controller Index <controller id>, no
/// parameters. A new adapter (or one back after a reset of its driver).
public enum IndexAddedEvent {
    public static let code: UInt16 = 0x0004
}

/// Index Removed — BlueZ doc/mgmt-api.txt: Event Code 0x0005, Controller Index <controller id>,
/// no parameters. The adapter is gone, and with it every instance.
public enum IndexRemovedEvent {
    public static let code: UInt16 = 0x0005
}
