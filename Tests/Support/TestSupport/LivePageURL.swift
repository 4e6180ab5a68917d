// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation

extension BackgroundProgram {
    /// The URL a run started with `--web` prints on standard error (`live page: URL`), or nil
    /// when it exits or says none within `timeout` (a hang bound only).
    public func livePageURL(timeout: Duration = .seconds(60)) async -> String? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline, process.isRunning {
            let url = stderr.components(separatedBy: "live page: ").dropFirst().first?.prefix { !$0.isWhitespace }.description
            if let url, !url.isEmpty { return url }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }
}
