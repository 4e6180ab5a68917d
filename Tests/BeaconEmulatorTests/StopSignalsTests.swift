// SPDX-License-Identifier: GPL-2.0-or-later
import Synchronization
import Testing
import BeaconEmulator
#if canImport(Glibc)
import Glibc
#endif

/// StopSignals with real signals. SIGUSR1 and SIGUSR2 stand in for SIGINT: nothing else in the
/// test process uses them, so sending them to the process disturbs no other test.
@Suite(.serialized) struct StopSignalsTests {
    /// Waits until `condition` holds, for 10 s at most (a hang bound: a signal that never arrives
    /// fails the test instead of hanging it).
    func eventually(_ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return condition()
    }

    @Test func aSignalSentToTheProcessReachesTheHelper() async {
        let signals = StopSignals([SIGUSR1])
        defer { signals.cancel() }
        kill(getpid(), SIGUSR1)
        #expect(await eventually { signals.received == SIGUSR1 })
    }

    @Test func aSecondHelperAfterTheFirstWasCancelledStillGetsTheSignal() async {
        // Dispatch installs its signal handler once per process; a later helper must put it back.
        for round in 1...2 {
            let signals = StopSignals([SIGUSR2])
            kill(getpid(), SIGUSR2)
            #expect(await eventually { signals.received == SIGUSR2 }, "round \(round)")
            signals.cancel()
        }
    }

    @Test func aHangupHandlerIsCalledForEachSIGHUPWithoutStopping() async {
        let hangups = Atomic<Int>(0)
        let signals = StopSignals([SIGUSR1], hangup: { hangups.add(1, ordering: .relaxed) })
        defer { signals.cancel() }
        for count in 1...2 {
            kill(getpid(), SIGHUP)
            #expect(await eventually { hangups.load(ordering: .relaxed) == count })
        }
        #expect(signals.received == nil, "a hangup is no stop")
    }
}
