// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import BeaconAdapters
import BeaconJSON
import HCI
import HCITransport

/// `beacon stop`: advertising off and every advertising set removed, including what a killed
/// run left behind.
struct StopCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stop",
        abstract: "Turn advertising off and remove every advertising set.",
        discussion: """
            For what a killed run (kill -9, a crash) left on air. The controller is probed \
            without a reset; with extended advertising (LE feature bit 12) beacon sends LE Set \
            Extended Advertising Enable (disable all) and LE Clear Advertising Sets. A \
            controller that refuses those with Command Disallowed (0x0C) was driven with the \
            legacy commands since its last reset; it, and any controller without extended \
            advertising, gets LE Set Advertising Enable (off). --reset sends HCI Reset instead, \
            which clears everything (on hci0, the kernel and bluetoothd see their controller \
            reset too).

            On a kernel adapter named plainly (-i hci0) stop follows advertise: with bluetoothd \
            running that is the management API, where stop removes nothing (a run removes its own \
            instances when it ends; bluetoothd's and other programs' advertising stays). -i \
            raw:hci0 clears the whole controller, bluetoothd's advertising included.

            -i virtual: every process has its own virtual controller, made when it starts and \
            gone when it ends. stop sends its commands to its own, new one (a way to see them) \
            and cannot reach another process's virtual advertiser: the shared air carries only \
            advertising events. End that process (Ctrl-C, or kill it) and its beacons leave the \
            air; stop says so after what it did (with --json, in "note").

            --json prints one object per adapter: {"adapter", "ok", "done": [what was done]} \
            (and "error" when it failed).

            Examples:
              beacon stop -i virtual
              beacon stop -i hci0 --json
            """
    )

    @OptionGroup var controller: ControllerOptions

    @Flag(help: "Send HCI Reset instead of the advertising commands.")
    var reset = false

    @Flag(help: "One JSON object per adapter.")
    var json = false

    /// One adapter's outcome: a JSON line with --json, text lines otherwise. `note`: what the
    /// done list does not mean (on `-i virtual`, ``virtualNote``).
    func report(_ adapter: String, done: [String], error: String?, note: String? = nil) {
        if json {
            var members: [(String, JSONValue)] = [("adapter", .string(adapter)), ("ok", .bool(error == nil)),
                                                  ("done", .array(done.map { .string($0) }))]
            if let error { members.append(("error", .string(error))) }
            if let note { members.append(("note", .string(note))) }
            LineOutput.out(JSONValue.object(members).text)
            return
        }
        for line in done { LineOutput.out("\(adapter): \(line)") }
        if let note { LineOutput.out("\(adapter): note: \(note)") }
        if let error { LineOutput.err("error: \(error)") }
    }

    /// What stop can (not) do on `-i virtual`, whose controller lives in this process only.
    static let virtualNote = "that was this process's own virtual controller, new and empty: a virtual advertiser in another process cannot be reached from here (the shared air carries only advertising events) and stays on the air until that process ends (Ctrl-C or kill it)"

    mutating func run() async throws {
        // hci0 follows advertise's choice: with bluetoothd running, the management API, where
        // LE Clear Advertising Sets would also take bluetoothd's and other programs' advertising.
        let connections = try AdapterChoice.openAll(controller, advertising: !reset).get()
        var tally = ExitTally()
        for connection in connections {
            let hci: HCIController
            switch connection.session {
            case .management(let mgmt):
                report(mgmt.adapterName, done: await AdvertisingCleanup.stopAdvertising(management: mgmt, chosen: connection.backendReason != nil).map(CommandLineTerms.text), error: nil)
                connection.close()
                continue
            case .hci(let session):
                hci = session
            }
            let note: String?
            if case .virtual = connection.spec { note = Self.virtualNote } else { note = nil }
            do throws(HCIControllerError) {
                report(hci.adapterName, done: try await AdvertisingCleanup.stopAdvertising(hci, reset: reset), error: nil, note: note)
            } catch {
                report(hci.adapterName, done: [], error: CommandLineTerms.text(describing: error), note: note)
                tally.record(ExitStatus.runtimeFailure)
            }
            connection.close()
        }
        try tally.finish()
    }
}
