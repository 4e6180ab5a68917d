// SPDX-License-Identifier: GPL-2.0-or-later
import HCI

/// Add Extended Advertising Parameters (since 1.19, kernel 5.10) — BlueZ doc/mgmt-api.txt:
///
/// ```
/// Command Code:       0x0054
/// Controller Index:   <controller id>
/// Command Parameters: Instance (1 Octet)
///                     Flags (4 Octets)
///                     Duration (2 Octets)
///                     Timeout (2 Octets)
///                     MinInterval (4 Octets)
///                     MaxInterval (4 Octets)
///                     TxPower (1 Octet)
/// Return Parameters:  Instance (1 Octet)
///                     TxPower (1 Octet)
///                     MaxAdvDataLen (1 Octet)
///                     MaxScanRspLen (1 Octet)
/// ```
/// Intervals in 0.625 ms units, "in the range [0x000020, 0xFFFFFF]", min ≤ max; TX power −127…+20
/// dBm. The kernel uses Duration, Timeout, the intervals and TxPower only when flag bits 12–15
/// (``MgmtAdvertisingFlags/useDuration`` …) say so. It must be followed by Add Extended
/// Advertising Data, which puts the instance on air.
public struct AddExtendedAdvertisingParameters: MgmtCommand {
    public static let opcode = MgmtOpcode(rawValue: 0x0054)
    public static let name = "Add Extended Advertising Parameters"
    /// The documented interval range, in 0.625 ms units.
    public static let intervalRange: ClosedRange<UInt32> = 0x20...0xFF_FFFF

    public var instance: UInt8
    public var flags: MgmtAdvertisingFlags
    public var duration: UInt16
    public var timeout: UInt16
    public var minInterval: UInt32
    public var maxInterval: UInt32
    public var txPower: Int8

    public init(instance: UInt8, flags: MgmtAdvertisingFlags, duration: UInt16 = 0, timeout: UInt16 = 0, minInterval: UInt32, maxInterval: UInt32, txPower: Int8) {
        self.instance = instance
        self.flags = flags
        self.duration = duration
        self.timeout = timeout
        self.minInterval = minInterval
        self.maxInterval = maxInterval
        self.txPower = txPower
    }

    public init(decodingParameters reader: inout HCIReader) throws(HCIDecodingError) {
        instance = try reader.readUInt8("Instance")
        flags = MgmtAdvertisingFlags(rawValue: try reader.readUInt32("Flags"))
        duration = try reader.readUInt16("Duration")
        timeout = try reader.readUInt16("Timeout")
        minInterval = try reader.readUInt32("MinInterval")
        maxInterval = try reader.readUInt32("MaxInterval")
        txPower = try reader.readInt8("TxPower")
    }

    public func encodeParameters(into writer: inout HCIWriter) {
        writer.write(instance)
        writer.write(flags.rawValue)
        writer.write(duration)
        writer.write(timeout)
        writer.write(minInterval)
        writer.write(maxInterval)
        writer.write(txPower)
    }

    public func validate() throws(HCIValidationError) {
        try MgmtInstance.check(instance)
        try MgmtAdvertisingData.checkSecondaryChannels(flags)
        for (field, value) in [("MinInterval", minInterval), ("MaxInterval", maxInterval)] where !Self.intervalRange.contains(value) {
            throw .valueOutOfRange(field: field, value: UInt64(value), allowed: "0x000020…0xFFFFFF × 0.625 ms (20 ms … 10485 s)")
        }
        guard minInterval <= maxInterval else {
            throw .valueOutOfRange(field: "MinInterval", value: UInt64(minInterval), allowed: "at most MaxInterval (\(maxInterval))")
        }
        guard HCIValidation.txPowerRange.contains(txPower) else { throw .txPowerOutOfRange(txPower) }
    }

    /// The reply's parameters.
    public struct ReturnParameters: MgmtReturnParameters {
        public var instance: UInt8
        /// The power the controller selected (up to the one asked for), in dBm, or
        /// ``powerNotKnown``: see ``selectedTxPower``.
        public var txPower: Int8
        public var maxAdvertisingDataLength: UInt8
        public var maxScanResponseLength: UInt8

        /// TxPower 127: the kernel does not know the power (its HCI_TX_POWER_INVALID). It says so
        /// for every instance on a legacy-only controller (no LE Set Extended Advertising
        /// Parameters, whose reply carries the selected power) and when no power was asked for.
        public static let powerNotKnown: Int8 = 127

        /// The power the controller selected, in dBm; `nil` when the kernel does not know it
        /// (``powerNotKnown``), which is not a power of 127 dBm.
        public var selectedTxPower: Int8? { txPower == Self.powerNotKnown ? nil : txPower }

        public init(instance: UInt8, txPower: Int8, maxAdvertisingDataLength: UInt8, maxScanResponseLength: UInt8) {
            self.instance = instance
            self.txPower = txPower
            self.maxAdvertisingDataLength = maxAdvertisingDataLength
            self.maxScanResponseLength = maxScanResponseLength
        }

        public init(decoding reader: inout HCIReader) throws(HCIDecodingError) {
            instance = try reader.readUInt8("Instance")
            txPower = try reader.readInt8("TxPower")
            maxAdvertisingDataLength = try reader.readUInt8("MaxAdvDataLen")
            maxScanResponseLength = try reader.readUInt8("MaxScanRspLen")
        }

        public func encode(into writer: inout HCIWriter) {
            writer.write(instance)
            writer.write(txPower)
            writer.write(maxAdvertisingDataLength)
            writer.write(maxScanResponseLength)
        }
    }
}
