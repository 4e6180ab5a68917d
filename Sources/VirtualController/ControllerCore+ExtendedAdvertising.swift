// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import HCI

extension ControllerCore {
    /// Advertising handles are 0x00…0xEF (§7.8.53).
    static let maximumHandle: UInt8 = 0xEF
    /// Advertising data one extended advertising event can carry at most, over AUX_CHAIN_IND
    /// PDUs (Core Vol 6 Part B §2.3.4.9 "Host Advertising Data").
    static let maximumExtendedPDUData = 1650
    /// The exact Advertising_Event_Properties allowed with legacy PDUs (§7.8.53 Table 7.2).
    static let legacyEventProperties: Set<UInt16> = [0b0001_0011, 0b0001_0101, 0b0001_1101, 0b0001_0010, 0b0001_0000]

    /// The set `handle`, or Unknown Advertising Identifier (0x42).
    func existingSet(_ handle: UInt8) throws(Refusal) -> AdvertisingSet {
        guard handle <= Self.maximumHandle else { throw Refusal(.invalidCommandParameters) }
        guard let set = sets[handle] else { throw Refusal(.unknownAdvertisingIdentifier) }
        return set
    }

    /// LE Set Advertising Set Random Address (§7.8.52).
    mutating func setAdvertisingSetRandomAddress(_ c: LESetAdvertisingSetRandomAddress) throws(Refusal) -> HCINoReturnParameters {
        var set = try existingSet(c.handle)
        // "If the Host issues this command while the advertising set identified by the
        // Advertising_Handle parameter is using connectable advertising and is enabled, …
        // Command Disallowed (0x0C)." (Core 5.0 already limited it to connectable advertising.)
        // Non-connectable beacons may therefore rotate their address while advertising.
        if set.isEnabled, set.parameters.eventProperties.contains(.connectable) { throw Refusal(.commandDisallowed) }
        set.randomAddress = c.address
        sets[c.handle] = set
        return .init()
    }

    /// LE Set Extended Advertising Parameters (§7.8.53). Creates the set when it is new.
    mutating func setExtendedAdvertisingParameters(_ c: LESetExtendedAdvertisingParameters) throws(Refusal)
        -> LESetExtendedAdvertisingParameters.ReturnParameters
    {
        guard c.handle <= Self.maximumHandle else { throw Refusal(.invalidCommandParameters) }
        let existing = sets[c.handle]
        // "If the Host issues this command when advertising is enabled for the specified
        // advertising set, … Command Disallowed (0x0C)."
        if existing?.isEnabled == true { throw Refusal(.commandDisallowed) }
        // "… unable to support a new advertising set at present, … Memory Capacity Exceeded."
        if existing == nil, sets.count >= configuration.advertisingSets { throw Refusal(.memoryCapacityExceeded) }

        let properties = c.eventProperties
        let legacyPDUs = properties.contains(.useLegacyPDUs)
        guard properties.rawValue <= 0x7F else { throw Refusal(.invalidCommandParameters) }
        if legacyPDUs {
            guard Self.legacyEventProperties.contains(properties.rawValue) else { throw Refusal(.invalidCommandParameters) }
        } else {
            // Extended PDUs: not both connectable and scannable, no high duty cycle directed,
            // and anonymous advertising can be neither connectable nor scannable.
            if properties.isSuperset(of: [.connectable, .scannable]) || properties.contains(.highDutyCycleDirected)
                || (properties.contains(.omitAdvertiserAddress) && !properties.isDisjoint(with: [.connectable, .scannable])) {
                throw Refusal(.invalidCommandParameters)
            }
        }
        // Data already in the set must suit the new type: none for a type without AdvData, and
        // at most 31 bytes with legacy PDUs.
        if let existing, !existing.data.isEmpty {
            guard Self.maximumDataLength(for: properties) > 0 else { throw Refusal(.invalidCommandParameters) }
            if legacyPDUs, existing.data.count > AdvertisingPayload.capacity { throw Refusal(.invalidCommandParameters) }
        }
        if !(legacyPDUs && properties.contains(.highDutyCycleDirected)) {
            guard AdvertisingInterval.extendedRange.contains(c.intervalMin), AdvertisingInterval.extendedRange.contains(c.intervalMax),
                  c.intervalMin <= c.intervalMax else { throw Refusal(.invalidCommandParameters) }
        }
        // A clone's floor (issue 36) holds for any advertising that cannot be connected to.
        if let floor = configuration.quirkFloor, !properties.contains(.connectable), c.intervalMin < floor {
            throw Refusal(.invalidCommandParameters)
        }
        guard (1...7).contains(c.channelMap.rawValue), c.ownAddressType.rawValue <= 3, c.peerAddressType.rawValue <= 1,
              c.filterPolicy.rawValue <= 3, c.sid <= 0x0F else { throw Refusal(.invalidCommandParameters) }
        guard HCIValidation.txPowerRange.contains(c.txPower) || c.txPower == HCIValidation.txPowerNoPreference else {
            throw Refusal(.invalidCommandParameters)
        }
        // "If legacy advertising PDUs are being used, the Primary_Advertising_PHY shall
        // indicate the LE 1M PHY." Otherwise a PHY this controller lacks (Coded, 2M) or a
        // reserved value is Unsupported Feature or Parameter Value.
        if c.primaryPHY != .le1M {
            throw Refusal(legacyPDUs ? .invalidCommandParameters : .unsupportedFeatureOrParameter)
        }
        if !legacyPDUs, c.secondaryPHY != .le1M { throw Refusal(.unsupportedFeatureOrParameter) }
        // Extended data already in the set that the new parameters cannot send: Packet Too Long.
        if let existing, !legacyPDUs, existing.data.count > Self.maximumDataLength(for: properties) {
            throw Refusal(.packetTooLong)
        }

        let selected = selectedTxPower(c.txPower)
        var set = existing ?? AdvertisingSet(parameters: c, selectedTxPower: selected)
        set.parameters = c
        set.selectedTxPower = selected
        sets[c.handle] = set
        return .init(selectedTxPower: selected)
    }

    /// The requested power clamped into what the radio can do; 0x7F "no preference" gets 0 dBm
    /// (within the range).
    func selectedTxPower(_ requested: Int8) -> Int8 {
        let range = configuration.txPowerRange
        let wanted = requested == HCIValidation.txPowerNoPreference ? 0 : requested
        return min(max(wanted, range.lowerBound), range.upperBound)
    }

    /// How much AdvData one event of this type can carry: none for directed legacy and
    /// scannable extended PDUs; 31 for legacy; 1650 when AUX_CHAIN_IND may follow
    /// (non-connectable, non-scannable); otherwise what fits in one AUX_ADV_IND (255 octets
    /// less the extended header: length/AdvMode and flags octets, AdvA, ADI, TargetA, TxPower;
    /// Core Vol 6 Part B §2.3.4).
    static func maximumDataLength(for properties: LEAdvertisingEventProperties) -> Int {
        if properties.contains(.useLegacyPDUs) {
            return properties.contains(.directed) ? 0 : AdvertisingPayload.capacity
        }
        if properties.contains(.scannable) { return 0 }
        if !properties.contains(.connectable) { return maximumExtendedPDUData }
        return 255 - 2 - 6 - 2 - (properties.contains(.directed) ? 6 : 0) - (properties.contains(.includeTxPower) ? 1 : 0)
    }

    /// LE Set Extended Scan Response Data (§7.8.55), for what this controller advertises: a
    /// scannable set with legacy PDUs takes one complete operation of at most 31 bytes, at any
    /// time; a set that is not scannable refuses (Invalid HCI Command Parameters). Extended
    /// scannable PDUs are not modelled here: refused the same way.
    mutating func setExtendedScanResponseData(_ c: LESetExtendedScanResponseData) throws(Refusal) -> HCINoReturnParameters {
        var set = try existingSet(c.handle)
        guard set.parameters.eventProperties.contains(.scannable), set.usesLegacyPDUs,
              c.operation == .complete, c.data.count <= AdvertisingPayload.capacity else {
            throw Refusal(.invalidCommandParameters)
        }
        set.scanResponseData = c.data
        sets[c.handle] = set
        return .init()
    }

    /// LE Set Extended Advertising Data (§7.8.54).
    mutating func setExtendedAdvertisingData(_ c: LESetExtendedAdvertisingData) throws(Refusal) -> HCINoReturnParameters {
        var set = try existingSet(c.handle)
        let operation = c.operation
        let properties = set.parameters.eventProperties
        guard operation.rawValue <= 0x04, c.data.count <= HCIValidation.extendedDataFragmentLimit else {
            throw Refusal(.invalidCommandParameters)
        }
        // "If the advertising set specifies a type that does not support advertising data, …
        // Invalid HCI Command Parameters (0x12)."
        guard Self.maximumDataLength(for: properties) > 0 else { throw Refusal(.invalidCommandParameters) }
        // Legacy PDUs: one complete operation of at most 31 bytes.
        if set.usesLegacyPDUs, operation != .complete || c.data.count > AdvertisingPayload.capacity {
            throw Refusal(.invalidCommandParameters)
        }
        // Unchanged data (a new Advertising DID) only for an enabled extended set that has data,
        // and with no data in the command.
        if operation == .unchangedData, !set.isEnabled || set.data.isEmpty || set.usesLegacyPDUs || !c.data.isEmpty {
            throw Refusal(.invalidCommandParameters)
        }
        // Fragments must carry data.
        if operation != .complete, operation != .unchangedData, c.data.isEmpty { throw Refusal(.invalidCommandParameters) }
        // While enabled, only whole data may be replaced.
        if set.isEnabled, operation != .complete, operation != .unchangedData { throw Refusal(.commandDisallowed) }

        switch operation {
        case .firstFragment:
            set.data = c.data
            set.dataIsPartial = true
        case .intermediateFragment:
            set.data += c.data
            set.dataIsPartial = true
        case .lastFragment:
            set.data += c.data
            set.dataIsPartial = false
        case .complete:
            set.data = c.data
            set.dataIsPartial = false
        default:
            break  // unchanged data: only the Advertising DID would change
        }
        // "If the combined length of the data exceeds the capacity of the advertising set …,
        // all the data shall be discarded and … Memory Capacity Exceeded (0x07)."
        if set.data.count > configuration.maximumAdvertisingDataLength {
            set.data = []
            set.dataIsPartial = false
            sets[c.handle] = set
            throw Refusal(.memoryCapacityExceeded)
        }
        // Enabled extended set whose data no longer fits its events: discarded, Packet Too Long.
        if set.isEnabled, !set.usesLegacyPDUs, set.data.count > Self.maximumDataLength(for: properties) {
            set.data = []
            set.dataIsPartial = false
            sets[c.handle] = set
            throw Refusal(.packetTooLong)
        }
        sets[c.handle] = set
        return .init()
    }

    /// LE Set Extended Advertising Enable (§7.8.56). Every check is made before any set changes:
    /// a refused command enables nothing.
    mutating func setExtendedAdvertisingEnable(_ c: LESetExtendedAdvertisingEnable, at now: Duration) throws(Refusal)
        -> HCINoReturnParameters
    {
        guard c.sets.count <= min(0x3F, configuration.advertisingSets) else { throw Refusal(.invalidCommandParameters) }
        var seen = Set<UInt8>()
        for entry in c.sets {
            guard entry.handle <= Self.maximumHandle, seen.insert(entry.handle).inserted else { throw Refusal(.invalidCommandParameters) }
        }
        for entry in c.sets where sets[entry.handle] == nil { throw Refusal(.unknownAdvertisingIdentifier) }

        guard c.isEnabled else {
            // Enable 0 with Num_Sets 0 disables every set.
            let handles = c.sets.isEmpty ? Array(sets.keys) : c.sets.map(\.handle)
            for handle in handles { sets[handle]?.enabled = nil }
            return .init()
        }
        guard !c.sets.isEmpty else { throw Refusal(.invalidCommandParameters) }

        for entry in c.sets {
            let set = sets[entry.handle]!
            let properties = set.parameters.eventProperties
            // High duty cycle directed: Duration non-zero and at most 1.28 s.
            if properties.contains(.highDutyCycleDirected), entry.duration == 0 || entry.duration > 128 {
                throw Refusal(.invalidCommandParameters)
            }
            // Data still arriving in fragments.
            if set.dataIsPartial { throw Refusal(.commandDisallowed) }
            if !set.usesLegacyPDUs {
                // Scannable extended advertising needs scan response data, which this controller
                // cannot be given (no LE Set Extended Scan Response Data).
                if properties.contains(.scannable) { throw Refusal(.commandDisallowed) }
                if properties.contains(.connectable), set.data.count > Self.maximumDataLength(for: properties) {
                    throw Refusal(.invalidCommandParameters)
                }
                if set.data.count > Self.maximumExtendedPDUData { throw Refusal(.packetTooLong) }
            }
            // "If the advertising set's Own_Address_Type parameter is set to 0x01 and the random
            // address for the advertising set has not been initialized …, 0x12" (and 0x03 with
            // no resolving list entry).
            guard advertiserAddress(own: set.parameters.ownAddressType, random: set.randomAddress) != nil else {
                throw Refusal(.invalidCommandParameters)
            }
        }

        for entry in c.sets {
            var set = sets[entry.handle]!
            let properties = set.parameters.eventProperties
            // Enabling an enabled set restarts its Duration and event count, not its timing.
            let schedule = set.enabled?.schedule ?? AdvertisingSchedule(
                start: now,
                interval: properties.contains(.highDutyCycleDirected) && properties.contains(.useLegacyPDUs)
                    ? .microseconds(3750) : set.parameters.intervalMin.duration,
                delay: delayGenerator(for: .set(entry.handle)))
            // "The duration begins at the start of the first advertising event of this set."
            let ends = entry.duration == 0 ? nil : schedule.nextEvent + .milliseconds(10 * Int64(entry.duration))
            set.enabled = EnabledAdvertising(schedule: schedule, ends: ends, maxEvents: Int(entry.maxExtendedAdvertisingEvents))
            sets[entry.handle] = set
        }
        return .init()
    }

    /// LE Remove Advertising Set (§7.8.59): not while it advertises.
    mutating func removeAdvertisingSet(_ c: LERemoveAdvertisingSet) throws(Refusal) -> HCINoReturnParameters {
        let set = try existingSet(c.handle)
        guard !set.isEnabled else { throw Refusal(.commandDisallowed) }
        sets[c.handle] = nil
        return .init()
    }

    /// LE Clear Advertising Sets (§7.8.60): not while any set advertises.
    mutating func clearAdvertisingSets() throws(Refusal) -> HCINoReturnParameters {
        guard !sets.values.contains(where: \.isEnabled) else { throw Refusal(.commandDisallowed) }
        sets = [:]
        return .init()
    }
}
