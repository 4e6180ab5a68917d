// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import HCI

/// The HCI byte strings the framing and event benchmarks decode, built at run time through the
/// library's own encoders (never literals the optimiser could fold into the measured loop).
enum HCIPayloads {
    /// How many LE Advertising Report events the H4 stream benchmarks feed per sample: the
    /// harness runs 1,000 operations per sample (`scalingFactor: .kilo`), one per packet.
    static let streamPackets = 1_000

    /// The iBeacon heard in every report: AirLocate UUID, major 1, minor `minor`, −59 dBm.
    static func iBeacon(minor: UInt16) -> AdvertisingPayload {
        IBeacon(uuid: BeaconUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!, major: 1, minor: minor, measuredPower: -59)
            .advertisingData(flags: .generalDiscoverable)
    }

    /// A random static address, different per minor so no two reports are identical.
    static func address(_ minor: UInt16) -> BluetoothAddress {
        BluetoothAddress(0xC0_11_22_33_00_00 | UInt64(minor))
    }

    /// One LE Advertising Report event (subevent 0x02) with one ADV_NONCONN_IND report carrying a
    /// 30-byte iBeacon: event code, length, then 42 parameter bytes (44 bytes, no H4 indicator).
    static func advertisingReportEvent(minor: UInt16) -> HCIEventPacket {
        LEAdvertisingReportEvent(reports: [
            .init(eventType: .advNonconnInd, addressType: .random, address: address(minor), data: iBeacon(minor: minor), rssi: -60)
        ]).packet
    }

    /// One LE Extended Advertising Report event (subevent 0x0D) with one report of a legacy
    /// ADV_NONCONN_IND PDU (event type bit 4) carrying the same 30-byte iBeacon: what an
    /// extended scan delivers for an iBeacon (55 bytes, no H4 indicator).
    static func extendedAdvertisingReportEvent(minor: UInt16) -> HCIEventPacket {
        LEExtendedAdvertisingReportEvent(reports: [
            .init(eventType: .legacyPDU, addressType: .random, address: address(minor), rssi: -60, data: Array(iBeacon(minor: minor)))
        ]).packet
    }

    /// `streamPackets` LE Advertising Report events back to back as an H4 stream (each `0x04`,
    /// then the event): 45 bytes a packet, 45,000 in all. Minors 0…999.
    static var advertisingReportStream: [UInt8] {
        var stream: [UInt8] = []
        for minor in 0..<UInt16(streamPackets) { stream += advertisingReportEvent(minor: minor).h4Bytes }
        return stream
    }

    /// The bytes of the event packet (`H4Packet.bytes`: code onwards), where the minor's low
    /// byte sits: event code 1, length 1, subevent 1, Num_Reports 1, Event_Type 1, Address_Type 1,
    /// Address 6, Data_Length 1, then the data (flags 3 + Apple structure, minor at data offset 27).
    static let minorLowOffsetInAdvertisingReport = 2 + 1 + 1 + 1 + 1 + 6 + 1 + 3 + 25

    /// The same offset in the extended report: code 1, length 1, subevent 1, Num_Reports 1,
    /// Event_Type 2, Address_Type 1, Address 6, PHYs 2, SID 1, TX power 1, RSSI 1, periodic
    /// interval 2, direct address type 1, direct address 6, Data_Length 1, then the data.
    static let minorLowOffsetInExtendedReport = 2 + 1 + 1 + 2 + 1 + 6 + 2 + 1 + 1 + 1 + 2 + 1 + 6 + 1 + 3 + 25
}
