// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import BeaconConsole
import BeaconCodec
import BeaconEmulator
import BeaconWeb

/// `--web [HOST:]PORT`: the live page in a browser, next to the terminal's view (see BeaconWeb).
struct WebOptions: ParsableArguments {
    @Option(name: .customLong("web"), help: ArgumentHelp(
        "Serve a live page (the map and the live table, updated as events happen) on [HOST:]PORT: 127.0.0.1 unless HOST is given; port 0 picks a free one. The URL is printed on standard error. Read-only; nothing fetched from outside.",
        valueName: "[host:]port"))
    var web: String?

    @Option(name: .customLong("web-host"), help: ArgumentHelp(
        "A further host name the page is reached by (this machine's DNS or mDNS name; repeat for more). The page answers only requests for the address it is served on (any IPv4 address of this machine for 0.0.0.0), localhost, and these names: another name is a DNS-rebinding attempt.",
        valueName: "name"))
    var webHosts: [String] = []

    func validate() throws {
        if web == nil, !webHosts.isEmpty { throw ValidationError("--web-host: names a host for --web, which is not given") }
        for name in webHosts where name.isEmpty || name.contains(where: { !($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }) || !name.allSatisfy(\.isASCII) {
            throw ValidationError("--web-host: '\(name.escapingControlCharacters)' is not a host name (letters, digits, '.' and '-')")
        }
        guard let web else { return }
        do throws(LivePageError) { _ = try WebAddress(parsing: web) } catch { throw ValidationError("--web: \(error)") }
    }

    /// Starts the page (nil without `--web`) and prints `live page: URL` on standard error.
    func start() async throws(ExitCode) -> LivePageServer? {
        guard let web else { return nil }
        do throws(LivePageError) {
            let server = try await LivePageServer.start(try WebAddress(parsing: web), names: webHosts) { problem in
                LineOutput.err("live page: \(problem)")
            }
            LineOutput.err("live page: \(server.url)")
            return server
        } catch {
            throw CommandFailure.exit("--web: \(error)")
        }
    }

    /// Runs a fleet's session with the page (if `--web`) watching it: `run` gets the watcher to
    /// hand to ``FleetSession``; the server stops when the run ends, however it ends. `files`
    /// give the map its rooms.
    func serving(files: [String], _ run: (FleetSession.Watch?) async throws(ExitCode) -> Void) async throws(ExitCode) {
        try await serving(watch: { page in { fleet, board in board.feed(page, fleet: fleet, files: files) } }, run)
    }

    /// As ``serving(files:_:)``, with the watcher `watch` makes for the page.
    func serving(watch: (LivePageServer) -> FleetSession.Watch, _ run: (FleetSession.Watch?) async throws(ExitCode) -> Void) async throws(ExitCode) {
        let page = try await start()
        do throws(ExitCode) { try await run(page.map(watch)) } catch {
            await page?.stop()
            throw error
        }
        await page?.stop()
    }

    /// Runs `run` with the page (if `--web`) showing `snapshot()` at each of `changes`; the
    /// server stops when the run ends, however it ends.
    func serving<T>(_ changes: LivePageChanges, _ snapshot: @escaping @Sendable () -> LivePageSnapshot, _ run: () async throws -> T) async throws -> T {
        guard let page = try await start() else { return try await run() }
        let feeding = page.follow(changes, snapshot)
        do {
            let value = try await run()
            feeding.cancel()
            await page.stop()
            return value
        } catch {
            feeding.cancel()
            await page.stop()
            throw error
        }
    }
}
