// SPDX-License-Identifier: GPL-2.0-or-later
// Scans for SECONDS (default 5) and prints each ranging update, as a phone ranges beacons:
//     swift run ScanAndRange virtual 5
import BeaconAdapters
import BeaconScanner
import Foundation
import HCITransport
import VirtualController

let arguments = CommandLine.arguments.dropFirst()
let adapter = arguments.first ?? "virtual"
let seconds = arguments.dropFirst().first.flatMap(Int.init) ?? 5
do {
    let air = SharedAir.fromEnvironment(ProcessInfo.processInfo.environment)
    let connection = try AdapterConnection.open(AdapterSpec(parsing: adapter), air: air)
    defer { connection.close() }
    let session = try ScanSession(hci: connection.requireHCI(for: "scan"), owned: connection.mayReset)
    try await session.run(duration: .seconds(seconds)) { update in
        guard case .ranging(let beacons, _) = update else { return }
        for beacon in beacons {
            let metres = beacon.accuracy.map { String(format: "%.1f m", $0) } ?? "? m"
            print("\(beacon.identity)  rssi \(beacon.rssi.map { String(Int($0)) } ?? "-")  \(metres)  \(beacon.proximity)")
        }
    }
} catch {
    FileHandle.standardError.write(Data("ScanAndRange: \(error)\n".utf8))
    exit(1)
}
