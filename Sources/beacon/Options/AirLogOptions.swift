// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import Foundation

/// `--air-log FILE`: where the built-in virtual controller's air log goes (advertise, cycle).
/// Off by default: the live view (or the lines) say what goes on air.
struct AirLogOptions: ParsableArguments {
    @Option(name: .customLong("air-log"), help: ArgumentHelp(
        "With -i virtual: write every advertising event the virtual controller puts on air to this file, one \"air …\" line (--json: object) each; - for standard output (then lines instead of the live view), /dev/stderr for standard error.",
        valueName: "file"))
    var airLog: String?

    /// Where the air log goes, opened (nil: nowhere). One of the command's `inputs` (the same
    /// file, by device and inode) is refused before it is truncated.
    func open(inputs: [String]) throws(ExitCode) -> AirLogSink? {
        guard let airLog else { return nil }
        if airLog == "-" { return .standardOutput }
        let fd = Glibc.open(airLog, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw CommandFailure.exit("--air-log \(airLog): cannot open it for writing (\(String(cString: strerror(errno))))") }
        var info = stat()
        _ = fstat(fd, &info)
        for input in inputs {
            var other = stat()
            if stat(input, &other) == 0, other.st_dev == info.st_dev, other.st_ino == info.st_ino {
                Glibc.close(fd)
                throw CommandFailure.exit("--air-log \(airLog): it is the input \(input), which would be overwritten")
            }
        }
        if info.st_mode & S_IFMT == S_IFREG { _ = ftruncate(fd, 0) }
        return .file(fd)
    }

    /// Whether the air log takes standard output (so no live view there).
    var takesStandardOutput: Bool { airLog == "-" }
}

/// An open air log destination.
enum AirLogSink: Sendable {
    case standardOutput
    case file(Int32)

    func write(_ line: String) {
        switch self {
        case .standardOutput: LineOutput.out(line)
        case .file(let fd):
            var bytes = Array((line + "\n").utf8)[...]
            while !bytes.isEmpty {
                let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                // A full disk or a closed reader: the run goes on without its air log.
                if n <= 0 { return }
                bytes = bytes.dropFirst(n)
            }
        }
    }

    func close() { if case .file(let fd) = self { _ = Glibc.close(fd) } }
}
