// SPDX-License-Identifier: GPL-2.0-or-later

/// The btsnoop capture format (RFC 1761 style, as BlueZ's btmon, Android and Wireshark use it):
/// the facts both the writer (HCITransport's `BTSnoopWriter`) and the reader (BeaconCapture)
/// rely on, written once. All integers are big-endian.
///
/// ```
/// file header (16 octets)   identification "btsnoop\0", version (4), datalink (4)
/// record header (24 octets) original length (4), included length (4), flags (4),
///                           cumulative drops (4), timestamp (8, µs since 0000-01-01)
/// ```
public enum BTSnoop {
    /// The 8 identification octets `btsnoop\0`, read as one big-endian integer.
    public static let identification: UInt64 = 0x6274_736E_6F6F_7000
    public static let version: UInt32 = 1
    public static let fileHeaderSize = 16
    public static let recordHeaderSize = 24

    /// Datalink types (file header octets 12…15).
    public enum Datalink {
        /// Un-encapsulated HCI; flags bit 1 tells commands/events from data.
        public static let hci: UInt32 = 1001
        /// HCI UART (H4): each record starts with the H4 packet indicator.
        public static let h4: UInt32 = 1002
        /// BlueZ's monitor format (`btmon -w`): flags hold the controller index and a monitor opcode.
        public static let monitor: UInt32 = 2001
    }

    /// Record flags bits (datalinks 1001 and 1002).
    public enum RecordFlags {
        /// Bit 0: received by the host (else sent).
        public static let received: UInt32 = 1 << 0
        /// Bit 1: a command or event (else data).
        public static let commandOrEvent: UInt32 = 1 << 1
    }

    /// Offsets of the record header fields.
    public enum RecordField {
        public static let originalLength = 0
        public static let includedLength = 4
        public static let flags = 8
        public static let cumulativeDrops = 12
        public static let timestamp = 16
    }

    /// Microseconds from 0000-01-01 00:00 (the btsnoop epoch) to 1970-01-01 00:00, the value
    /// Wireshark and BlueZ use (BlueZ's 0x00E03AB44A676000 is the offset to 2000-01-01, which it
    /// applies after subtracting 946,684,800 s).
    public static let unixEpochOffset: Int64 = 0x00DC_DDB3_0F2F_8000
}
