// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconSystem
import Dispatch
import Synchronization

/// The thin terminal layer under a ``LiveScreen``: draws it on the alternate screen at the
/// terminal's current size, and draws the last screen again at the new size on SIGWINCH.
///
/// Usage: ``start()`` once, ``show(_:)`` at every redraw (from any task or thread), ``finish()``
/// at the end, then print a plain summary: it lands on the normal screen, under what was there
/// before the run, and is the only copy in the scrollback. Text goes out through the `write`
/// closure given at creation (the CLI's one output layer), so it never interleaves with other
/// output.
public final class LiveTerminal: @unchecked Sendable {
    private struct State {
        var screen: LiveScreen?
        var size: TerminalSize
        var active = false
        /// The next frame clears the whole screen first: after a resize the terminal may have
        /// rewrapped what was there (tmux keeps such lines marked as wrapped until cleared).
        var clearFirst = false
    }

    public let colour: Bool
    private let fd: Int32
    private let calls: any SystemCalls
    private let write: @Sendable (String) -> Void
    private let state: Mutex<State>
    /// The SIGWINCH, SIGTSTP and SIGCONT sources; touched only by start() and finish().
    private var sources: [any DispatchSourceSignal] = []
    /// The signals those sources take over (their actions are restored by finish()).
    static let handledSignals = [SignalNumber.windowChanged, SignalNumber.terminalStop, SignalNumber.continue]

    /// What a terminal that does not tell its size is taken to be.
    public static let fallbackSize = TerminalSize(columns: 80, rows: 24)

    /// A live view on `fd` (standard output by default), writing with `write`.
    public init(fd: Int32 = StandardStream.output, colour: Bool, calls: any SystemCalls = LiveSystemCalls(), write: @escaping @Sendable (String) -> Void) {
        self.fd = fd
        self.colour = colour
        self.calls = calls
        self.write = write
        state = Mutex(State(size: calls.terminalSize(of: fd) ?? Self.fallbackSize))
    }

    /// Between ``start()`` and ``finish()``.
    public var isActive: Bool { state.withLock { $0.active } }

    /// The size the next frame is fitted to.
    public var size: TerminalSize { state.withLock { $0.size } }

    /// Switches to the alternate screen and starts following resizes.
    public func start() {
        state.withLock { s in
            guard !s.active else { return }
            s.active = true
            write(TerminalFrame.enter)
        }
        TerminalRestore.arm(fd: fd)
        let queue = DispatchQueue(label: "beacon.live-view.signals")
        let handlers: [(Int32, @Sendable () -> Void)] = [
            (SignalNumber.windowChanged, { [weak self] in self?.resized() }),
            // Ctrl-Z: give the shell its screen back before stopping; `fg`: the view again.
            (SignalNumber.terminalStop, { [weak self] in self?.suspend() }),
            (SignalNumber.continue, { [weak self] in self?.resume() }),
        ]
        for (number, handler) in handlers {
            calls.ignoreSignal(number)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler(handler: handler)
            source.resume()
            sources.append(source)
        }
    }

    /// Leaves the alternate screen and stops the process (SIGSTOP, which cannot be caught).
    func suspend() {
        let suspended = state.withLock { s -> Bool in
            guard s.active else { return false }
            write(TerminalFrame.leave)
            return true
        }
        if suspended { calls.signalThisProcess(SignalNumber.stop) }
    }

    /// Back from a stop: the alternate screen again, redrawn whole at the current size.
    func resume() {
        let size = calls.terminalSize(of: fd) ?? Self.fallbackSize
        state.withLock { s in
            guard s.active else { return }
            write(TerminalFrame.enter)
            s.size = size
            draw(&s)
        }
    }

    /// Draws `screen` now, fitted to the terminal (nothing once finished).
    public func show(_ screen: LiveScreen) {
        state.withLock { s in
            s.screen = screen
            draw(&s)
        }
    }

    /// Starts the view and draws `screen()` four times a second until the task is cancelled: the
    /// one redraw loop of every live view (a clock on screen moves even when nothing happens).
    public func redrawing(_ screen: @escaping @Sendable () -> LiveScreen) -> Task<Void, Never> {
        start()
        return Task { [self] in
            while !Task.isCancelled {
                show(screen())
                try? await Task.sleep(for: .milliseconds(250))
            }
        }
    }

    /// Reads the size again and draws the last screen at it (the SIGWINCH handler).
    func resized() {
        let size = calls.terminalSize(of: fd) ?? Self.fallbackSize
        state.withLock { s in
            s.size = size
            s.clearFirst = true
            draw(&s)
        }
    }

    /// Leaves the alternate screen (the terminal shows what it showed before the run).
    public func finish() {
        for source in sources { source.cancel() }
        sources = []
        for number in Self.handledSignals { calls.restoreDefaultAction(ofSignal: number) }
        state.withLock { s in
            guard s.active else { return }
            s.active = false
            write(TerminalFrame.leave)
        }
        TerminalRestore.disarm()
    }

    /// Under the lock, so frames never interleave.
    private func draw(_ s: inout State) {
        guard s.active, let screen = s.screen else { return }
        let frame = TerminalFrame.text(screen.lines(width: s.size.columns, height: s.size.rows), colour: colour)
        write(s.clearFirst ? TerminalFrame.clear + frame : frame)
        s.clearFirst = false
    }
}

/// Leaves the alternate screen if the process exits while a live view is on it (a second Ctrl-C
/// exits at once), so the shell is not left on a blank screen with no cursor.
enum TerminalRestore {
    private static let armedFD = Atomic<Int32>(-1)
    private static let registered = Atomic<Bool>(false)

    static func arm(fd: Int32) {
        armedFD.store(fd, ordering: .sequentiallyConsistent)
        if !registered.exchange(true, ordering: .sequentiallyConsistent) {
            LiveSystemCalls().atExit {
                let fd = TerminalRestore.armedFD.exchange(-1, ordering: .sequentiallyConsistent)
                guard fd >= 0 else { return }
                let bytes = Array(TerminalFrame.leave.utf8)
                _ = bytes.withUnsafeBytes { LiveSystemCalls().writeAll(fd, from: $0) }
            }
        }
    }

    static func disarm() { armedFD.store(-1, ordering: .sequentiallyConsistent) }
}
