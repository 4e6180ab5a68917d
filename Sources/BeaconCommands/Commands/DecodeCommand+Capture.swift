// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconSystem
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
        let form: CapturedBeaconText.Form = json ? .json : .table
        let progress = ProgressLine(label: "reading \(path)", total: InputFile().regularFileSize(path) ?? 0)
        // Rows on the same terminal would mix with the line: it only shows until the first one.
        let rowsOnTerminal = LineOutput.standardOutputIsTerminal
        defer { progress.stop() }
        let summary: CaptureBeaconScan.Summary
        do {
            summary = try CaptureBeaconScan.forEachSighting(path: path, options: options, progress: progress.update) { sighting in
                if rowsOnTerminal { progress.stop() }
                out.append(sighting, as: form)
            }
        } catch {
            progress.stop()
            out.flush()
            throw CommandFailure.exit("\(error)")
        }
        progress.stop()
        out.finish(form)
        Log.notice("\(summary.text)")
    }
}
