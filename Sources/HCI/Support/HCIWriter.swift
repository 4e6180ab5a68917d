// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// Appends HCI fields to a byte array, always least-significant byte first.
///
/// HCI is little-endian on every transport (Core Vol 4 Part E §5.2); writing each width through
/// an explicit method keeps the byte order visible at every call site instead of trusting the
/// host's memory layout.
@frozen
public struct HCIWriter: Sendable {
    /// The bytes written so far.
    public var bytes: [UInt8]

    @inlinable
    public init(capacity: Int = 32) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    @inlinable public mutating func write(_ value: UInt8) { bytes.append(value) }

    @inlinable public mutating func write(_ value: Int8) { bytes.append(UInt8(bitPattern: value)) }

    @inlinable
    public mutating func write(_ value: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
    }

    /// Writes the low 24 bits (HCI's 3-octet fields such as extended advertising intervals).
    @inlinable
    public mutating func writeUInt24(_ value: UInt32) {
        precondition(value >> 24 == 0, "a 3-octet HCI field holds 24 bits")
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value >> 16))
    }

    @inlinable
    public mutating func write(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    @inlinable
    public mutating func write(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    /// Writes a BD_ADDR least-significant byte first, as HCI carries it.
    @inlinable
    public mutating func write(_ address: BluetoothAddress) {
        for i in 0..<6 { bytes.append(UInt8(truncatingIfNeeded: address.value >> (8 * UInt64(i)))) }
    }

    /// Writes opaque bytes as they are.
    @inlinable
    public mutating func write(contentsOf data: some Sequence<UInt8>) { bytes.append(contentsOf: data) }

    /// Overwrites one byte already written (used to patch a length once the body is known).
    @inlinable
    public mutating func patch(_ value: UInt8, at index: Int) { bytes[index] = value }
}
