// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import BeaconCapture
import Foundation
import HCITransport

extension DecodeCommand {
    /// `beacon decode --capture FILE`: every beacon (of every format) of a capture, streamed (a capture of
    /// millions of packets prints as it is read, in constant memory).
    func validate() throws {
        if capture != nil, !payloads.isEmpty { throw ValidationError("--capture reads a file: give no hex payloads with it") }
    }

    func runCapture(path: String) throws {
        var out = CapturedBeaconText { bytes in
            // A closed pipe: what is left is dropped, nothing more can be written.
            _ = LiveSystemCalls().writeAll(STDOUT_FILENO, from: bytes)
        }
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
                        out.append(CapturedBeaconText.tableHeader)
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
        if !headerWritten { out.append(CapturedBeaconText.tableHeader) }
        out.flush()
        Log.notice("\(summary.text)")
    }
}
