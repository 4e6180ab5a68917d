// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import BeaconConsole
import BeaconEmulator
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

    /// Runs a fleet's session with the page (if `--web`) watching it: `run` gets the watcher to
    /// hand to ``FleetSession``; the server stops when the run ends, however it ends. `files`
    /// give the map its rooms.
    func serving(files: [String], _ run: (FleetSession.Watch?) async throws(ExitCode) -> Void) async throws(ExitCode) {
        let page = try await start()
        var watch: FleetSession.Watch?
        if let page { watch = { fleet, board in board.feed(page, fleet: fleet, files: files) } }
        do throws(ExitCode) { try await run(watch) } catch {
            await page?.stop()
            throw error
        }
        await page?.stop()
    }
}
