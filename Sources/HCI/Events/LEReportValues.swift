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

extension LEMetaSubevent {
    /// Reads an event packet's bytes (event code onwards) up to and including Num_Reports, for
    /// walking the reports in place; `nil` when the packet is another event.
    @inlinable
    static func reportReader(inEventBytes bytes: ArraySlice<UInt8>) throws(HCIDecodingError) -> (reader: HCIReader, count: UInt8)? {
        var reader = HCIReader(bytes)
        guard try reader.readUInt8("event code") == HCIEventCode.leMeta else { return nil }
        let length = Int(try reader.readUInt8("event parameter length"))
        guard reader.remaining == length else { throw .lengthMismatch(declared: length, actual: reader.remaining) }
        guard try reader.readUInt8("Subevent_Code") == subeventCode else { return nil }
        let count = try reader.readUInt8("Num_Reports")
        return (reader, count)
    }
}
