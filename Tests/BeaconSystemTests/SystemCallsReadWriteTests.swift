// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconSystem
import Foundation
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// How many times the test's SIGUSR1 handler ran.
private let interruptions = Atomic<Int>(0)

/// The real calls, except that `write` takes at most `most` bytes at a time (a pipe or socket
/// that is nearly full) or nothing at all (`most == 0`).
struct ShortWritingSystemCalls: SystemCalls {
    var most: Int
    func write(_ fd: Int32, from buffer: UnsafeRawBufferPointer) -> Result<Int, Errno> {
        LiveSystemCalls().write(fd, from: UnsafeRawBufferPointer(rebasing: buffer.prefix(most)))
    }
}

/// The real calls, except that the first `read` says the descriptor would block (EAGAIN) and
/// every read returns at most `most` bytes.
final class SlowReadingSystemCalls: SystemCalls, @unchecked Sendable {
    var most: Int
    var refusedOnce = false
    init(most: Int) { self.most = most }
    func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Errno> {
        if !refusedOnce {
            refusedOnce = true
            return .failure(.wouldBlock)
        }
        return LiveSystemCalls().read(fd, into: UnsafeMutableRawBufferPointer(rebasing: buffer.prefix(most)))
    }
}

/// The seam's reads and writes on pipes: whole writes after short ones, whole reads to the end
/// or a limit, EAGAIN waited on, EINTR retried.
@Suite struct SystemCallsReadWriteTests {
    static func pipe() -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        #expect(Glibc.pipe(&ends) == 0)
        return (ends[0], ends[1])
    }

    @Test func writeAllWritesEverythingAfterShortWrites() {
        let system = LiveSystemCalls()
        let (readEnd, writeEnd) = Self.pipe()
        defer { system.close(readEnd) }
        let bytes = Array("a line written three bytes at a time\n".utf8)
        #expect(bytes.withUnsafeBytes { ShortWritingSystemCalls(most: 3).writeAll(writeEnd, from: $0) } == nil)
        system.close(writeEnd)
        #expect(system.readAll(readEnd, limit: 1000) == .success(bytes))
    }

    @Test func aWriteThatTakesNothingIsAnErrorNotASpin() {
        let system = LiveSystemCalls()
        let (readEnd, writeEnd) = Self.pipe()
        defer { system.close(readEnd); system.close(writeEnd) }
        #expect([UInt8(1)].withUnsafeBytes { ShortWritingSystemCalls(most: 0).writeAll(writeEnd, from: $0) } == Errno(rawValue: EIO))
    }

    /// More than a pipe holds (64 KiB), so the writer waits for the reader part-way.
    @Test func writeAllAndReadAllCarryMoreThanAPipeHolds() async {
        let system = LiveSystemCalls()
        let (readEnd, writeEnd) = Self.pipe()
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let reader = Task.detached { () -> Result<[UInt8], Errno> in
            defer { system.close(readEnd) }
            return system.readAll(readEnd, limit: 1 << 20)
        }
        #expect(bytes.withUnsafeBytes { system.writeAll(writeEnd, from: $0) } == nil)
        system.close(writeEnd)
        #expect(await reader.value == .success(bytes))
    }

    @Test func readAllStopsOneBytePastItsLimit() throws {
        let system = LiveSystemCalls()
        guard case .success(let zero) = system.open("/dev/zero", flags: O_RDONLY | O_CLOEXEC, mode: 0, relativeTo: AT_FDCWD) else {
            Issue.record("cannot open /dev/zero")
            return
        }
        defer { system.close(zero) }
        // /dev/zero never ends: the limit ends the read.
        #expect(try system.readAll(zero, limit: 100_000).get().count == 100_001)
    }

    @Test func readAllWaitsOutEAGAINAndShortReads() {
        let system = LiveSystemCalls()
        let (readEnd, writeEnd) = Self.pipe()
        defer { system.close(readEnd) }
        let bytes = Array("profile text\n".utf8)
        #expect(bytes.withUnsafeBytes { system.writeAll(writeEnd, from: $0) } == nil)
        system.close(writeEnd)
        #expect(SlowReadingSystemCalls(most: 2).readAll(readEnd, limit: 1000) == .success(bytes))
    }

    /// A read blocked on an empty pipe is interrupted by signals whose handler does not ask for
    /// restarting (no SA_RESTART): read(2) then fails with EINTR, which the seam retries, so the
    /// read still returns the data written after the signals.
    @Test func aSignalDuringABlockedReadIsRetried() async throws {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in interruptions.add(1, ordering: .relaxed) }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        var previous = sigaction()
        #expect(sigaction(SIGUSR1, &action, &previous) == 0)
        defer { sigaction(SIGUSR1, &previous, nil) }

        let system = LiveSystemCalls()
        let (readEnd, writeEnd) = Self.pipe()
        let readerThread = Mutex<pthread_t?>(nil)
        let result = Mutex<Result<[UInt8], Errno>?>(nil)
        let thread = Thread {
            // Whatever the thread inherited, SIGUSR1 reaches it.
            var usr1 = sigset_t()
            sigemptyset(&usr1)
            sigaddset(&usr1, SIGUSR1)
            pthread_sigmask(SIG_UNBLOCK, &usr1, nil)
            readerThread.withLock { $0 = pthread_self() }
            let read = system.readAll(readEnd, limit: 100)
            result.withLock { $0 = read }
        }
        thread.start()
        // Hang bounds only: each wait below ends on its event.
        let deadline = ContinuousClock.now + .seconds(10)
        while readerThread.withLock({ $0 }) == nil, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(1)) }
        let reader = try #require(readerThread.withLock { $0 })
        // Signals while the reader waits in read(2); each one that lands there is an EINTR.
        let before = interruptions.load(ordering: .relaxed)
        while interruptions.load(ordering: .relaxed) < before + 5, ContinuousClock.now < deadline {
            pthread_kill(reader, SIGUSR1)
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(interruptions.load(ordering: .relaxed) >= before + 5)
        #expect(result.withLock { $0 } == nil, "no data yet: the read is still waiting")
        #expect(Array("late".utf8).withUnsafeBytes { system.writeAll(writeEnd, from: $0) } == nil)
        system.close(writeEnd)
        let end = ContinuousClock.now + .seconds(10)
        while result.withLock({ $0 }) == nil, ContinuousClock.now < end { try await Task.sleep(for: .milliseconds(1)) }
        #expect(result.withLock { $0 } == .success(Array("late".utf8)))
        if result.withLock({ $0 }) != nil { system.close(readEnd) }
    }
}
