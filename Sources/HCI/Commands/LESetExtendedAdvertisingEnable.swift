// SPDX-License-Identifier: GPL-2.0-or-later

/// LE Set Extended Advertising Enable — Core Vol 4 Part E §7.8.56, opcode 0x2039.
///
/// ```
/// Enable                               1 octet   0x00 off, 0x01 on
/// Num_Sets                             1 octet   0x00…0x3F (0 with Enable = 0x00: disable every set)
/// then for each set, one after the other:
///   Advertising_Handle[i]              1 octet   0x00…0xEF
///   Duration[i]                        2 octets  × 10 ms, 0 = until disabled
///   Max_Extended_Advertising_Events[i] 1 octet   0 = no limit
/// ```
/// Returns: Status.
@frozen
public struct LESetExtendedAdvertisingEnable: HCICommand {
    public static let opcode = HCIOpcode(rawValue: 0x2039)
    public static let name = "LE Set Extended Advertising Enable"

    /// One advertising set's entry.
    @frozen
    public struct Set: Hashable, Sendable {
        public var handle: UInt8
        /// Units of 10 ms; 0 advertises until disabled.
        public var duration: UInt16
        /// 0 means no limit.
        public var maxExtendedAdvertisingEvents: UInt8

        @inlinable
        public init(handle: UInt8, duration: UInt16 = 0, maxExtendedAdvertisingEvents: UInt8 = 0) {
            self.handle = handle
            self.duration = duration
            self.maxExtendedAdvertisingEvents = maxExtendedAdvertisingEvents
        }
    }

    public var isEnabled: Bool
    public var sets: [Set]

    @inlinable
    public init(_ isEnabled: Bool, sets: [Set]) {
        self.isEnabled = isEnabled
        self.sets = sets
    }

    /// Disable every advertising set (Enable 0x00 with Num_Sets 0).
    public static let disableAll = LESetExtendedAdvertisingEnable(false, sets: [])

    /// Num_Sets is at most 0x3F in one command, however many sets the controller has.
    public static let maximumSetsPerCommand = 0x3F

    /// `sets` enabled or disabled in as few commands as the 63-set limit allows, in order.
    public static func commands(_ isEnabled: Bool, sets: [Set]) -> [LESetExtendedAdvertisingEnable] {
        stride(from: 0, to: sets.count, by: maximumSetsPerCommand).map { start in
            LESetExtendedAdvertisingEnable(isEnabled, sets: Array(sets[start..<min(start + maximumSetsPerCommand, sets.count)]))
        }
    }

    @inlinable
    public init(decodingParameters reader: inout HCIReader) throws(HCIDecodingError) {
        isEnabled = try reader.readFlag("Enable")
        let count = Int(try reader.readUInt8("Num_Sets"))
        guard reader.remaining >= count * 4 else {
            throw .truncated(field: "advertising sets", needed: count * 4, available: reader.remaining)
        }
        var sets: [Set] = []
        sets.reserveCapacity(count)
        for _ in 0..<count {
            sets.append(Set(
                handle: try reader.readUInt8("Advertising_Handle"),
                duration: try reader.readUInt16("Duration"),
                maxExtendedAdvertisingEvents: try reader.readUInt8("Max_Extended_Advertising_Events")))
        }
        self.sets = sets
    }

    @inlinable
    public func encodeParameters(into writer: inout HCIWriter) {
        precondition(sets.count <= Self.maximumSetsPerCommand, "at most 63 advertising sets per command; validate() first")
        writer.write(UInt8(isEnabled ? 1 : 0))
        writer.write(UInt8(sets.count))
        for set in sets {
            writer.write(set.handle)
            writer.write(set.duration)
            writer.write(set.maxExtendedAdvertisingEvents)
        }
    }

    public func validate(for controller: HCIControllerInfo) throws(HCIValidationError) {
        try HCIValidation.checkExtendedAdvertising(Self.name, on: controller)
        if isEnabled, sets.isEmpty {
            throw .valueOutOfRange(field: "Num_Sets", value: 0, allowed: "1…63 when enabling (0 only disables every set)")
        }
        try HCIValidation.checkRange("Num_Sets", sets.count, 0...Self.maximumSetsPerCommand, "0…63 (more sets take more commands)")
        var seen: Swift.Set<UInt8> = []
        for set in sets {
            try HCIValidation.checkHandle(set.handle)
            guard seen.insert(set.handle).inserted else { throw .duplicateAdvertisingHandle(set.handle) }
        }
    }
}
