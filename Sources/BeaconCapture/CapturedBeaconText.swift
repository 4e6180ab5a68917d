// SPDX-License-Identifier: GPL-2.0-or-later
import TextLayout
import BeaconCodec
import BeaconJSON
import HCI
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The beacons of a capture as text: a fixed-width table (``tableHeader`` then one row per
/// beacon) or JSON Lines, formatted straight into a byte buffer that goes to the sink given to
/// ``init(sink:)`` in pieces of about 64 KiB. Printing a million lines through `String`
/// interpolation would cost more than reading the capture, so no row makes a `String` of its own.
///
/// The caller decides where the bytes go (standard output, a file, a test's array); nothing here
/// does I/O:
///
/// ```swift
/// var text = CapturedBeaconText { bytes in _ = LiveSystemCalls().writeAll(STDOUT_FILENO, from: bytes) }
/// _ = try CaptureBeaconScan.forEachSighting(path: path) { text.appendRow($0) }
/// text.flush()
/// ```
public struct CapturedBeaconText {
    private var buffer: [UInt8] = []
    private let sink: (UnsafeRawBufferPointer) -> Void
    private static let flushThreshold = 1 << 16

    /// Column titles padded to the row layout of ``appendRow(_:)``, with a newline.
    public static let tableHeader: String = {
        let columns = [("TIME", 29), ("SOURCE", 17), ("ADDRESS", 19), ("RSSI", 6), ("UUID", 38), ("MAJOR", 7), ("MINOR", 7)]
        return columns.map { $0.0 + String(repeating: " ", count: max(0, $0.1 - $0.0.count)) }.joined() + "POWER\n"
    }()

    /// What the TIME column shows for a date no four-digit year can write; as wide as a date.
    public static let outOfRangeTime = "(date out of range)" + String(repeating: " ", count: 27 - 19)

    /// A writer whose full buffers (and ``flush()``) go to `sink`, which must take the bytes
    /// before it returns.
    public init(sink: @escaping (UnsafeRawBufferPointer) -> Void) {
        self.sink = sink
        buffer.reserveCapacity(Self.flushThreshold + 512)
    }

    /// How ``append(_:as:)`` writes a beacon.
    public enum Form: Sendable {
        /// ``appendRow(_:)``, the ``tableHeader`` before the first row.
        case table
        /// ``appendJSON(_:)``.
        case json
    }

    private var headerWritten = false

    /// Appends `beacon` in `form`; the table's header goes out with its first row, so a capture
    /// that fails before any beacon leaves only its error.
    public mutating func append(_ beacon: CapturedBeacon, as form: Form) {
        switch form {
        case .json: appendJSON(beacon)
        case .table:
            if !headerWritten { append(Self.tableHeader) }
            headerWritten = true
            appendRow(beacon)
        }
    }

    /// The end of a read: a table without rows still gets its header; everything goes to the sink.
    public mutating func finish(_ form: Form) {
        if form == .table, !headerWritten { append(Self.tableHeader) }
        headerWritten = true
        flush()
    }

    /// Appends `text` as it is (the table header, for one).
    public mutating func append(_ text: String) { buffer.append(contentsOf: text.utf8) }

    /// One line of JSON: `{"time":…,"source":…,"address":…,"rssi":…,"format":"ibeacon","uuid":…,"major":…,"minor":…,"power":…}`
    /// (`time` in seconds since the epoch with six decimals; the beacon as BeaconJSON's
    /// `BeaconObject` writes it, `format` first).
    public mutating func appendJSON(_ s: CapturedBeacon) {
        append(#"{"time":"#)
        appendSeconds(s.timestamp)
        append(#","source":""#)
        append(s.source.rawValue)
        append(#"","address":"#)
        if let address = s.address {
            buffer.append(UInt8(ascii: "\""))
            appendAddress(address)
            buffer.append(UInt8(ascii: "\""))
        } else {
            append("null")
        }
        append(#","rssi":"#)
        if let rssi = s.rssi { appendInt(Int(rssi)) } else { append("null") }
        append(",")
        BeaconObject.write(s.beacon, naming: .profile, to: &buffer)
        append("}\n")
        flushIfFull()
    }

    /// One fixed-width table row: time (UTC, microseconds), source, address, RSSI, then UUID,
    /// major, minor and power for an iBeacon; for other formats the format and its identity
    /// (BeaconCodec's `BeaconText`) across the UUID, MAJOR and MINOR columns, then its power.
    public mutating func appendRow(_ s: CapturedBeacon) {
        appendISOTime(s.timestamp)
        append("  ")
        pad(s.source.rawValue, 17)
        if let address = s.address { appendAddress(address) } else { pad("-", 17) }
        append("  ")
        pad(s.rssi.map { String($0) } ?? "-", 6)
        guard case .iBeacon(let beacon) = s.beacon else {
            pad("\(s.beacon.format) \(BeaconText.identity(s.beacon))", 51)
            append(" ")
            append(BeaconText.power(s.beacon))
            append("\n")
            flushIfFull()
            return
        }
        beacon.uuid.appendText(to: &buffer)
        append("  ")
        pad(String(beacon.major), 7)
        pad(String(beacon.minor), 7)
        append(String(beacon.measuredPower))
        append("\n")
        flushIfFull()
    }

    /// Hands what is buffered to the sink.
    public mutating func flush() {
        guard !buffer.isEmpty else { return }
        buffer.withUnsafeBytes { sink($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    private mutating func flushIfFull() {
        if buffer.count >= Self.flushThreshold { flush() }
    }

    private mutating func pad(_ text: String, _ width: Int) {
        append(text)
        for _ in text.count..<max(text.count, width) { buffer.append(UInt8(ascii: " ")) }
    }

    private mutating func appendInt(_ value: Int) {
        if value < 0 { buffer.append(UInt8(ascii: "-")) }
        appendDigits(value.magnitude, width: 1)
    }

    /// `value` in decimal, zero-padded to at least `width` digits, without building a `String`.
    private mutating func appendDigits(_ value: UInt, width: Int) {
        var v = value
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var n = 0
        withUnsafeMutableBytes(of: &digits) { d in
            repeat {
                d[n] = UInt8(ascii: "0") + UInt8(v % 10)
                v /= 10
                n += 1
            } while v > 0 || n < min(width, d.count)
            while n > 0 {
                n -= 1
                buffer.append(d[n])
            }
        }
    }

    /// Seconds since the epoch with six decimals (captures have microseconds or nanoseconds);
    /// every timestamp a capture can hold is printed exactly, negative ones as `-S.ffffff`.
    private mutating func appendSeconds(_ t: CaptureTimestamp) {
        var seconds = t.unixSeconds
        var micros = Int64(t.nanosecondOfSecond / 1000)
        if seconds < 0, micros > 0 {
            // -1.5 s is stored as -2 s + 0.5 s; printed as -1.500000.
            seconds += 1
            micros = 1_000_000 - micros
        }
        if seconds == 0, t.unixSeconds < 0 { buffer.append(UInt8(ascii: "-")) }
        appendInt(Int(seconds))
        buffer.append(UInt8(ascii: "."))
        appendDigits(UInt(micros), width: 6)
    }

    /// `2026-11-22T02:56:23.123456Z`; a date outside the years 0000 to 9999 (which a corrupt or
    /// foreign capture can hold) prints as ``outOfRangeTime`` rather than a wrapped or misaligned date.
    private mutating func appendISOTime(_ t: CaptureTimestamp) {
        var seconds = time_t(t.unixSeconds)
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil, (-1900...(9999 - 1900)).contains(parts.tm_year) else {
            append(Self.outOfRangeTime)
            return
        }
        appendDigits(UInt(parts.tm_year + 1900), width: 4)
        buffer.append(UInt8(ascii: "-"))
        appendDigits(UInt(parts.tm_mon + 1), width: 2)
        buffer.append(UInt8(ascii: "-"))
        appendDigits(UInt(parts.tm_mday), width: 2)
        buffer.append(UInt8(ascii: "T"))
        appendDigits(UInt(parts.tm_hour), width: 2)
        buffer.append(UInt8(ascii: ":"))
        appendDigits(UInt(parts.tm_min), width: 2)
        buffer.append(UInt8(ascii: ":"))
        appendDigits(UInt(parts.tm_sec), width: 2)
        buffer.append(UInt8(ascii: "."))
        appendDigits(UInt(t.nanosecondOfSecond / 1000), width: 6)
        buffer.append(UInt8(ascii: "Z"))
    }

    private mutating func appendHexByte(_ b: UInt8) {
        let digits: StaticString = "0123456789ABCDEF"
        digits.withUTF8Buffer { d in
            buffer.append(d[Int(b >> 4)])
            buffer.append(d[Int(b & 0x0F)])
        }
    }

    /// `C0:11:22:33:44:55`, most significant byte first.
    private mutating func appendAddress(_ a: BluetoothAddress) {
        for i in (0..<6).reversed() {
            appendHexByte(UInt8(truncatingIfNeeded: a.value >> (8 * UInt64(i))))
            if i > 0 { buffer.append(UInt8(ascii: ":")) }
        }
    }
}

extension CaptureBeaconScan.Summary {
    /// `3 beacons in 120 records of btsnoop; 2 malformed packet(s) skipped`: what a read found.
    public var text: String {
        var note = "\(Plural.of(sightings, "beacon")) in \(records) records of \(format)"
        if malformedPackets > 0 { note += "; \(malformedPackets) malformed packet(s) skipped" }
        return note
    }
}
