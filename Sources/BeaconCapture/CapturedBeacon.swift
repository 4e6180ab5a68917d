// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import HCI

/// One iBeacon found in a capture: heard in an advertising report or by a sniffer, or advertised
/// by the captured host itself (its LE Set (Extended) Advertising Data commands).
@frozen
public struct CapturedBeacon: Hashable, Sendable {
    /// Where the beacon was found.
    @frozen
    public enum Source: String, Hashable, Sendable, CaseIterable {
        /// LE Advertising Report (LE Meta 0x02): heard by a legacy scan.
        case report = "report"
        /// LE Extended Advertising Report (LE Meta 0x0D): heard by an extended scan.
        case extendedReport = "extended-report"
        /// LE Set Advertising Data (0x2008): our own legacy advertising.
        case command = "command"
        /// LE Set Extended Advertising Data (0x2037): one of our own advertising sets.
        case extendedCommand = "extended-command"
        /// A legacy advertising PDU (or scan response) a sniffer heard on the air (link types 251, 256).
        case linkLayer = "link-layer"

        /// Whether the beacon was heard (a report, or a sniffer) rather than sent (a command).
        @inlinable public var isReport: Bool { self == .report || self == .extendedReport || self == .linkLayer }
    }

    public var timestamp: CaptureTimestamp
    public var source: Source
    /// The advertiser's address: from the report; for a command, the address the set advertises
    /// from as far as the capture shows it (see ``BeaconExtractor``); `nil` when unknown.
    public var address: BluetoothAddress?
    public var addressType: LEAddressType?
    /// dBm, from reports (and sniffers that give one); `nil` for commands and when the controller
    /// reported 127 (not available).
    public var rssi: Int8?
    /// The advertising handle (extended commands) or advertising SID (extended reports, 0xFF none).
    public var handle: UInt8?
    public var controllerIndex: UInt16
    /// The packet's number in the capture, from 1.
    public var recordNumber: Int
    public var beacon: AnyBeacon

    @inlinable
    public init(timestamp: CaptureTimestamp, source: Source, address: BluetoothAddress?, addressType: LEAddressType?,
                rssi: Int8?, handle: UInt8?, controllerIndex: UInt16, recordNumber: Int, beacon: AnyBeacon) {
        self.timestamp = timestamp
        self.source = source
        self.address = address
        self.addressType = addressType
        self.rssi = rssi
        self.handle = handle
        self.controllerIndex = controllerIndex
        self.recordNumber = recordNumber
        self.beacon = beacon
    }
}
