// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import ArgumentParser
import BeaconEmulator
import BeaconPositioning
import BeaconScenarios
import BeaconScanner
import Foundation
import Synchronization
import VirtualController
import BeaconRadio

/// `beacon locate --live`: scans with BeaconScanner's ``ScanSession`` and feeds every iBeacon
/// report into a ``WindowedLocator``, printing each fix as its window closes. Stops after the
/// duration or on SIGINT/SIGTERM, like `beacon scan`.
enum LocateLive {
    /// `inputs`: the files the command read, which `--btsnoop` must not overwrite.
    /// `phone`: raw feeds every report; ios and android feed each ranging update's smoothed
    /// RSSI (what an app on that phone gets).
    static func run(_ controller: ControllerOptions, inputs: [String], locator: WindowedLocator, phone: PhoneScanning, duration: Duration?,
                    receiver: Point? = nil, followsWalker: Bool = false, channel: AirChannel = .clean,
                    output: LocateOutput) async throws -> (samples: Int, fixes: Int) {
        let connection = try AdapterChoice.openAll(controller, inputs: inputs, receiver: receiver, channel: channel).get()[0]
        connection.airLink?.followsWalker = followsWalker
        let hci = try AdapterChoice.hci(connection, for: "scan")
        defer { connection.close() }  // the HCI session, and the air link's socket
        let session = try ScanSession(hci: hci, owned: connection.mayReset, phone: phone)
        let location = LiveLocation(locator: locator, phone: phone)
        var stamped = output
        stamped.wallClockStart = Date().timeIntervalSince1970
        let output = stamped
        let failure = await StopSignals.value(of: { () async -> ScanSession.Failure? in
            do throws(ScanSession.Failure) {
                try await session.run(duration: duration) { update in
                    if case .started(let mode) = update {
                        LineOutput.err("locating on \(connection.spec) (\(mode.rawValue) scanning); Ctrl-C stops")
                    }
                    for fix in location.fixes(after: update) { output.print(fix, truth: nil) }
                }
                return nil
            } catch {
                return error
            }
        }, onStop: SignalNotice.stopping)
        if let failure { throw CommandFailure.exit("\(failure)") }
        if let last = location.finish() { output.print(last, truth: nil) }
        let counts = location.counts
        return (counts.samples, counts.fixes)
    }
}
