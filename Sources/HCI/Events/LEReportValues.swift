// SPDX-License-Identifier: GPL-2.0-or-later

/// What the advertising reports' signed dBm fields say when there is no measurement (Core Vol 4
/// Part E §7.7.65.2 and §7.7.65.13): written once for the scanner, the capture reader and the
/// report types themselves.
public enum LEReportValues {
    /// RSSI 127 (0x7F): the controller could not measure the signal strength.
    public static let rssiNotAvailable: Int8 = 127
    /// TX_Power 127 (0x7F) in an extended report: the advertiser did not say.
    public static let txPowerNotAvailable: Int8 = 127

    /// `rssi` in dBm, or `nil` when it is ``rssiNotAvailable``.
    @inlinable
    public static func rssi(_ rssi: Int8) -> Int8? { rssi == rssiNotAvailable ? nil : rssi }
}

/// The two advertising report subevents (legacy and extended): a count, then reports one after
/// the other, each read by the event type's own `readReport`, the one place its layout is written.
public protocol LEAdvertisingReportSubevent: LEMetaSubevent {
    /// A report as read from the event's bytes, without copying its data to the heap.
    associatedtype InPlaceReport
    static func readReport(_ reader: inout HCIReader) throws(HCIDecodingError) -> InPlaceReport
}

extension LEAdvertisingReportSubevent {
    /// Calls `body` with each report of an event packet's bytes (event code onwards, as
    /// `H4Packet.bytes` holds them) without building the event or an array: the scanner's and
    /// the capture reader's hot path. Returns `false`, without calling `body`, when the packet is
    /// another event.
    @inlinable
    public static func forEachReport(inEventBytes bytes: ArraySlice<UInt8>, _ body: (InPlaceReport) -> Void) throws(HCIDecodingError) -> Bool {
        var reader = HCIReader(bytes)
        guard try reader.readUInt8("event code") == HCIEventCode.leMeta else { return false }
        try reader.readParameterLength("event parameter length")
        guard try reader.readUInt8("Subevent_Code") == subeventCode else { return false }
        let count = try reader.readUInt8("Num_Reports")
        for _ in 0..<count { body(try readReport(&reader)) }
        return true
    }
}
