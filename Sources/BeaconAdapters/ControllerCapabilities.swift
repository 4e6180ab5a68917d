// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import HCI
import KnownControllers

/// What a controller can do for advertising, as probed (or assumed for `--dry-run`).
public struct ControllerCapabilities: Hashable, Sendable {
    /// The adapter probed (or assumed).
    public var adapter: AdapterName
    public var hciVersion: HCIVersion
    public var lmpVersion: HCIVersion?
    public var manufacturer: UInt16?
    /// LMP_Subversion of Read Local Version Information: with the maker, what names a model.
    public var lmpSubversion: UInt16?
    /// The catalogue's model the probe recognised from maker, version and LMP subversion
    /// (`ControllerModel/recognise(manufacturer:hciVersion:lmpSubversion:)`), if any: its
    /// known limits (a clone's 100 ms floor) are planned for.
    public var model: ControllerModel?
    public var address: BluetoothAddress?
    public var leFeatures: LEFeatures
    /// Advertising sets (LE Read Number of Supported Advertising Sets); 0 without extended advertising.
    public var advertisingSets: Int
    /// LE Read Maximum Advertising Data Length; 31 without extended advertising.
    public var maximumDataLength: Int
    /// LE Read Transmit Power (extended) or the fixed advertising channel power (legacy).
    public var txPowerRange: ClosedRange<Int8>?
    /// For a `mgmt:` adapter: what the kernel's management API said (then `advertisingSets` is
    /// the instances free for beacon, and the HCI fields are assumptions, see ``ManagementAPIInfo``).
    public var managementAPI: ManagementAPIInfo?
    /// Why this backend drives the adapter, when beacon chose it (`-i hci0`, see ``BackendChoice``).
    public var backendReason: TermedText?
    /// How long the controller took to answer one command at the probe, host included (the median
    /// of its read-outs' round trips); nil when not measured (assumed capabilities, the management
    /// API, whose commands the kernel answers). Rotation turns are planned with it.
    public var commandTime: Duration?

    public init(adapter: AdapterName, hciVersion: HCIVersion, lmpVersion: HCIVersion? = nil, manufacturer: UInt16? = nil,
                address: BluetoothAddress? = nil, leFeatures: LEFeatures, advertisingSets: Int, maximumDataLength: Int,
                txPowerRange: ClosedRange<Int8>? = nil) {
        self.adapter = adapter
        self.hciVersion = hciVersion
        self.lmpVersion = lmpVersion
        self.manufacturer = manufacturer
        self.address = address
        self.leFeatures = leFeatures
        self.advertisingSets = advertisingSets
        self.maximumDataLength = maximumDataLength
        self.txPowerRange = txPowerRange
    }

    /// Extended advertising, from LE feature bit 12 (not from the HCI version: many 5.x
    /// controllers lack it, and a few 4.2 ones with vendor firmware have it).
    public var hasExtendedAdvertising: Bool { leFeatures.contains(.leExtendedAdvertising) && advertisingSets > 0 }

    /// Whether the controller has several advertisers that run at once, each with its own interval:
    /// extended advertising sets, or the management API's instances.
    public var hasIndependentAdvertisers: Bool {
        hasExtendedAdvertising || (managementAPI != nil && advertisingSets > 0)
    }

    /// Legacy non-connectable advertising below 100 ms is allowed only from Bluetooth 5.0 on, and
    /// not on a model known to keep 4.x's floor whatever it claims (a CSR8510 clone).
    public var allowsFastLegacyAdvertising: Bool {
        hciVersion >= .v5_0 && (model.map { $0.nonConnectableFloor < .milliseconds(100) } ?? true)
    }

    /// Whether the version claims 5.0 but the recognised model keeps the 100 ms floor.
    public var claimsFastAdvertisingFalsely: Bool { hciVersion >= .v5_0 && !allowsFastLegacyAdvertising }

    /// The shortest interval this controller accepts for non-connectable advertising with legacy
    /// PDUs: 20 ms from Bluetooth 5.0 on, 100 ms before (and on a model known to keep it).
    public var minimumNonConnectableInterval: AdvertisingInterval {
        allowsFastLegacyAdvertising ? AdvertisingInterval.legacyRange.lowerBound : AdvertisingInterval.pre5NonConnectableMinimum
    }

    /// The information HCI validation uses. A model known to keep 4.x's floor although it claims
    /// 5.0 (a CSR8510 clone: a 4.0-era link layer, btusb_setup_csr) is validated as the 4.0
    /// controller it is, so a too-short interval is refused before it is sent.
    public var hciInfo: HCIControllerInfo {
        HCIControllerInfo(hciVersion: claimsFastAdvertisingFalsely ? .v4_0 : hciVersion, leFeatures: leFeatures)
    }

    /// An assumed Bluetooth 5 controller with `sets` advertising sets (for `--dry-run`).
    public static func assumedExtended(adapter: AdapterName, sets: Int) -> ControllerCapabilities {
        ControllerCapabilities(adapter: adapter, hciVersion: .v5_0, leFeatures: [.leExtendedAdvertising], advertisingSets: sets,
                               maximumDataLength: 251)
    }

    /// An assumed legacy-only controller (for `--dry-run --legacy`).
    public static func assumedLegacy(adapter: AdapterName, version: HCIVersion = .v4_2) -> ControllerCapabilities {
        ControllerCapabilities(adapter: adapter, hciVersion: version, leFeatures: [], advertisingSets: 0, maximumDataLength: 31)
    }
}
