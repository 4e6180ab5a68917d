// SPDX-License-Identifier: GPL-2.0-or-later
import Mgmt

/// What the kernel's management API says about an adapter (Read Management Version Information,
/// Read Advertising Features), for the plan and `doctor`.
public struct ManagementAPIInfo: Hashable, Sendable {
    /// `1.22`.
    public var version: String
    /// Whether Add Extended Advertising Parameters/Data exist (management 1.19, kernel 5.10).
    /// Without them beacon falls back to Add Advertising, which has no interval: the kernel
    /// advertises at its default of 1.28 s.
    public var extendedCommands: Bool
    /// Max_Instances: the kernel's instances for this adapter, every program's together.
    public var maxInstances: Int
    /// Instances other programs hold now (bluetoothd, btmgmt, …): beacon never touches them.
    public var takenInstances: [UInt8]
    public var supportedFlags: MgmtAdvertisingFlags
    /// How many of the free instances the controller can hold at once, measured before a run
    /// (``ControllerProbe/measureUsableInstances(_:_:)``); nil when not measured.
    public var usableInstances: Int?

    public init(version: String, extendedCommands: Bool, maxInstances: Int, takenInstances: [UInt8], supportedFlags: MgmtAdvertisingFlags) {
        self.version = version
        self.extendedCommands = extendedCommands
        self.maxInstances = maxInstances
        self.takenInstances = takenInstances
        self.supportedFlags = supportedFlags
    }

    /// The instance numbers beacon may use: 1…Max_Instances less the ones taken, lowest first
    /// ("The Instance identifier is a value between 1 and the number of supported instances").
    public var freeInstances: [UInt8] {
        guard maxInstances > 0 else { return [] }
        return (1...UInt8(clamping: maxInstances)).filter { !takenInstances.contains($0) }
    }

    /// Whether the controller runs the instances itself, all at once (extended advertising: the
    /// kernel then lists the hw-offload flag). Without it the kernel rotates its instances in
    /// software, each on air for 2 s in turn: too slow for the 1-second rule, so beacon uses one
    /// instance and rotates the beacons on it itself.
    public var controllerRunsInstances: Bool { supportedFlags.contains(.hardwareOffload) }

    /// The instances beacon plans on: the free ones, at most one when the kernel would rotate
    /// them itself, at most as many as the controller was measured to hold.
    public var plannedInstances: Int {
        var n = freeInstances.count
        if !controllerRunsInstances { n = min(n, 1) }
        if let usableInstances { n = min(n, usableInstances) }
        return n
    }

    /// The kernel's interval for Add Advertising, which has no interval field
    /// (DISCOV_LE_FAST_ADV_INT_MIN/MAX 0x0800 × 0.625 ms).
    public static let addAdvertisingInterval: Duration = .milliseconds(1280)
}
