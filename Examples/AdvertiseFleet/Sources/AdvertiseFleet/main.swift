// SPDX-License-Identifier: GPL-2.0-or-later
// Advertises the beacons of a profile on one adapter until Ctrl-C or SIGTERM, then takes them
// off the air and exits 0 (1 if something may still be on air):
//
//     swift run AdvertiseFleet virtual ../../profiles/example.yaml
//     sudo .build/debug/AdvertiseFleet hci0 ../../profiles/example.yaml
import BeaconAdapters
import BeaconEmulator
import BeaconProfiles
import Foundation
import HCITransport
import VirtualController

/// One line on standard output, written at once (also into a pipe: a test waits for it).
func say(_ line: String) { FileHandle.standardOutput.write(Data("\(line)\n".utf8)) }

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("AdvertiseFleet: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2, let adapter = arguments.first, let profile = arguments.last else {
    fail("usage: AdvertiseFleet ADAPTER PROFILE (ADAPTER: virtual, hci0, tcp:HOST:PORT, …)")
}
// Handled from here on: a Ctrl-C during the start still ends in a clean stop.
let signals = StopSignals()

let fleet: BeaconFleet
do { fleet = try ProfileLoader.load(contentsOf: profile) } catch { fail("\(error)") }

// One adapter, opened as `beacon advertise -i ADAPTER` opens it; `virtual` joins the shared
// virtual air ($BEACON_AIR), where `beacon scan -i virtual` hears it.
let connection: AdapterConnection
do {
    let specs = try AdapterConnection.expand(AdapterSpec.list(adapter))
    guard specs.count == 1 else { fail("\(adapter): name one adapter") }
    let air = SharedAir.fromEnvironment(ProcessInfo.processInfo.environment)
    connection = try AdapterConnection.openForAdvertising(specs[0], air: air)
} catch {
    fail("\(error)")
}

let running = RunningFleet(connections: [connection])
signals.onStop { _ in running.requestStop() }
do {
    try await running.start(fleet.beacons)
} catch {
    connection.close()
    fail("\(error)")
}
if signals.received == nil {
    say("on air: \(fleet.beacons.map(\.name).joined(separator: ", ")) on \(connection.adapterName); Ctrl-C stops")
}

let outcome = await running.outcome()
connection.close()
if let failure = outcome.failure { say("failed: \(failure)") }
for left in outcome.leftOnAir {
    say("\(left.adapter): may still be on air: \(left.beacons.joined(separator: ", ")) (\(left.reason))")
}
guard outcome.isClean else { exit(1) }
say("stopped: nothing left on air")
