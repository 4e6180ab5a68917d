// SPDX-License-Identifier: GPL-2.0-or-later
import HCI
import BeaconAdapters
import HCITransport

/// Which family of scan commands drives the controller.
public enum ScanMode: String, Hashable, Sendable {
    /// LE Set Scan Parameters / Enable (§7.8.10, §7.8.11); LE Advertising Reports.
    case legacy
    /// LE Set Extended Scan Parameters / Enable (§7.8.64, §7.8.65); LE Extended Advertising Reports.
    case extended
}

/// How to scan.
public struct ScanSettings: Hashable, Sendable {
    /// Which command family to use; `nil` picks extended scanning when the controller has LE
    /// feature bit 12 (LE Extended Advertising), legacy otherwise.
    public var mode: ScanMode?
    /// Scan interval and window in units of 0.625 ms. Equal values scan all the time, which
    /// ranging wants: every advertising event heard is an RSSI sample.
    public var interval: UInt16
    public var window: UInt16

    public init(mode: ScanMode? = nil, interval: UInt16 = 0x0030, window: UInt16 = 0x0030) {
        self.mode = mode
        self.interval = interval
        self.window = window
    }
}

/// Turns passive scanning on and off on one controller.
///
/// Passive: a phone ranging beacons sends nothing, and iBeacons are non-connectable and not
/// scannable anyway. Duplicate filtering is off, because every report is an RSSI sample.
public struct ScanController: Sendable {
    public let hci: HCIController
    public let mode: ScanMode

    /// The event masks a scanner needs: Set Event Mask's defaults plus LE Meta (bit 61, which the
    /// reset default lacks), and LE Set Event Mask's defaults plus the extended report (bit 12).
    public static let eventMask = HCIEventMask.default.union(.leMeta)
    public static let leEventMask = LEEventMask.default.union([.advertisingReport, .extendedAdvertisingReport])

    /// Starts scanning on `hci`.
    ///
    /// With `owned` (user channel, TCP, UART, virtual: nobody else uses the controller), it first
    /// resets the controller: a controller that has seen a legacy advertising or scanning command
    /// refuses the extended ones until the next reset (Core Vol 4 Part E §3.1.1), and the event
    /// masks are set to deliver the reports. On a shared kernel adapter neither happens (the
    /// kernel owns the masks); there, a refused extended command falls back to legacy scanning.
    public static func start(on hci: HCIController, owned: Bool, settings: ScanSettings = ScanSettings()) async throws(HCIControllerError) -> ScanController {
        // The probe resets an owned controller and is the one place that tells `hci` what it is.
        let features = try await ControllerProbe.probe(hci, reset: owned).leFeatures
        if owned {
            try await hci.send(HCISetEventMask(eventMask))
            try await hci.send(LESetEventMask(leEventMask))
        }
        let mode = settings.mode ?? (features.contains(.leExtendedAdvertising) ? .extended : .legacy)
        do throws(HCIControllerError) {
            try await enable(mode, on: hci, settings: settings)
            return ScanController(hci: hci, mode: mode)
        } catch {
            let refused = error.status == .commandDisallowed || error.status == .unknownCommand
            guard !owned, settings.mode == nil, mode == .extended, refused else { throw error }
            try await enable(.legacy, on: hci, settings: settings)
            return ScanController(hci: hci, mode: .legacy)
        }
    }

    private static func enable(_ mode: ScanMode, on hci: HCIController, settings: ScanSettings) async throws(HCIControllerError) {
        switch mode {
        case .legacy:
            try await hci.send(LESetScanParameters(scanType: .passive, interval: settings.interval, window: settings.window))
            try await hci.send(LESetScanEnable(true, filterDuplicates: false))
        case .extended:
            let phy = LESetExtendedScanParameters.PHYParameters(scanType: .passive, interval: settings.interval, window: settings.window)
            try await hci.send(LESetExtendedScanParameters(le1M: phy))
            try await hci.send(LESetExtendedScanEnable(true, filterDuplicates: 0))
        }
    }

    /// Turns scanning off with the command family that turned it on.
    public func stop() async throws(HCIControllerError) {
        switch mode {
        case .legacy: try await hci.send(LESetScanEnable(false))
        case .extended: try await hci.send(LESetExtendedScanEnable(false))
        }
    }
}
