// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import BeaconAdapters
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

    /// One adapter's outcome: a JSON line with --json, text lines otherwise.
    func report(_ adapter: String, done: [String], error: String?) {
        if json {
            var members: [(String, JSONValue)] = [("adapter", .string(adapter)), ("ok", .bool(error == nil)),
                                                  ("done", .array(done.map { .string($0) }))]
            if let error { members.append(("error", .string(error))) }
            LineOutput.out(JSONValue.object(members).text)
            return
        }
        for line in done { LineOutput.out("\(adapter): \(line)") }
        if let error { LineOutput.err("error: \(error)") }
    }

    mutating func run() async throws {
        // hci0 follows advertise's choice: with bluetoothd running, the management API, where
        // LE Clear Advertising Sets would also take bluetoothd's and other programs' advertising.
        let connections = try AdapterChoice.openAll(controller, advertising: !reset).get()
        var tally = ExitTally()
        for connection in connections {
            if let mgmt = connection.management {
                report(mgmt.adapterName, done: await AdvertisingCleanup.stopAdvertising(management: mgmt, chosen: connection.backendReason != nil), error: nil)
                connection.close()
                continue
            }
            let hci = connection.hci!
            do throws(HCIControllerError) {
                report(hci.adapterName, done: try await AdvertisingCleanup.stopAdvertising(hci, reset: reset), error: nil)
            } catch {
                report(hci.adapterName, done: [], error: "\(error)")
                tally.record(ExitStatus.runtimeFailure)
            }
            connection.close()
        }
        try tally.finish()
    }
}
