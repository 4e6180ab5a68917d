// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// LE Advertising Report — Core Vol 4 Part E §7.7.65.2, LE Meta subevent 0x02: legacy
/// advertisements heard while scanning.
///
/// ```
/// Subevent_Code       1 octet   0x02
/// Num_Reports         1 octet   0x01…0x19
/// then for each report, one after the other:
///   Event_Type[i]     1 octet   0x00 ADV_IND, 0x01 ADV_DIRECT_IND, 0x02 ADV_SCAN_IND, 0x03 ADV_NONCONN_IND, 0x04 SCAN_RSP
///   Address_Type[i]   1 octet
///   Address[i]        6 octets
///   Data_Length[i]    1 octet   0…31
///   Data[i]           Data_Length[i] octets
///   RSSI[i]           1 octet   signed dBm, 127 = not available
/// ```
@frozen
public struct LEAdvertisingReportEvent: LEAdvertisingReportSubevent {
    public static let subeventCode = LESubeventCode.advertisingReport

    /// The legacy PDU a report came from.
    @frozen
    public struct EventType: RawRepresentable, Hashable, Sendable {
        public let rawValue: UInt8
        @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let advInd = EventType(rawValue: 0x00)
        public static let advDirectInd = EventType(rawValue: 0x01)
        public static let advScanInd = EventType(rawValue: 0x02)
        public static let advNonconnInd = EventType(rawValue: 0x03)
        public static let scanResponse = EventType(rawValue: 0x04)
    }

    /// One advertisement heard.
    @frozen
    public struct Report: Hashable, Sendable {
        public var eventType: EventType
        public var addressType: LEAddressType
        public var address: BluetoothAddress
        public var data: AdvertisingPayload
        /// dBm; ``LEReportValues/rssiNotAvailable`` (127) means not available.
        public var rssi: Int8
        /// ``rssi``, or `nil` when the controller could not measure it.
        @inlinable public var measuredRSSI: Int8? { LEReportValues.rssi(rssi) }

        @inlinable
        public init(eventType: EventType, addressType: LEAddressType, address: BluetoothAddress, data: AdvertisingPayload, rssi: Int8) {
            self.eventType = eventType
            self.addressType = addressType
            self.address = address
            self.data = data
            self.rssi = rssi
        }
    }

    public var reports: [Report]

    @inlinable public init(reports: [Report]) { self.reports = reports }

    @inlinable
    public init(decodingSubevent reader: inout HCIReader) throws(HCIDecodingError) {
        let count = Int(try reader.readUInt8("Num_Reports"))
        var reports: [Report] = []
        reports.reserveCapacity(count)
        for _ in 0..<count { reports.append(try Self.readReport(&reader)) }
        self.reports = reports
    }

    /// The payload lives inline in ``Report``, so reading in place needs no other type.
    public typealias InPlaceReport = Report

    /// One report: Event_Type, Address_Type, Address, Data_Length, Data, RSSI.
    @inlinable
    public static func readReport(_ reader: inout HCIReader) throws(HCIDecodingError) -> Report {
        let eventType = EventType(rawValue: try reader.readUInt8("Event_Type"))
        let addressType = LEAddressType(rawValue: try reader.readUInt8("Address_Type"))
        let address = try reader.readAddress("Address")
        let length = Int(try reader.readUInt8("Data_Length"))
        guard length <= AdvertisingPayload.capacity else {
            throw .invalidValue(field: "Data_Length", value: UInt64(length), allowed: "0…31")
        }
        let bytes = try reader.readBytes(length, "Data")
        // Copied straight into the payload's inline storage: no heap allocation per report.
        let data = AdvertisingPayload(filling: { raw in
            var i = 0
            for b in bytes {
                raw[i] = b
                i += 1
            }
            return length
        })
        return Report(eventType: eventType, addressType: addressType, address: address, data: data,
                      rssi: try reader.readInt8("RSSI"))
    }

    @inlinable
    public func encodeSubevent(into writer: inout HCIWriter) {
        writer.write(UInt8(reports.count))
        for report in reports {
            writer.write(report.eventType.rawValue)
            writer.write(report.addressType.rawValue)
            writer.write(report.address)
            writer.write(UInt8(report.data.count))
            report.data.withUnsafeBytes { writer.write(contentsOf: $0) }
            writer.write(report.rssi)
        }
    }
}
