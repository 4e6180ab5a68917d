// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import HCI

/// Bluetooth LE Link Layer packets as a sniffer captures them (link types 251 and 256; Core Vol 6
/// Part B §2.1 and §2.3): access address (4 bytes, little-endian), PDU header (2), payload, CRC (3).
///
/// On the primary advertising channels the access address is 0x8E89BED6 and the header is
/// PDU type (bits 0–3), ChSel (5), TxAdd (6, the advertiser's address is random), RxAdd (7), then
/// the payload length. The legacy PDUs that carry advertising data start their payload with the
/// advertiser's address (AdvA, 6 bytes, least-significant first):
///
/// | PDU type | name | payload |
/// |---|---|---|
/// | 0 | ADV_IND | AdvA, AdvData (0–31) |
/// | 2 | ADV_NONCONN_IND | AdvA, AdvData |
/// | 4 | SCAN_RSP | AdvA, ScanRspData (0–31) |
/// | 6 | ADV_SCAN_IND | AdvA, AdvData |
///
/// Extended advertising (ADV_EXT_IND, AUX_ADV_IND: type 7) carries its data behind an extended
/// header and in chained PDUs; it is not read here.
public enum LinkLayerPDU {
    public static let advertisingAccessAddress: UInt32 = 0x8E89_BED6
    /// Access address and PDU header.
    public static let headerEnd = 6
    public static let advertiserAddressLength = 6

    /// Whether a PDU type's payload is AdvA then advertising (or scan response) data.
    @inlinable
    public static func carriesAdvertisingData(pduType: UInt8) -> Bool {
        switch pduType {
        case 0x0, 0x2, 0x4, 0x6: true
        default: false
        }
    }

    /// The 10-byte pseudo-header of link type 256 (LINKTYPE_BLUETOOTH_LE_LL_WITH_PHDR), fields
    /// little-endian: RF channel, signal power (dBm, signed), noise power, access address
    /// offenses, reference access address (4), flags (2).
    public enum RadioHeader {
        public static let size = 10
        public static let signalPower = 1
        public static let flags = 8
        public static let signalPowerValid: UInt16 = 0x0002
        /// Flags bits 14–15: the PHY (0 LE 1M, 1 LE 2M, 2 LE Coded).
        public static let phyMask: UInt16 = 0xC000
        public static let phyCoded: UInt16 = 0x8000
    }

    /// A PDU that says it is a legacy advertising PDU but whose length does not fit.
    public struct Malformed: Error, Hashable, Sendable {
        @inlinable public init() {}
    }

    /// The advertiser and data of a legacy advertising PDU that carries data; `nil` for any other
    /// packet (data channel, other PDU types).
    @inlinable
    public static func advertisingData(in packet: ArraySlice<UInt8>) throws(Malformed)
        -> (address: BluetoothAddress, addressType: LEAddressType, data: ArraySlice<UInt8>)? {
        guard packet.count >= headerEnd else { return nil }
        let s = packet.startIndex
        let accessAddress = UInt32(packet[s]) | UInt32(packet[s + 1]) << 8 | UInt32(packet[s + 2]) << 16 | UInt32(packet[s + 3]) << 24
        let header = packet[s + 4]
        guard accessAddress == advertisingAccessAddress, carriesAdvertisingData(pduType: header & 0x0F) else { return nil }
        let length = Int(packet[s + 5])
        guard length >= advertiserAddressLength, headerEnd + length <= packet.count else { throw Malformed() }
        let addressStart = s + headerEnd
        let address = packet.withUnsafeBytes {
            BluetoothAddress(littleEndianBytes: UnsafeRawBufferPointer(rebasing: $0[headerEnd..<(headerEnd + advertiserAddressLength)]))
        }
        return (address, header & 0x40 != 0 ? .random : .public,
                packet[(addressStart + advertiserAddressLength)..<(addressStart + length)])
    }
}
