// SPDX-License-Identifier: GPL-2.0-or-later
#if canImport(Glibc)
import Glibc
#endif

/// The live signal-handling and pipe calls, as defaults (the self-pipe of a signal router).
extension SystemCalls {
    public func handleSignal(_ number: Int32, with handler: @convention(c) (Int32) -> Void) -> Result<Void, Errno> {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        return sigaction(number, &action, nil) == 0 ? .success(()) : .failure(.current)
    }

    public func unblockSignals(_ numbers: [Int32]) {
        var mask = sigset_t()
        sigemptyset(&mask)
        for number in numbers { sigaddset(&mask, number) }
        pthread_sigmask(SIG_UNBLOCK, &mask, nil)
    }

    public func makeNonBlockingPipe() -> Result<(read: Int32, write: Int32), Errno> {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return .failure(.current) }
        for fd in ends {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        return .success((ends[0], ends[1]))
    }
}

/// The calls a signal handler may make. A handler has the C calling convention and runs on
/// whatever thread the kernel interrupted, so it cannot call through a ``SystemCalls`` value;
/// what it does call must be async-signal-safe: no allocation, no locks, `errno` left as it was.
public enum SignalSafe {
    /// Writes `byte` to `fd` (`write(2)`, async-signal-safe), once: a full non-blocking pipe
    /// drops it. `errno` is restored, so the interrupted code never sees the handler's.
    public static func write(_ fd: Int32, _ byte: UInt8) {
        let saved = errno
        var byte = byte
        _ = Glibc.write(fd, &byte, 1)
        errno = saved
    }
}
