// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// LE Extended Advertising Report — Core Vol 4 Part E §7.7.65.13, LE Meta subevent 0x0D:
/// legacy and extended advertisements heard by an extended scan.
///
/// ```
/// Subevent_Code                     1 octet   0x0D
/// Num_Reports                       1 octet   0x01…0x0A
/// then for each report, one after the other:
///   Event_Type[i]                   2 octets  bits 0–4 connectable, scannable, directed, scan response, legacy; bits 5–6 data status
///   Address_Type[i]                 1 octet   0xFF anonymous
///   Address[i]                      6 octets
///   Primary_PHY[i]                  1 octet
///   Secondary_PHY[i]                1 octet   0x00 none
///   Advertising_SID[i]              1 octet   0xFF no ADI field
///   TX_Power[i]                     1 octet   signed dBm, 127 = not available
///   RSSI[i]                         1 octet   signed dBm, 127 = not available
///   Periodic_Advertising_Interval[i] 2 octets × 1.25 ms, 0 = none
///   Direct_Address_Type[i]          1 octet
///   Direct_Address[i]               6 octets
///   Data_Length[i]                  1 octet   0…229
///   Data[i]                         Data_Length[i] octets
/// ```
@frozen
public struct LEExtendedAdvertisingReportEvent: LEAdvertisingReportSubevent {
    public static let subeventCode = LESubeventCode.extendedAdvertisingReport

    /// Event_Type bits.
    @frozen
    public struct EventType: OptionSet, Hashable, Sendable {
        public let rawValue: UInt16
        @inlinable public init(rawValue: UInt16) { self.rawValue = rawValue }
        public static let connectable = EventType(rawValue: 1 << 0)
        public static let scannable = EventType(rawValue: 1 << 1)
        public static let directed = EventType(rawValue: 1 << 2)
        public static let scanResponse = EventType(rawValue: 1 << 3)
        public static let legacyPDU = EventType(rawValue: 1 << 4)

        /// Bits 5–6: 0 complete, 1 incomplete with more to come, 2 incomplete and truncated.
        @inlinable public var dataStatus: UInt8 { UInt8((rawValue >> 5) & 0b11) }
    }

    /// One advertisement (or fragment) heard, its data as `Bytes`: an array in ``Report``, a
    /// slice of the event's bytes in ``InPlaceReport``.
    @frozen
    public struct ReportOf<Bytes: RandomAccessCollection & Hashable & Sendable>: Hashable, Sendable where Bytes.Element == UInt8 {
        public var eventType: EventType
        public var addressType: LEAddressType
        public var address: BluetoothAddress
        public var primaryPHY: LEPhy
        public var secondaryPHY: LEPhy
        public var sid: UInt8
        /// dBm; ``LEReportValues/txPowerNotAvailable`` (127) means not available.
        public var txPower: Int8
        /// dBm; ``LEReportValues/rssiNotAvailable`` (127) means not available.
        public var rssi: Int8
        /// Units of 1.25 ms; 0 means no periodic advertising.
        public var periodicAdvertisingInterval: UInt16
        public var directAddressType: LEAddressType
        public var directAddress: BluetoothAddress
        public var data: Bytes

        @inlinable
        public init(eventType: EventType, addressType: LEAddressType, address: BluetoothAddress,
                    primaryPHY: LEPhy = .le1M, secondaryPHY: LEPhy = .none, sid: UInt8 = 0xFF,
                    txPower: Int8 = LEReportValues.txPowerNotAvailable, rssi: Int8, periodicAdvertisingInterval: UInt16 = 0,
                    directAddressType: LEAddressType = .public, directAddress: BluetoothAddress = BluetoothAddress(0),
                    data: Bytes) {
            self.eventType = eventType
            self.addressType = addressType
            self.address = address
            self.primaryPHY = primaryPHY
            self.secondaryPHY = secondaryPHY
            self.sid = sid
            self.txPower = txPower
            self.rssi = rssi
            self.periodicAdvertisingInterval = periodicAdvertisingInterval
            self.directAddressType = directAddressType
            self.directAddress = directAddress
            self.data = data
        }

        /// ``rssi``, or `nil` when the controller could not measure it.
        @inlinable public var measuredRSSI: Int8? { LEReportValues.rssi(rssi) }

        /// The same report with its data turned into another collection.
        @inlinable
        public func withData<Other>(_ transform: (Bytes) -> Other) -> ReportOf<Other> {
            ReportOf<Other>(eventType: eventType, addressType: addressType, address: address, primaryPHY: primaryPHY,
                            secondaryPHY: secondaryPHY, sid: sid, txPower: txPower, rssi: rssi,
                            periodicAdvertisingInterval: periodicAdvertisingInterval, directAddressType: directAddressType,
                            directAddress: directAddress, data: transform(data))
        }
    }

    /// A report that owns its data.
    public typealias Report = ReportOf<[UInt8]>
    /// A report read in place: its data is a slice of the event's bytes (no allocation).
    public typealias InPlaceReport = ReportOf<ArraySlice<UInt8>>

    public var reports: [Report]

    @inlinable public init(reports: [Report]) { self.reports = reports }

    @inlinable
    public init(decodingSubevent reader: inout HCIReader) throws(HCIDecodingError) {
        let count = Int(try reader.readUInt8("Num_Reports"))
        var reports: [Report] = []
        reports.reserveCapacity(count)
        for _ in 0..<count { reports.append(try Self.readReport(&reader).withData(Array.init)) }
        self.reports = reports
    }

    /// One report, in the order of the layout above.
    @inlinable
    public static func readReport(_ reader: inout HCIReader) throws(HCIDecodingError) -> InPlaceReport {
        let eventType = EventType(rawValue: try reader.readUInt16("Event_Type"))
        let addressType = LEAddressType(rawValue: try reader.readUInt8("Address_Type"))
        let address = try reader.readAddress("Address")
        let primaryPHY = LEPhy(rawValue: try reader.readUInt8("Primary_PHY"))
        let secondaryPHY = LEPhy(rawValue: try reader.readUInt8("Secondary_PHY"))
        let sid = try reader.readUInt8("Advertising_SID")
        let txPower = try reader.readInt8("TX_Power")
        let rssi = try reader.readInt8("RSSI")
        let interval = try reader.readUInt16("Periodic_Advertising_Interval")
        let directAddressType = LEAddressType(rawValue: try reader.readUInt8("Direct_Address_Type"))
        let directAddress = try reader.readAddress("Direct_Address")
        let length = Int(try reader.readUInt8("Data_Length"))
        let data = try reader.readBytes(length, "Data")
        return InPlaceReport(
            eventType: eventType, addressType: addressType, address: address, primaryPHY: primaryPHY,
            secondaryPHY: secondaryPHY, sid: sid, txPower: txPower, rssi: rssi, periodicAdvertisingInterval: interval,
            directAddressType: directAddressType, directAddress: directAddress, data: data)
    }

    @inlinable
    public func encodeSubevent(into writer: inout HCIWriter) {
        writer.write(UInt8(reports.count))
        for report in reports {
            writer.write(report.eventType.rawValue)
            writer.write(report.addressType.rawValue)
            writer.write(report.address)
            writer.write(report.primaryPHY.rawValue)
            writer.write(report.secondaryPHY.rawValue)
            writer.write(report.sid)
            writer.write(report.txPower)
            writer.write(report.rssi)
            writer.write(report.periodicAdvertisingInterval)
            writer.write(report.directAddressType.rawValue)
            writer.write(report.directAddress)
            writer.write(UInt8(report.data.count))
            writer.write(contentsOf: report.data)
        }
    }
}
