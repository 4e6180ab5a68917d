// SPDX-License-Identifier: GPL-2.0-or-later
#if canImport(Glibc)
import Glibc
#endif

/// The live clock and process calls, as defaults.
extension SystemCalls {
    public func monotonicTime() -> Duration { Self.time(of: CLOCK_MONOTONIC) }

    public func wallClockTime() -> Duration { Self.time(of: CLOCK_REALTIME) }

    private static func time(of clock: clockid_t) -> Duration {
        var now = timespec()
        clock_gettime(clock, &now)
        return .seconds(Int64(now.tv_sec)) + .nanoseconds(Int64(now.tv_nsec))
    }

    public func ignoreSignal(_ number: Int32) { _ = signal(number, SIG_IGN) }

    public func restoreDefaultAction(ofSignal number: Int32) { _ = signal(number, SIG_DFL) }

    public func signalThisProcess(_ number: Int32) { _ = kill(getpid(), number) }

    public func atExit(_ body: @convention(c) () -> Void) { _ = atexit(body) }

    public func flushStandardStreams() { fflush(nil) }

    public var processID: Int32 { getpid() }

    public var kernelRelease: String? {
        var names = utsname()
        guard uname(&names) == 0 else { return nil }
        return withUnsafeBytes(of: &names.release) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
    }

    public func sleep(for duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var wanted = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var left = timespec()
        while nanosleep(&wanted, &left) != 0 && errno == EINTR { wanted = left }
    }

    public func exit(_ status: Int32) -> Never { Glibc.exit(status) }
}

/// Signal numbers by what they mean, for callers that would otherwise import the C library for them.
public enum SignalNumber {
    /// SIGHUP: the terminal hung up (or a reload is asked for).
    public static let hangup: Int32 = SIGHUP
    /// SIGPIPE: a write to a pipe or socket nobody reads any more.
    public static let brokenPipe: Int32 = SIGPIPE
    /// SIGXFSZ: a write past the file size limit (`ulimit -f`).
    public static let fileSizeLimitExceeded: Int32 = SIGXFSZ
    /// SIGWINCH: the terminal's size changed.
    public static let windowChanged: Int32 = SIGWINCH
    /// SIGTSTP: Ctrl-Z, a stop the process may handle first.
    public static let terminalStop: Int32 = SIGTSTP
    /// SIGCONT: carry on after a stop (`fg`).
    public static let `continue`: Int32 = SIGCONT
    /// SIGSTOP: a stop that cannot be caught.
    public static let stop: Int32 = SIGSTOP
}
