// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import ArgumentParser
import BeaconEmulator
import BeaconPositioning
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
                    receiver: AirPoint? = nil, followsWalker: Bool = false, channel: AirChannel = .clean,
                    output: LocateOutput) async throws -> (samples: Int, fixes: Int) {
        let connection = try AdapterChoice.openAll(controller, inputs: inputs, receiver: receiver, channel: channel).get()[0]
        connection.airLink?.followsWalker = followsWalker
        let hci = try AdapterChoice.hci(connection, for: "scan")
        defer { connection.close() }  // the HCI session, and the air link's socket
        let session = try ScanSession(hci: hci, owned: connection.mayReset, phone: phone)
        let perReport = phone.profile == .raw
        let state = Mutex((locator: locator, samples: 0, fixes: 0))
        let start = ContinuousClock.now
        var stamped = output
        stamped.wallClockStart = Date().timeIntervalSince1970
        let output = stamped
        @Sendable func feed(_ samples: [RSSISample]) {
            let fixes = state.withLock { s in
                s.samples += samples.count
                return samples.flatMap { sample -> [PositionFix] in
                    let fixes = s.locator.add(sample)
                    s.fixes += fixes.count
                    return fixes
                }
            }
            for fix in fixes { output.print(fix, truth: nil) }
        }
        let failure = await StopSignals.value(of: { () async -> ScanSession.Failure? in
            do throws(ScanSession.Failure) {
                try await session.run(duration: duration) { update in
                    switch update {
                    case .started(let mode):
                        LineOutput.err("locating on \(connection.spec) (\(mode.rawValue) scanning); Ctrl-C stops")
                    case .report(let sighting) where perReport:
                        guard let rssi = sighting.rssi, let key = sighting.identity else { return }
                        let elapsed = (sighting.time - start) / .milliseconds(1) / 1000
                        feed([RSSISample(time: elapsed, key: key, rssi: Double(rssi), measuredPower: sighting.beacon.powerAt1m)])
                    case .ranging(let beacons, let time) where !perReport:
                        let elapsed = (time - start) / .milliseconds(1) / 1000
                        feed(beacons.compactMap { b in
                            b.rssi.map { RSSISample(time: elapsed, key: b.identity, rssi: $0, measuredPower: b.measuredPower) }
                        })
                    default:
                        return
                    }
                }
                return nil
            } catch {
                return error
            }
        }, onStop: SignalNotice.stopping)
        if let failure { throw CommandFailure.exit(failure.description) }
        let last = state.withLock { s in
            let fix = s.locator.finish()
            if fix != nil { s.fixes += 1 }
            return fix
        }
        if let last { output.print(last, truth: nil) }
        return state.withLock { ($0.samples, $0.fixes) }
    }
}
