// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconSystem
@testable import LiveView
import Synchronization
import Testing

/// What goes to the terminal: frames that overwrite in place without scrolling, colour only when
/// asked, and the mode chosen from the terminal and the environment.
struct TerminalFrameTests {
    @Test func aFrameGoesHomeErasesEachLineAndNeverEndsWithANewline() {
        let frame = TerminalFrame.text([LiveLine("title", role: .title), LiveLine("summary", role: .summary)], colour: false)
        #expect(frame == "\u{1B}[Htitle\u{1B}[K\r\nsummary\u{1B}[K\u{1B}[J")
    }

    @Test func colourWrapsTheTextOnly() {
        let frame = TerminalFrame.text([LiveLine("bad", role: .row(.problem)), LiveLine("ok", role: .row(.idle))], colour: true)
        #expect(frame == "\u{1B}[H\u{1B}[31mbad\u{1B}[0m\u{1B}[K\r\nok\u{1B}[K\u{1B}[J")
    }

    @Test func modeFromTerminalAndEnvironment() {
        #expect(LiveViewMode.decide(outputIsTerminal: false, environment: ["TERM": "xterm"]) == .plain)
        #expect(LiveViewMode.decide(outputIsTerminal: true, environment: ["TERM": "dumb"]) == .plain)
        #expect(LiveViewMode.decide(outputIsTerminal: true, environment: [:]) == .plain)
        #expect(LiveViewMode.decide(outputIsTerminal: true, environment: ["TERM": "xterm-256color"]) == .live(colour: true))
        #expect(LiveViewMode.decide(outputIsTerminal: true, environment: ["TERM": "tmux", "NO_COLOR": "1"]) == .live(colour: false))
        // no-color.org: an empty NO_COLOR does not count.
        #expect(LiveViewMode.decide(outputIsTerminal: true, environment: ["TERM": "tmux", "NO_COLOR": ""]) == .live(colour: true))
    }

    /// A terminal of a given size, for the terminal layer.
    struct FixedTerminal: SystemCalls {
        var size: TerminalSize?
        func isTerminal(_ fd: Int32) -> Bool { true }
        func terminalSize(of fd: Int32) -> TerminalSize? { size }
    }

    final class Written: @unchecked Sendable {
        var text = ""
    }

    @Test func theTerminalLayerDrawsAtItsSizeOnTheAlternateScreen() {
        let written = Written()
        let terminal = LiveTerminal(fd: 99, colour: false, calls: FixedTerminal(size: TerminalSize(columns: 12, rows: 3))) { written.text += $0 }
        let screen = LiveScreen(title: "a long title here", columns: [LiveColumn("N")],
                                rows: (0..<5).map { LiveRow(["\($0)"], status: .idle) }, summary: "5 rows")
        terminal.show(screen)
        #expect(written.text.isEmpty, "nothing is drawn before start()")
        terminal.start()
        terminal.show(screen)
        terminal.finish()
        terminal.show(screen)
        #expect(written.text == TerminalFrame.enter
            + TerminalFrame.text([LiveLine("a long titl…", role: .title), LiveLine("… and 5 mor…", role: .more), LiveLine("5 rows", role: .summary)], colour: false)
            + TerminalFrame.leave)
    }

    @Test func aTerminalThatHidesItsSizeIsTakenAs80x24() {
        let terminal = LiveTerminal(fd: 99, colour: false, calls: FixedTerminal(size: nil)) { _ in }
        #expect(terminal.size == TerminalSize(columns: 80, rows: 24))
    }

    /// A terminal whose size the test changes.
    final class ResizableTerminal: SystemCalls {
        let current = Mutex(TerminalSize(columns: 40, rows: 5))
        func isTerminal(_ fd: Int32) -> Bool { true }
        func terminalSize(of fd: Int32) -> TerminalSize? { current.withLock { $0 } }
    }

    @Test func aResizeRedrawsTheLastScreenAtTheNewSizeOnACleanScreen() {
        let written = Written()
        let calls = ResizableTerminal()
        let terminal = LiveTerminal(fd: 99, colour: false, calls: calls) { written.text += $0 }
        let screen = LiveScreen(title: "title", columns: [LiveColumn("N")], rows: (0..<10).map { LiveRow(["\($0)"], status: .idle) }, summary: "10 rows")
        terminal.start()
        terminal.show(screen)
        written.text = ""
        calls.current.withLock { $0 = TerminalSize(columns: 20, rows: 4) }
        terminal.resized()
        #expect(terminal.size == TerminalSize(columns: 20, rows: 4))
        #expect(written.text == TerminalFrame.clear + TerminalFrame.text(screen.lines(width: 20, height: 4), colour: false))
        // Only the first frame after the resize clears.
        written.text = ""
        terminal.show(screen)
        #expect(written.text == TerminalFrame.text(screen.lines(width: 20, height: 4), colour: false))
        terminal.finish()
    }
}
