// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCapture
import BeaconCodec
import BeaconJSON
import BeaconPositioning
import BeaconRadio
import BeaconSystem
import Foundation

/// Where `beacon locate` gets its RSSI samples from.
enum LocateInput {
    struct TraceError: Error, CustomStringConvertible {
        var description: String
    }

    /// JSON Lines: `beacon scan --json` output (its "report" events, of every format) or plain
    /// `{"time","uuid","major","minor","rssi"[,"power"]}` lines. Lines of other events
    /// ("ranging", "enter", …) are skipped; a line that is not JSON is an error. A file is read
    /// whole (its samples may come in any order); `-` (standard input) goes through
    /// ``forEachStandardInputSample(_:)`` instead, so a pipe is located as it runs.
    /// The largest trace file read whole (64 MiB: hours of `scan --json`); standard input has
    /// no such limit (read a line at a time).
    static let maximumTraceFileSize = 64 << 20

    static func traceSamples(path: String) throws -> [RSSISample] { try trace(path: path).samples }

    /// A trace file's samples, and its `true_position` lines (BeaconJSON's `TraceTruePosition`).
    static func trace(path: String) throws -> (samples: [RSSISample], truth: TruePositions) {
        if let problem = InputPath.problem(path) { throw TraceError(description: "\(InputPath.label(path)): \(problem)") }
        // A regular file up to the size it has now, a pipe to its end; either at most one byte
        // past maximumTraceFileSize, as it is read whole.
        let data: [UInt8]
        switch InputFile().contents(path, limit: maximumTraceFileSize) {
        case .success(let bytes): data = bytes
        case .failure(let error): throw TraceError(description: "\(InputPath.label(path)): cannot read: \(error)")
        }
        guard data.count <= maximumTraceFileSize else {
            throw TraceError(description: "\(InputPath.label(path)): more than \(maximumTraceFileSize) bytes: a trace file is read whole and may have at most 64 MiB; pipe a longer one into --trace - (read line by line: beacon locate FLEET --trace - < FILE)")
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw TraceError(description: "\(InputPath.label(path)): cannot read it as UTF-8 text")
        }
        var samples: [RSSISample] = []
        var truths: [(time: Double, position: Point)] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            do {
                if let t = try TraceTruePosition(line: line) { truths.append((t.time, Point(x: t.x, y: t.y))) }
            } catch {
                throw TraceError(description: "\(path.escapingControlCharacters):\(number + 1): \(error)")
            }
            if let sample = try sample(line, number: number + 1, path: path) { samples.append(sample) }
        }
        return (samples, TruePositions(truths))
    }

    /// Calls `body` with each sample of standard input as soon as its line arrives, until end of
    /// file (`beacon scan --json | beacon locate FLEET --trace -` locates as the scan runs).
    static func forEachStandardInputSample(_ body: (RSSISample) -> Void) throws {
        var number = 0
        try LineOutput.forEachStandardInputLine { line in
            number += 1
            if let sample = try sample(Substring(line), number: number, path: "-") { body(sample) }
        }
    }

    /// The sample of one trace line (BeaconJSON's ``TraceSample``, the reading side of
    /// `scan --json`'s reports); `nil` for a blank line or an event other than a report.
    static func sample(_ line: Substring, number: Int, path: String) throws -> RSSISample? {
        do {
            guard let s = try TraceSample(line: line) else { return nil }
            return RSSISample(s)
        } catch {
            throw TraceError(description: "\(path.escapingControlCharacters):\(number): \(error)")
        }
    }

    /// The advertising reports of a capture (commands carry no RSSI), timed in seconds from the
    /// first report, as a trace from `beacon scan --json` is.
    static func captureSamples(path: String) throws -> [RSSISample] {
        var samples: [RSSISample] = []
        var first: CaptureTimestamp? = nil
        _ = try CaptureBeaconScan.forEachSighting(path: path) { sighting in
            guard sighting.source.isReport, let rssi = sighting.rssi, let key = sighting.beacon.key else { return }
            let start = first ?? sighting.timestamp
            first = start
            samples.append(RSSISample(time: sighting.timestamp.seconds(since: start), key: key, rssi: Double(rssi), measuredPower: sighting.beacon.powerAt1m))
        }
        return samples
    }
}
