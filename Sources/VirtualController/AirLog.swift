// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import HCI

/// Who sent an advertising event: the legacy advertiser (legacy commands) or one advertising set.
public enum VirtualAdvertiser: Hashable, Sendable, Comparable, CustomStringConvertible {
    case legacy
    case set(UInt8)

    public var description: String {
        switch self {
        case .legacy: "legacy"
        case let .set(handle): "set \(handle)"
        }
    }
}

/// The advertising PDU an event starts with on the primary channels (Core Vol 6 Part B §2.3.1).
public enum AirPDU: String, Hashable, Sendable, CustomStringConvertible {
    case advInd = "ADV_IND"
    case advDirectInd = "ADV_DIRECT_IND"
    case advNonconnInd = "ADV_NONCONN_IND"
    case advScanInd = "ADV_SCAN_IND"
    /// Extended advertising: ADV_EXT_IND on the primary channels pointing at AUX_ADV_IND (and
    /// any AUX_CHAIN_IND) on a secondary channel, which carry the data.
    case advExtInd = "ADV_EXT_IND"

    public var description: String { rawValue }

    /// The PDU a legacy Advertising_Type sends.
    init(legacy type: LEAdvertisingType) {
        switch type {
        case .connectableUndirected: self = .advInd
        case .scannableUndirected: self = .advScanInd
        case .nonConnectableUndirected: self = .advNonconnInd
        default: self = .advDirectInd
        }
    }

    /// The PDU an advertising set's event properties send (Core Vol 4 Part E §7.8.53 Table 7.2).
    init(properties: LEAdvertisingEventProperties) {
        guard properties.contains(.useLegacyPDUs) else { self = .advExtInd; return }
        if properties.contains(.directed) { self = .advDirectInd }
        else if properties.contains(.connectable) { self = .advInd }
        else if properties.contains(.scannable) { self = .advScanInd }
        else { self = .advNonconnInd }
    }

    /// Whether the PDU carries AdvData (directed legacy PDUs carry a target address instead).
    var carriesData: Bool { self != .advDirectInd }
}

/// One advertising event the virtual controller put on the air.
public struct AirLogEntry: Hashable, Sendable, CustomStringConvertible {
    /// Point in the log since the controller was created; never reused, so a reader can ask
    /// for the entries after the last one it saw.
    public var sequence: UInt64
    /// When the event started, on the controller's clock.
    public var time: Duration
    public var advertiser: VirtualAdvertiser
    public var pdu: AirPDU
    /// AdvA: the public address or the random one, as Own_Address_Type chose.
    public var address: BluetoothAddress
    public var addressType: LEAddressType
    /// AdvData (empty for ADV_DIRECT_IND).
    public var data: [UInt8]
    /// The transmit power of the event, in dBm.
    public var txPower: Int8
    /// ScanRspData: what this advertiser answers an active scanner's SCAN_REQ with (scannable
    /// PDUs only; empty otherwise). The virtual air has no scanner, so the answer is logged.
    public var scanResponse: [UInt8]

    public init(sequence: UInt64, time: Duration, advertiser: VirtualAdvertiser, pdu: AirPDU, address: BluetoothAddress,
                addressType: LEAddressType, data: [UInt8], txPower: Int8, scanResponse: [UInt8] = []) {
        self.scanResponse = scanResponse
        self.sequence = sequence
        self.time = time
        self.advertiser = advertiser
        self.pdu = pdu
        self.address = address
        self.addressType = addressType
        self.data = data
        self.txPower = txPower
    }

    /// `+0.100 s set 1 C0:11:22:33:44:55 random ADV_NONCONN_IND 0201061AFF4C00…`
    public var description: String {
        let data = self.data.isEmpty ? "-" : Hex.string(self.data)
        let response = scanResponse.isEmpty ? "" : " scan response \(Hex.string(scanResponse))"
        return "\(Self.seconds(time)) \(advertiser) \(address) \(addressType) \(pdu) \(data)\(response)"
    }

    /// `+1.234 s`: milliseconds, which the 0.625 ms interval unit rounds to at most 0.5 ms.
    static func seconds(_ time: Duration) -> String {
        let (s, atto) = time.components
        let totalMicros = s * 1_000_000 + atto / 1_000_000_000_000
        let millis = (totalMicros + 500) / 1000
        let fraction = String(millis % 1000)
        return "+\(millis / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction) s"
    }
}

/// The last `capacity` advertising events, plus how many each advertiser ever sent.
struct AirLog {
    let capacity: Int
    private var ring: [AirLogEntry] = []
    /// Index in `ring` of the oldest entry once the ring is full.
    private var oldest = 0
    /// Sequence number the next entry gets.
    private(set) var nextSequence: UInt64 = 0
    private(set) var counts: [VirtualAdvertiser: Int] = [:]

    init(capacity: Int) {
        precondition(capacity > 0, "the air log keeps at least one entry")
        self.capacity = capacity
        ring.reserveCapacity(min(capacity, 1024))
    }

    mutating func append(time: Duration, advertiser: VirtualAdvertiser, pdu: AirPDU, address: BluetoothAddress,
                         addressType: LEAddressType, data: [UInt8], txPower: Int8, scanResponse: [UInt8] = []) {
        let entry = AirLogEntry(sequence: nextSequence, time: time, advertiser: advertiser, pdu: pdu, address: address,
                                addressType: addressType, data: data, txPower: txPower, scanResponse: scanResponse)
        nextSequence += 1
        counts[advertiser, default: 0] += 1
        if ring.count < capacity {
            ring.append(entry)
        } else {
            ring[oldest] = entry
            oldest = (oldest + 1) % capacity
        }
    }

    /// Counts events that were skipped without being recorded (a long unobserved gap): they
    /// still count, and still take sequence numbers so readers see the gap.
    mutating func skip(_ count: Int, advertiser: VirtualAdvertiser) {
        nextSequence += UInt64(count)
        counts[advertiser, default: 0] += count
    }

    /// Entries whose sequence is at least `sequence`, oldest first.
    func entries(since sequence: UInt64) -> [AirLogEntry] {
        let ordered = ring.count < capacity ? ring[...] + [] : ring[oldest...] + ring[..<oldest]
        return ordered.filter { $0.sequence >= sequence }
    }
}
