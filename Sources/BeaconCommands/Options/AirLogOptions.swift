// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconSystem
import ArgumentParser
import Foundation
import HCITransport

/// `--air-log FILE`: where the built-in virtual controller's air log goes (advertise, cycle).
/// Off by default: the live view (or the lines) say what goes on air.
struct AirLogOptions: ParsableArguments {
    @Option(name: .customLong("air-log"), help: ArgumentHelp(
        "With -i virtual: write every advertising event the virtual controller puts on air to this file, one \"air …\" line (--json: object) each; - for standard output (then lines instead of the live view). A regular file only (not a FIFO, device or symbolic link); a write that fails is reported once and the exit status is 1.",
        valueName: "file"))
    var airLog: String?

    /// Where the air log goes, opened (nil: nowhere): standard output, or a regular file (see
    /// ``StreamingOutputFile``: never a FIFO, device or link, never one of the command's
    /// `inputs`). A write that fails later is reported once and makes the exit status 1.
    func open(inputs: [String]) throws(ExitCode) -> AirLogSink? {
        guard let airLog else { return nil }
        if airLog == "-" { return .standardOutput }
        do throws(OutputFileError) {
            return .file(try StreamingOutputFile(path: airLog, inputs: inputs) { failure in
                OutputFailures.report("--air-log: \(failure); the air log stops here, the run goes on without it")
            })
        } catch {
            throw CommandFailure.exit("--air-log: \(error)")
        }
    }

    /// Whether the air log takes standard output (so no live view there).
    var takesStandardOutput: Bool { airLog == "-" }
}

/// An open air log destination.
enum AirLogSink: Sendable {
    case standardOutput
    case file(StreamingOutputFile)

    func write(_ line: String) {
        switch self {
        case .standardOutput: LineOutput.out(line)
        case .file(let file): file.write(Array((line + "\n").utf8))
        }
    }
}
