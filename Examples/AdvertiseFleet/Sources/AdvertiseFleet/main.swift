// SPDX-License-Identifier: GPL-2.0-or-later
// Advertises the beacons of a profile on one adapter until Ctrl-C or SIGTERM, then takes them
// off the air and exits 0 (1 if something may still be on air):
//
//     swift run AdvertiseFleet virtual ../../profiles/example.yaml
//     sudo .build/debug/AdvertiseFleet hci0 ../../profiles/example.yaml
import BeaconEmulator
import BeaconProfiles
import Foundation

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
do throws(ProfileErrors) { fleet = try ProfileLoader.load(contentsOf: profile) } catch { fail("\(error)") }
let adapters: [AdapterSpec]
do { adapters = try AdapterSpec.list(adapter) } catch { fail("\(error)") }

// Opened as `beacon advertise -i ADAPTER` opens it; `virtual` joins the shared virtual air
// ($BEACON_AIR), where `beacon scan -i virtual` hears it.
let air = SharedAir.fromEnvironment(ProcessInfo.processInfo.environment)
let run = FleetRun(beacons: fleet.beacons, on: adapters, opening: AdapterOpening(air: air, advertising: true))
run.stop(on: signals)
do throws(FleetRunError) {
    if try await run.start() != nil {
        say("on air: \(fleet.beacons.map(\.name).joined(separator: ", ")) on \(adapter); Ctrl-C stops")
    }
} catch {
    fail("\(error)")
}

let outcome = await run.run(for: nil)  // until Ctrl-C or SIGTERM; then off the air and closed
// Not clean: the outcome says what failed and, per adapter, what may still be on air.
guard outcome.isClean else { fail("\(outcome)") }
say("stopped: nothing left on air")
