// SPDX-License-Identifier: GPL-2.0-or-later
import HCI

extension ControllerCore {
    /// LE Set Scan Parameters (§7.8.10): refused while scanning is on.
    mutating func setScanParameters(_ c: LESetScanParameters) throws(Refusal) -> HCINoReturnParameters {
        guard !scan.isEnabled else { throw Refusal(.commandDisallowed) }
        guard c.scanType.rawValue <= 1, (0x0004...0x4000).contains(c.interval), (0x0004...0x4000).contains(c.window),
              c.window <= c.interval, c.ownAddressType.rawValue <= 3, c.filterPolicy <= 3 else {
            throw Refusal(.invalidCommandParameters)
        }
        scan.legacyParameters = c
        scan.ownAddressType = c.ownAddressType
        return .init()
    }

    /// LE Set Scan Enable (§7.8.11).
    mutating func setScanEnable(_ c: LESetScanEnable) throws(Refusal) -> HCINoReturnParameters {
        try enableScanning(c.isEnabled)
        return .init()
    }

    /// LE Set Extended Scan Parameters (§7.8.64).
    mutating func setExtendedScanParameters(_ c: LESetExtendedScanParameters) throws(Refusal) -> HCINoReturnParameters {
        guard !scan.isEnabled else { throw Refusal(.commandDisallowed) }
        guard c.ownAddressType.rawValue <= 3, c.filterPolicy <= 3, c.le1M != nil || c.leCoded != nil else {
            throw Refusal(.invalidCommandParameters)
        }
        // "If the Host specifies a PHY that is not supported by the Controller … Unsupported
        // Feature or Parameter Value (0x11)": this controller has no LE Coded PHY.
        guard c.leCoded == nil else { throw Refusal(.unsupportedFeatureOrParameter) }
        for phy in [c.le1M, c.leCoded].compactMap({ $0 }) {
            guard phy.scanType.rawValue <= 1, phy.interval >= 0x0004, phy.window >= 0x0004, phy.window <= phy.interval else {
                throw Refusal(.invalidCommandParameters)
            }
        }
        scan.extendedParameters = c
        scan.ownAddressType = c.ownAddressType
        return .init()
    }

    /// LE Set Extended Scan Enable (§7.8.65).
    mutating func setExtendedScanEnable(_ c: LESetExtendedScanEnable) throws(Refusal) -> HCINoReturnParameters {
        guard c.filterDuplicates <= 2 else { throw Refusal(.invalidCommandParameters) }
        if c.isEnabled {
            // Filter_Duplicates 0x02 resets each period, so it needs a duration and a period.
            if c.filterDuplicates == 2, c.duration == 0 || c.period == 0 { throw Refusal(.invalidCommandParameters) }
            // "If … Duration is greater than or equal to the time specified by Period …, 0x12":
            // Duration counts 10 ms, Period 1.28 s.
            if c.period != 0, UInt32(c.duration) * 10 >= UInt32(c.period) * 1280 { throw Refusal(.invalidCommandParameters) }
        }
        try enableScanning(c.isEnabled)
        return .init()
    }

    /// Turning scanning on needs the random address when Own_Address_Type asks for it
    /// (§7.8.11, §7.8.65: Invalid HCI Command Parameters).
    private mutating func enableScanning(_ on: Bool) throws(Refusal) {
        if on, scan.ownAddressType == .random || scan.ownAddressType == .resolvableOrRandom, randomAddress == nil {
            throw Refusal(.invalidCommandParameters)
        }
        scan.isEnabled = on
    }
}
