// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import BeaconWeb

/// `--web [HOST:]PORT`: the live page in a browser, next to the terminal's view (see BeaconWeb).
struct WebOptions: ParsableArguments {
    @Option(name: .customLong("web"), help: ArgumentHelp(
        "Serve a live page (the map and the live table, updated as events happen) on [HOST:]PORT: 127.0.0.1 unless HOST is given; port 0 picks a free one. The URL is printed on standard error. Read-only; nothing fetched from outside.",
        valueName: "[host:]port"))
    var web: String?

    func validate() throws {
        guard let web else { return }
        do throws(LivePageError) { _ = try WebAddress(parsing: web) } catch { throw ValidationError("\(error)") }
    }

    /// Starts the page (nil without `--web`) and prints `live page: URL` on standard error.
    func start() async throws(ExitCode) -> LivePageServer? {
        guard let web else { return nil }
        do throws(LivePageError) {
            let server = try await LivePageServer.start(try WebAddress(parsing: web))
            LineOutput.err("live page: \(server.url)")
            return server
        } catch {
            throw CommandFailure.exit("\(error)")
        }
    }
}
