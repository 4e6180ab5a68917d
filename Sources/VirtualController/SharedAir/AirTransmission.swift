// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconRadio
import HCI
import BeaconRadio

/// One advertising event as it travels between processes on the shared virtual air: what a
/// receiver needs to report it (PDU, address, data, transmit power) and where the advertiser is.
public struct AirTransmission: Hashable, Sendable {
    public var pdu: AirPDU
    public var address: BluetoothAddress
    public var addressType: LEAddressType
    public var data: [UInt8]
    public var txPower: Int8
    /// Where the advertiser is; `nil` when its process did not say (heard as if 1 m away).
    public var position: Point?
    /// The power this event radiates, as the RSSI it gives at 1 m in free space (dBm), worked
    /// out by the sender (`AirEmission`); `nil`: from the data and the TX power
    /// (``AirPathLoss/referencePower(data:txPower:)``).
    public var radiatedPowerAt1m: Double?
    /// When the event started on the machine's monotonic clock (``AirLink/machineTime()``), so
    /// receivers can tell which events overlapped (`AdvertisingCollisions`, BeaconRadio).
    public var time: Duration

    public init(pdu: AirPDU, address: BluetoothAddress, addressType: LEAddressType, data: [UInt8], txPower: Int8,
                position: Point?, time: Duration = .zero, radiatedPowerAt1m: Double? = nil) {
        self.time = time
        self.radiatedPowerAt1m = radiatedPowerAt1m
        self.pdu = pdu
        self.address = address
        self.addressType = addressType
        self.data = data
        self.txPower = txPower
        self.position = position
    }

    /// The event `entry` logged; `clockOffset` takes its controller's clock to the machine's.
    public init(_ entry: AirLogEntry, position: Point?, clockOffset: Duration = .zero, radiatedPowerAt1m: Double? = nil) {
        self.init(pdu: entry.pdu, address: entry.address, addressType: entry.addressType, data: entry.data,
                  txPower: entry.txPower, position: position, time: entry.time + clockOffset, radiatedPowerAt1m: radiatedPowerAt1m)
    }

    /// One PDU's time on air, seconds: a legacy PDU's (at most 31 octets of data; an extended
    /// event's ADV_EXT_IND is counted as the longest legacy PDU, its AUX PDUs not at all).
    public var airtime: Double { AirChannel.airtime(dataLength: min(data.count, 31)) }
}

/// The datagram format: `BAIR`, version 3, a count (u16 LE), then per transmission: PDU code,
/// address type, address (6 octets LE), TX power, the event's start on the machine's monotonic
/// clock (i64 LE, nanoseconds), a position flag and, when set, x, y, z as
/// IEEE 754 binary64 LE, a radiated-power flag and, when set, the power at 1 m (binary64 LE),
/// the data length (u16 LE) and the data. Only processes of one machine
/// and one user read it, but a malformed datagram is still dropped whole, never trusted.
enum AirDatagram {
    static let magic: [UInt8] = Array("BAIR".utf8)
    static let version: UInt8 = 3
    /// A datagram stays well under the default UNIX datagram limit (about 200 KiB).
    static let targetSize = 16 * 1024

    static let pduCodes: [AirPDU] = [.advInd, .advDirectInd, .advNonconnInd, .advScanInd, .advExtInd]

    /// The transmissions in as many datagrams as it takes.
    static func encode(_ transmissions: [AirTransmission]) -> [[UInt8]] {
        var datagrams: [[UInt8]] = []
        var body: [UInt8] = []
        var count = 0
        func flush() {
            guard count > 0 else { return }
            datagrams.append(magic + [version, UInt8(count & 0xFF), UInt8(count >> 8)] + body)
            body.removeAll(keepingCapacity: true)
            count = 0
        }
        for t in transmissions {
            body.append(UInt8(pduCodes.firstIndex(of: t.pdu)!))
            body.append(t.addressType.rawValue)
            for shift in stride(from: 0, to: 48, by: 8) { body.append(UInt8(truncatingIfNeeded: t.address.value >> UInt64(shift))) }
            body.append(UInt8(bitPattern: t.txPower))
            let (seconds, attoseconds) = t.time.components
            appendLE(UInt64(bitPattern: seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000), bytes: 8, to: &body)
            if let p = t.position {
                body.append(1)
                for v in [p.x, p.y, p.z] { appendLE(v.bitPattern, bytes: 8, to: &body) }
            } else {
                body.append(0)
            }
            if let power = t.radiatedPowerAt1m {
                body.append(1)
                appendLE(power.bitPattern, bytes: 8, to: &body)
            } else {
                body.append(0)
            }
            let data = t.data.prefix(0xFFFF)
            appendLE(UInt64(data.count), bytes: 2, to: &body)
            body += data
            count += 1
            if body.count >= targetSize || count == 0xFFFF { flush() }
        }
        flush()
        return datagrams
    }

    /// The transmissions of one datagram, or nil when it is not one of ours or is cut short.
    static func decode(_ bytes: ArraySlice<UInt8>) -> [AirTransmission]? {
        var r = bytes
        func take(_ n: Int) -> ArraySlice<UInt8>? {
            guard r.count >= n else { return nil }
            defer { r = r.dropFirst(n) }
            return r.prefix(n)
        }
        func le(_ n: Int) -> UInt64? {
            guard let b = take(n) else { return nil }
            return b.reversed().reduce(0) { $0 << 8 | UInt64($1) }
        }
        guard take(4).map(Array.init) == magic, take(1)?.first == version, let count = le(2) else { return nil }
        var out: [AirTransmission] = []
        for _ in 0..<count {
            guard let code = take(1)?.first, Int(code) < pduCodes.count, let type = take(1)?.first, let address = le(6),
                  let power = take(1)?.first, let nanoseconds = le(8), let hasPosition = take(1)?.first else { return nil }
            var position: Point? = nil
            if hasPosition == 1 {
                guard let x = le(8), let y = le(8), let z = le(8) else { return nil }
                position = Point(x: Double(bitPattern: x), y: Double(bitPattern: y), z: Double(bitPattern: z))
                guard [position!.x, position!.y, position!.z].allSatisfy(\.isFinite) else { return nil }
            }
            guard let hasPower = take(1)?.first else { return nil }
            var radiated: Double? = nil
            if hasPower == 1 {
                guard let bits = le(8), Double(bitPattern: bits).isFinite else { return nil }
                radiated = Double(bitPattern: bits)
            }
            guard let length = le(2), let data = take(Int(length)) else { return nil }
            out.append(AirTransmission(pdu: pduCodes[Int(code)], address: BluetoothAddress(address),
                                       addressType: LEAddressType(rawValue: type), data: Array(data),
                                       txPower: Int8(bitPattern: power), position: position,
                                       time: .nanoseconds(Int64(bitPattern: nanoseconds)), radiatedPowerAt1m: radiated))
        }
        return r.isEmpty ? out : nil
    }

    private static func appendLE(_ value: UInt64, bytes: Int, to out: inout [UInt8]) {
        for i in 0..<bytes { out.append(UInt8(truncatingIfNeeded: value >> UInt64(8 * i))) }
    }
}
