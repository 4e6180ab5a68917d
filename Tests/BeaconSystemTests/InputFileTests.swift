// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconSystem
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// An input file is looked at through the seam before it is read, and each refusal says why; a
/// whole read takes at most one byte past its limit.
@Suite struct InputFileTests {
    /// Read access refused, whatever the file's mode says (root reads anything).
    struct NoReadAccess: SystemCalls {
        func checkAccess(_ path: String, mode: Int32) -> Result<Void, Errno> { .failure(.permissionDenied) }
    }

    @Test func eachKindOfFileThatCannotBeReadSaysWhy() throws {
        let folder = try SystemCallsFileTests.directory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/trace.jsonl"
        try "{}\n".write(toFile: file, atomically: false, encoding: .utf8)
        let input = InputFile()
        #expect(input.problem("-") == nil)
        #expect(input.problem(file) == nil)
        #expect(input.problem(folder + "/missing") == "no such file")
        #expect(input.problem("/dev/fd/987654")?.hasPrefix("no such file: a pipe from the shell") == true)
        #expect(input.problem(folder) == "cannot read: it is a directory")
        #expect(input.problem("/dev/null")?.hasPrefix("cannot read: it is a character device") == true)
        #expect(InputFile(system: NoReadAccess()).problem(file) == "cannot read: permission denied")
    }

    @Test func aWholeReadStopsOneBytePastItsLimit() throws {
        let folder = try SystemCallsFileTests.directory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/ten"
        try "0123456789".write(toFile: file, atomically: false, encoding: .utf8)
        let input = InputFile()
        #expect(input.regularFileSize(file) == 10 && input.regularFileSize(folder) == nil)
        #expect(try input.contents(file, limit: 100).get() == Array("0123456789".utf8))
        #expect(try input.contents(file, limit: 10).get().count == 10)
        #expect(try input.contents(file, limit: 4).get() == Array("01234".utf8), "one byte past the limit says it is too large")
        #expect(input.contents(folder + "/missing", limit: 4) == .failure(.noSuchFile))
    }
}
