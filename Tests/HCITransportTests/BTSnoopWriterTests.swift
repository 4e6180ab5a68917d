// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconSystem
import Foundation
import HCITransport
import Synchronization
import Testing

/// `--btsnoop` must never destroy data or block: inputs are refused whatever their spelling,
/// FIFOs and devices are refused at once, and write errors are reported once.
@Suite struct BTSnoopWriterTests {
    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("beacon-snoop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func refusesAnInputFileByAnySpellingAndLeavesItIntact() throws {
        let dir = try Self.directory()
        let profile = dir.appendingPathComponent("room.yaml").path
        try Data("uuid: x\n".utf8).write(to: URL(fileURLWithPath: profile))
        let link = dir.appendingPathComponent("link.yaml").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: profile)
        let hardLink = dir.appendingPathComponent("hard.yaml").path
        try FileManager.default.linkItem(atPath: profile, toPath: hardLink)
        // A link is refused before anything else: outputs are never written through one.
        #expect(throws: OutputFileError.symbolicLink(path: link, target: profile)) { _ = try BTSnoopWriter(path: link, inputs: [profile]) }
        for spelling in [profile, hardLink, dir.path + "/./sub/../room.yaml".replacingOccurrences(of: "/sub/..", with: "")] {
            #expect(throws: OutputFileError.isAnInput(path: spelling, input: profile)) {
                _ = try BTSnoopWriter(path: spelling, inputs: [profile])
            }
        }
        #expect(try String(contentsOfFile: profile, encoding: .utf8) == "uuid: x\n")
    }

    @Test func refusesAFIFOWithoutBlocking() throws {
        let fifo = try Self.directory().appendingPathComponent("pipe").path
        try #require(mkfifo(fifo, 0o600) == 0)
        // No reader: a blocking open would never return.
        #expect(throws: OutputFileError.notARegularFile(path: fifo, kind: "a FIFO")) {
            _ = try BTSnoopWriter(path: fifo)
        }
        #expect(throws: OutputFileError.notARegularFile(path: FileManager.default.temporaryDirectory.path, kind: "a directory")) {
            _ = try BTSnoopWriter(path: FileManager.default.temporaryDirectory.path)
        }
    }

    @Test func aWriteFailureIsReportedOnceWithThePath() throws {
        let path = try Self.directory().appendingPathComponent("full.btsnoop").path
        let reports = Mutex<[String]>([])
        let writer = try BTSnoopWriter(path: path, system: DiskFailingSystemCalls(error: Errno(rawValue: ENOSPC))) { message in
            reports.withLock { $0.append(message.description) }
        }
        for _ in 0..<5 { writer.record([0x01, 0x03, 0x0C, 0x00], direction: .sent) }
        let messages = reports.withLock { $0 }
        #expect(messages.count == 1)
        #expect(messages.first?.contains(path) == true, "\(messages)")
        #expect(messages.first?.contains("No space left on device") == true, "\(messages)")
        #expect(writer.hasFailed)
    }

    @Test func aDeviceIsRefused() {
        #expect(throws: OutputFileError.notARegularFile(path: "/dev/full", kind: "a character device")) {
            _ = try BTSnoopWriter(path: "/dev/full")
        }
    }

    @Test func aRegularFileIsTruncatedAndWritten() throws {
        let path = try Self.directory().appendingPathComponent("old.btsnoop").path
        try Data(repeating: 0xAA, count: 1000).write(to: URL(fileURLWithPath: path))
        let writer = try BTSnoopWriter(path: path, inputs: ["/nonexistent/input.yaml"])
        writer.record([0x01, 0x03, 0x0C, 0x00], direction: .sent)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(bytes.count == 16 + 24 + 4)
        #expect(bytes.starts(with: Array("btsnoop".utf8) + [0]))
        #expect(!writer.hasFailed)
    }
}
