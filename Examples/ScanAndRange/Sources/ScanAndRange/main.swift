// SPDX-License-Identifier: GPL-2.0-or-later
// Scans for SECONDS (default: until Ctrl-C or SIGTERM) and prints each ranging update, as a phone
// ranges beacons; a stop turns scanning off and exits 0:
//     swift run ScanAndRange virtual 5
import BeaconAdapters
import BeaconEmulator  // AdapterSpec, SharedAir and StopSignals, the safe stop on Ctrl-C
import BeaconScanner
import Foundation

/// One line on standard output, written at once (also into a pipe: a test waits for it).
func say(_ line: String) { FileHandle.standardOutput.write(Data("\(line)\n".utf8)) }

let arguments = CommandLine.arguments.dropFirst()
let adapter = arguments.first ?? "virtual"
let seconds = arguments.dropFirst().first.flatMap(Int.init)
do {
    let air = SharedAir.fromEnvironment(ProcessInfo.processInfo.environment)
    let connection = try AdapterConnection.open(AdapterSpec(parsing: adapter), air: air)
    defer { connection.close() }
    let session = try ScanSession(hci: connection.requireHCI(for: "scan"), owned: connection.mayReset)
    // Ctrl-C or SIGTERM cancels the scan, which turns scanning off before it returns.
    let failure = await StopSignals.value(of: { () async -> ScanSession.Failure? in
        do throws(ScanSession.Failure) {
            try await session.run(duration: seconds.map { .seconds($0) }) { update in
                if case .started = update { say("scanning on \(adapter); Ctrl-C stops") }
                guard case .ranging(let beacons, _) = update else { return }
                for beacon in beacons {
                    let metres = beacon.accuracy.map { String(format: "%.1f m", $0) } ?? "? m"
                    say("\(beacon.identity)  rssi \(beacon.rssi.map { String(Int($0)) } ?? "-")  \(metres)  \(beacon.proximity)")
                }
            }
            return nil
        } catch { return error }
    })
    if let failure { throw failure }
    say("stopped: scanning off")
} catch {
    FileHandle.standardError.write(Data("ScanAndRange: \(error)\n".utf8))
    exit(1)
}
