// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import BeaconCapture
import BeaconCodec
import BeaconJSON
import Foundation
import HCITransport

extension DecodeCommand {
    /// `beacon decode --capture FILE`: every beacon (of every format) of a capture, streamed (a capture of
    /// millions of packets prints as it is read, in constant memory).
    func validate() throws {
        if capture != nil, !payloads.isEmpty { throw ValidationError("--capture reads a file: give no hex payloads with it") }
    }

    func runCapture(path: String) throws {
        var out = CaptureLineWriter()
        let asJSON = json
        // The table header goes out with the first row, so a file that cannot be read prints
        // only the error.
        var headerWritten = asJSON
        var size = stat()
        let progress = ProgressLine(label: "reading \(path)", total: stat(path, &size) == 0 ? Int(size.st_size) : 0)
        // Rows on the same terminal would mix with the line: it only shows until the first one.
        let rowsOnTerminal = LineOutput.standardOutputIsTerminal
        defer { progress.stop() }
        let summary: CaptureBeaconScan.Summary
        do {
            summary = try CaptureBeaconScan.forEachSighting(path: path, options: options, progress: progress.update) { sighting in
                if rowsOnTerminal { progress.stop() }
                if asJSON {
                    out.appendJSON(sighting)
                } else {
                    if !headerWritten {
                        out.append(CaptureLineWriter.tableHeader)
                        headerWritten = true
                    }
                    out.appendRow(sighting)
                }
            }
        } catch {
            progress.stop()
            out.flush()
            throw CommandFailure.exit("\(error)")
        }
        progress.stop()
        if !headerWritten { out.append(CaptureLineWriter.tableHeader) }
        out.flush()
        var note = "\(Plural.of(summary.sightings, "beacon")) in \(summary.records) records of \(summary.format)"
        if summary.malformedPackets > 0 { note += "; \(summary.malformedPackets) malformed packet(s) skipped" }
        Log.notice("\(note)")
    }
}

/// Formats sightings straight into a byte buffer written with `write(2)` in 64 KiB pieces: printing
/// a million lines through `String` interpolation and `print` would cost more than reading the
/// capture.
struct CaptureLineWriter {
    private var buffer: [UInt8] = []
    private static let flushThreshold = 1 << 16

    /// Column titles padded to the row layout of ``appendRow(_:)``.
    static let tableHeader: String = {
        let columns = [("TIME", 29), ("SOURCE", 17), ("ADDRESS", 19), ("RSSI", 6), ("UUID", 38), ("MAJOR", 7), ("MINOR", 7)]
        return columns.map { $0.0.padding(toLength: $0.1, withPad: " ", startingAt: 0) }.joined() + "POWER\n"
    }()

    init() { buffer.reserveCapacity(Self.flushThreshold + 512) }

    mutating func append(_ text: String) { buffer.append(contentsOf: text.utf8) }

    /// `{"time":…,"source":…,"address":…,"rssi":…,"format":"ibeacon","uuid":…,"major":…,"minor":…,"power":…}`
    mutating func appendJSON(_ s: CapturedBeacon) {
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
        // The beacon as every command prints one (BeaconJSON), "format" first.
        append(",")
        BeaconObject.write(s.beacon, naming: .profile, to: &buffer)
        append("}\n")
        flushIfFull()
    }

    /// One fixed-width table row.
    mutating func appendRow(_ s: CapturedBeacon) {
        appendISOTime(s.timestamp)
        append("  ")
        pad(s.source.rawValue, 17)
        if let address = s.address { appendAddress(address) } else { append("-".padding(toLength: 17, withPad: " ", startingAt: 0)) }
        append("  ")
        pad(s.rssi.map { String($0) } ?? "-", 6)
        guard case .iBeacon(let beacon) = s.beacon else {
            // Other formats: the format and identity across UUID, MAJOR and MINOR, then the power
            // (Eddystone's at 0 m, marked @0m).
            pad("\(s.beacon.format) \(BeaconText.identity(s.beacon))", 51)
            append(" ")
            append(BeaconText.power(s.beacon))
            append("\n")
            flushIfFull()
            return
        }
        appendUUID(beacon.uuid)
        append("  ")
        pad(String(beacon.major), 7)
        pad(String(beacon.minor), 7)
        append(String(beacon.measuredPower))
        append("\n")
        flushIfFull()
    }

    mutating func flush() {
        guard !buffer.isEmpty else { return }
        // A closed pipe: what is left is dropped, nothing more can be written.
        _ = buffer.withUnsafeBytes { LiveSystemCalls().writeAll(STDOUT_FILENO, from: $0) }
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
        var v = value.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var n = 0
        withUnsafeMutableBytes(of: &digits) { d in
            repeat {
                d[n] = UInt8(ascii: "0") + UInt8(v % 10)
                v /= 10
                n += 1
            } while v > 0
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
        var divisor: Int64 = 100_000
        while divisor > 0 {
            buffer.append(UInt8(ascii: "0") + UInt8((micros / divisor) % 10))
            divisor /= 10
        }
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
        append(String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%06dZ", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday,
                      parts.tm_hour, parts.tm_min, parts.tm_sec, t.nanosecondOfSecond / 1000))
    }

    /// What the TIME column shows for a date no four-digit year can write; as wide as a date.
    static let outOfRangeTime = "(date out of range)".padding(toLength: 27, withPad: " ", startingAt: 0)

    private mutating func appendHexByte(_ b: UInt8) {
        let digits: StaticString = "0123456789ABCDEF"
        digits.withUTF8Buffer { d in
            buffer.append(d[Int(b >> 4)])
            buffer.append(d[Int(b & 0x0F)])
        }
    }

    private mutating func appendAddress(_ a: BluetoothAddress) {
        for i in (0..<6).reversed() {
            appendHexByte(UInt8(truncatingIfNeeded: a.value >> (8 * UInt64(i))))
            if i > 0 { buffer.append(UInt8(ascii: ":")) }
        }
    }

    /// Canonical 8-4-4-4-12 upper case, as `BeaconUUID.description` prints it.
    private mutating func appendUUID(_ u: BeaconUUID) { u.appendText(to: &buffer) }
}
