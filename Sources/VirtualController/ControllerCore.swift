// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import HCI

/// A command refused with an error code; the reply carries the status alone, which Core Vol 4
/// Part E §4.5 allows for a failed command (only a leading Connection_Handle or BD_ADDR would
/// have to be echoed, and none of these commands has one).
struct Refusal: Error {
    let status: HCIStatus
    init(_ status: HCIStatus) { self.status = status }
}

/// Which advertising command family the host chose since power-on or Reset (Core Vol 4 Part E
/// §3.1.1 "Legacy and extended advertising"): the other family is then Command Disallowed.
enum AdvertisingCommandFamily: Hashable, Sendable {
    case legacy
    case extended

    /// The family an opcode belongs to, per the two lists of §3.1.1 (only the commands this
    /// controller implements). LE Set Random Address and LE Read Transmit Power are in neither.
    static func of(_ opcode: HCIOpcode) -> AdvertisingCommandFamily? {
        switch opcode.rawValue {
        case 0x2006...0x200C: .legacy  // advertising parameters … scan enable
        case 0x2035...0x203D, 0x2041, 0x2042: .extended  // set random address … clear sets, extended scanning
        default: nil
        }
    }
}

/// An advertiser while it is enabled.
struct EnabledAdvertising {
    var schedule: AdvertisingSchedule
    /// When the advertiser stops by itself: Duration[i] of an advertising set, or the 1.28 s of
    /// legacy high duty cycle directed advertising.
    var ends: Duration?
    /// Max_Extended_Advertising_Events[i]; 0 for no limit.
    var maxEvents: Int = 0
    var completedEvents: Int = 0
}

/// The legacy advertiser: the one the legacy commands configure.
struct LegacyAdvertiser {
    /// The values after power-on or Reset (Core Vol 4 Part E §7.8.5): 1.28 s, ADV_IND, public
    /// address, all three channels, no filter.
    var parameters = LESetAdvertisingParameters(intervalMin: 0x0800, intervalMax: 0x0800, advertisingType: .connectableUndirected)
    var data: [UInt8] = []
    var scanResponseData: [UInt8] = []
    var enabled: EnabledAdvertising?
}

/// One advertising set, created by LE Set Extended Advertising Parameters.
struct AdvertisingSet {
    var parameters: LESetExtendedAdvertisingParameters
    var randomAddress: BluetoothAddress?
    var data: [UInt8] = []
    /// What LE Set Extended Scan Response Data gave (scannable sets only).
    var scanResponseData: [UInt8] = []
    /// A first or intermediate fragment arrived and the last one has not.
    var dataIsPartial = false
    var selectedTxPower: Int8
    var enabled: EnabledAdvertising?

    var isEnabled: Bool { enabled != nil }
    var usesLegacyPDUs: Bool { parameters.eventProperties.contains(.useLegacyPDUs) }
}

/// Scanning: parameters and whether it is on. In-process the air is empty; on the shared air
/// (``AirLink``) other controllers' advertising events are reported while it is on.
struct ScanState {
    /// Values after power-on or Reset (Core Vol 4 Part E §7.8.10).
    var legacyParameters = LESetScanParameters()
    var extendedParameters = LESetExtendedScanParameters(le1M: .init(interval: 0x0010, window: 0x0010))
    var isEnabled = false
    /// The Own_Address_Type scanning uses: from whichever family set it last.
    var ownAddressType: LEOwnAddressType = .public
}

/// Everything the controller knows, behind the controller's lock. Each command handler follows
/// one section of Core Vol 4 Part E §7 and names the rule it applies.
struct ControllerCore {
    let configuration: VirtualController.Configuration
    let supportedOpcodes: Set<UInt16>

    var eventMask: HCIEventMask = .default
    var leEventMask: LEEventMask = .default
    /// LE Set Random Address; `nil` until the host sets one.
    var randomAddress: BluetoothAddress?
    var family: AdvertisingCommandFamily?
    var legacy = LegacyAdvertiser()
    var sets: [UInt8: AdvertisingSet] = [:]
    var scan = ScanState()

    var airLog: AirLog
    /// H4 event packets waiting for the host, oldest first.
    var outgoing: [[UInt8]] = []
    /// Command replies waiting out the configured latency, oldest first (see `reply(_:at:)`).
    var delayedReplies: [(due: Duration, bytes: [UInt8])] = []
    /// The last time advertising was computed up to.
    var computedUntil: Duration = .zero

    init(configuration: VirtualController.Configuration) {
        self.configuration = configuration
        supportedOpcodes = SupportedCommands.opcodes(for: configuration)
        airLog = AirLog(capacity: configuration.airLogCapacity)
    }

    /// Back to the power-on state (Core Vol 4 Part E §7.3.2): no advertising, no sets, no
    /// random address, no scanning, default masks, and either advertising family may be chosen
    /// again. The air log is history and stays.
    mutating func reset() {
        eventMask = .default
        leEventMask = .default
        randomAddress = nil
        family = nil
        legacy = LegacyAdvertiser()
        sets = [:]
        scan = ScanState()
    }

    /// The advertiser address for an Own_Address_Type: public, or the given random address.
    /// With no resolving list, 0x02 falls back to public and 0x03 to random (§7.8.5). `nil` when
    /// a random address is needed and none was set.
    func advertiserAddress(own: LEOwnAddressType, random: BluetoothAddress?) -> (BluetoothAddress, LEAddressType)? {
        switch own {
        case .public, .resolvableOrPublic: return (configuration.publicAddress, .public)
        default: return random.map { ($0, .random) }
        }
    }

    /// A fresh advDelay generator for one advertiser, when advDelay is on.
    func delayGenerator(for advertiser: VirtualAdvertiser) -> SplitMix64? {
        guard configuration.advertisingDelay else { return nil }
        let salt: UInt64 = switch advertiser {
        case .legacy: 0xFFFF
        case let .set(handle): UInt64(handle)
        }
        // The stream's seed is itself drawn: SplitMix64 steps its state by 0x9E37_79B9_7F4A_7C15,
        // so seeds a multiple of it apart give one stream shifted by a draw, and two sets whose
        // delays are the same sequence one event apart keep their relative phase for ever.
        var seeds = SplitMix64(seed: configuration.seed ^ (salt &* 0x9E37_79B9_7F4A_7C15))
        return SplitMix64(seed: seeds.next())
    }
}
