// SPDX-License-Identifier: GPL-2.0-or-later
import HCI

extension ControllerCore {
    /// LE Set Random Address (§7.8.4): Command Disallowed while legacy advertising or scanning
    /// is enabled.
    mutating func setRandomAddress(_ c: LESetRandomAddress) throws(Refusal) -> HCINoReturnParameters {
        guard legacy.enabled == nil, !scan.isEnabled else { throw Refusal(.commandDisallowed) }
        randomAddress = c.address
        return .init()
    }

    /// LE Set Advertising Parameters (§7.8.5).
    mutating func setAdvertisingParameters(_ c: LESetAdvertisingParameters) throws(Refusal) -> HCINoReturnParameters {
        // "The Host shall not issue this command when advertising is enabled."
        guard legacy.enabled == nil else { throw Refusal(.commandDisallowed) }
        guard c.advertisingType.rawValue <= 0x04, c.ownAddressType.rawValue <= 0x03, c.peerAddressType.rawValue <= 0x01,
              c.filterPolicy.rawValue <= 0x03 else { throw Refusal(.invalidCommandParameters) }
        // At least one of channels 37, 38, 39, and no reserved bit.
        guard (1...7).contains(c.channelMap.rawValue) else { throw Refusal(.invalidCommandParameters) }
        // High duty cycle directed advertising ignores the intervals.
        if c.advertisingType != .connectableHighDutyCycleDirected {
            guard AdvertisingInterval.legacyRange.contains(c.intervalMin), AdvertisingInterval.legacyRange.contains(c.intervalMax),
                  c.intervalMin <= c.intervalMax else { throw Refusal(.invalidCommandParameters) }
            // Before 5.0, ADV_SCAN_IND and ADV_NONCONN_IND could not go below 100 ms (Core 4.2
            // Vol 2 Part E §7.8.5); 5.0 lowered the floor to 20 ms for every type.
            // A quirk's floor is a clone's: it claims 5.0 but keeps the 4.x rule (issue 36).
            let floor = configuration.quirkFloor ?? (configuration.hciVersion < .v5_0 ? AdvertisingInterval.pre5NonConnectableMinimum : nil)
            if let floor, c.advertisingType == .scannableUndirected || c.advertisingType == .nonConnectableUndirected,
               c.intervalMin < floor {
                throw Refusal(.invalidCommandParameters)
            }
        }
        legacy.parameters = c
        return .init()
    }

    /// LE Set Advertising Enable (§7.8.9).
    mutating func setAdvertisingEnable(_ c: LESetAdvertisingEnable, at now: Duration) throws(Refusal) -> HCINoReturnParameters {
        guard c.isEnabled else {
            legacy.enabled = nil  // disabling when disabled has no effect
            return .init()
        }
        // "If … Own_Address_Type is 0x01 [or 0x03 with no resolving list entry] and the random
        // address … has not been initialized …, Invalid HCI Command Parameters (0x12)."
        guard advertiserAddress(own: legacy.parameters.ownAddressType, random: randomAddress) != nil else {
            throw Refusal(.invalidCommandParameters)
        }
        // Enabling again while enabled keeps advertising as it is.
        guard legacy.enabled == nil else { return .init() }
        let p = legacy.parameters
        if p.advertisingType == .connectableHighDutyCycleDirected {
            // Every 3.75 ms at most, for at most 1.28 s (Core Vol 6 Part B §4.4.2.4.3).
            legacy.enabled = EnabledAdvertising(
                schedule: AdvertisingSchedule(start: now, interval: .microseconds(3750), delay: nil),
                ends: now + .milliseconds(1280))
        } else {
            // The controller may pick any interval in min…max; the minimum keeps timing exact.
            legacy.enabled = EnabledAdvertising(
                schedule: AdvertisingSchedule(start: now, interval: p.intervalMin.duration,
                                              delay: delayGenerator(for: .legacy)))
        }
        return .init()
    }
}
