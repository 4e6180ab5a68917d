// SPDX-License-Identifier: GPL-2.0-or-later
import TextLayout
import BeaconCodec
import Foundation

/// A progress line on standard error for work that takes more than a second (`decode --capture`
/// of a large file): `reading big.btsnoop: 45% (75.1 of 165.0 MB)`, rewritten in place at most
/// five times a second and erased at the end. Only when standard error is a terminal (not
/// `TERM=dumb`) and not hidden by -q; never on a pipe or in a log file.
final class ProgressLine {
    let label: String
    let total: Int
    let enabled: Bool
    private let start = ContinuousClock.now
    private var lastDrawn: ContinuousClock.Instant?
    private var stopped = false

    init(label: String, total: Int) {
        self.label = label
        self.total = total
        let term = ProcessInfo.processInfo.environment["TERM"] ?? ""
        enabled = LineOutput.standardErrorIsTerminal && !term.isEmpty && term != "dumb" && Log.settings.showsProgress && total > 0
    }

    /// The line for `done` bytes of `total`.
    static func text(label: String, done: Int, total: Int) -> String {
        let percent = total > 0 ? min(100, done * 100 / total) : 0
        let mb = { (bytes: Int) in NumberText.fixed(Double(bytes) / 1_000_000, places: 1) }
        return "\(label): \(percent)% (\(mb(done)) of \(mb(total)) MB)"
    }

    /// Shows `done` once a second has passed since the start, then at most every 200 ms.
    func update(_ done: Int) {
        guard enabled, !stopped else { return }
        let now = ContinuousClock.now
        guard now - start >= .seconds(1) else { return }
        if let lastDrawn, now - lastDrawn < .milliseconds(200) { return }
        lastDrawn = now
        LineOutput.rawErr("\r\u{1B}[K" + Self.text(label: label, done: done, total: total))
    }

    /// Erases the line (if it was shown) and shows no more: the work ended, or standard output
    /// (the same terminal) is about to print.
    func stop() {
        guard !stopped else { return }
        stopped = true
        if lastDrawn != nil { LineOutput.rawErr("\r\u{1B}[K") }
    }
}
