// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import HCI
import KnownControllers

extension VirtualController {
    /// What kind of controller to be: the facts a host learns from the informational commands,
    /// and the limits the strict rules enforce.
    public struct Configuration: Hashable, Sendable {
        /// HCI_Version and LMP_Version of Read Local Version Information. Below 5.0 the
        /// commands Bluetooth 5.0 introduced are unknown, and the 4.x rule that scannable and
        /// non-connectable legacy advertising may not go below 100 ms applies.
        public var hciVersion: HCIVersion = .v5_4
        /// The LE Extended Advertising feature (LE feature bit 12). Without it every extended
        /// advertising and extended scanning command is an Unknown HCI Command (0x01).
        public var extendedAdvertising = true
        /// Num_Supported_Advertising_Sets: how many advertising sets may exist at once
        /// (1…240, Core Vol 4 Part E §7.8.58).
        public var advertisingSets = 16
        /// Max_Advertising_Data_Length per set (31…1650, Core Vol 4 Part E §7.8.57).
        public var maximumAdvertisingDataLength = 1650
        /// What LE Read Transmit Power reports; Selected_TX_Power is the request clamped into it.
        public var txPowerRange: ClosedRange<Int8> = -20...10
        /// What LE Read Advertising Physical Channel Tx Power reports, in dBm.
        public var advertisingChannelTxPower: Int8 = 0
        /// Read BD_ADDR, and the advertiser address with Own_Address_Type public.
        public var publicAddress = BluetoothAddress(0x00_11_22_33_44_55)
        /// Company_Identifier of Read Local Version Information; 0xFFFF is the SIG's value for
        /// tests and internal use, so no real maker is impersonated.
        public var manufacturer: UInt16 = 0xFFFF
        /// LMP_Subversion (and HCI_Revision unless ``hciRevision`` differs).
        public var subversion: UInt16 = 0
        /// HCI_Revision; `nil`: the same as ``subversion``.
        public var hciRevision: UInt16? = nil
        /// Num_HCI_Command_Packets in every Command Complete and Command Status: how many
        /// commands the host may have outstanding (1…255; real USB controllers say 1 or 2).
        public var commandPackets: UInt8 = 1
        /// How long each command takes before its reply is given, one command after another as a
        /// controller takes them (zero: at once). The command acts when it arrives; only its reply
        /// waits, which is what a host's schedule sees.
        public var commandLatency: Duration = .zero
        /// Misbehaviours of real controllers (`ControllerQuirk`): commands listed but refused,
        /// commands never answered, a floor below the claimed version's.
        public var quirks: [ControllerQuirk] = []
        /// The catalogue's model this controller imitates (`model=NAME`), if any.
        public var model: ControllerModel? = nil
        /// Add the link layer's pseudo-random 0–10 ms advDelay to every advertising interval
        /// (Core Vol 6 Part B §4.4.2.2.1). Off by default so event times are exact multiples;
        /// `AdapterConnection` turns it on (seeded with the process id) for a controller on the
        /// shared air unless the options name `advdelay` (and `seed`), so collisions there come and go.
        public var advertisingDelay = false
        /// Seed for advDelay, so runs with the delay are still reproducible.
        public var seed: UInt64 = 0
        /// How many air log entries are kept (oldest dropped first).
        public var airLogCapacity = 4096
        /// How an opcode the controller does not support is refused: both are allowed by Core
        /// Vol 4 Part E §4.5.
        public var unknownCommandReply: UnknownCommandReply = .commandComplete

        /// A Bluetooth 5.4 controller with extended advertising and 16 sets.
        public init() {}

        /// Whether the commands Bluetooth 5.0 introduced for extended advertising and scanning
        /// exist on this controller.
        public var supportsExtendedAdvertising: Bool { extendedAdvertising && hciVersion >= .v5_0 }
    }

    /// Which event refuses an unsupported opcode.
    public enum UnknownCommandReply: Hashable, Sendable {
        case commandComplete
        case commandStatus
    }
}

/// A `virtual:` option the controller cannot use, with what would be accepted.
public enum VirtualControllerConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    case unknownOption(String, known: [String])
    case invalidValue(option: String, value: String, expected: String)
    case conflict(String)

    public var description: String {
        switch self {
        case let .unknownOption(key, known):
            "virtual controller: unknown option '\(key)' (known: \(known.joined(separator: ", ")))"
        case let .invalidValue(option, value, expected):
            "virtual controller: \(option)=\(value) is not valid: expected \(expected)"
        case let .conflict(message):
            "virtual controller: \(message)"
        }
    }
}

extension VirtualController.Configuration {
    /// The option names `-i virtual:key=value,…` accepts.
    public static let optionNames = [
        "model", "sets", "version", "extended", "legacy", "address", "manufacturer", "subversion", "maxdata", "txpower", "ncmd",
        "latency", "quirks", "advdelay", "seed",
    ]

    /// Parses the options of `-i virtual:sets=4,version=4.2,extended=no,legacy`: a bare key
    /// arrives as `yes` (see `AdapterSpec`).
    ///
    /// - `model=NAME`: a controller of the catalogue (`ControllerModel/catalogue`): its
    ///   versions, maker, sets, data length, TX power, address, command packets, latency and
    ///   quirks; the other options then change what they name.
    /// - `sets=N` (1…240), `version=4.2|5.0|5.4|0x09…` (4.0 or later), `extended=yes|no`,
    ///   `legacy` (= `extended=no`), `address=00:11:22:33:44:55`, `manufacturer=0x000F`,
    ///   `subversion=0x0C5C`, `maxdata=N` (31…1650), `txpower=MIN..MAX` (dBm), `ncmd=N` (1…255),
    ///   `latency=MS` (0…100, fractions allowed), `quirks=KIND:ARG+KIND:ARG` (`ControllerQuirk`,
    ///   joined by `+` as `,` separates options), `advdelay=yes|no`, `seed=N`.
    ///
    /// A version below 5.0 turns extended advertising off unless `extended=yes` asks for it,
    /// which is then an error: Bluetooth 4.x has no extended advertising.
    public init(options: [String: String]) throws(VirtualControllerConfigurationError) {
        self.init()
        for key in options.keys.sorted() where !Self.optionNames.contains(key) {
            throw .unknownOption(key, known: Self.optionNames)
        }
        if let name = options["model"] {
            guard let model = ControllerModel.named(name) else {
                throw .invalidValue(option: "model", value: name,
                                    expected: "a controller of the catalogue: " + ControllerModel.catalogue.map(\.id).joined(separator: ", "))
            }
            self.init(model: model)
        }
        if let text = options["version"] {
            hciVersion = try Self.parseVersion(text)
            // A model's listing of bit 12 was for its own version.
            if options["model"] != nil, hciVersion < .v5_0 { extendedAdvertising = false }
        }
        var extendedChoice: Bool? = nil
        if let text = options["extended"] { extendedChoice = try Self.parseBool(text, option: "extended") }
        if let text = options["legacy"] {
            let legacy = try Self.parseBool(text, option: "legacy")
            if let chosen = extendedChoice, chosen == legacy {
                throw .conflict("extended=\(options["extended"]!) and legacy=\(text) contradict each other")
            }
            extendedChoice = !legacy
        }
        if hciVersion < .v5_0 {
            if extendedChoice == true {
                throw .conflict("extended advertising needs Bluetooth 5.0 or later, but version is \(hciVersion.name ?? "\(hciVersion)")")
            }
            extendedAdvertising = false
        } else if let extendedChoice {
            extendedAdvertising = extendedChoice
        }
        if let text = options["sets"] {
            guard let n = Int(text), (1...0xF0).contains(n) else {
                throw .invalidValue(option: "sets", value: text, expected: "a number of advertising sets from 1 to 240")
            }
            advertisingSets = n
        }
        if let text = options["maxdata"] {
            guard let n = Int(text), (31...1650).contains(n) else {
                throw .invalidValue(option: "maxdata", value: text, expected: "a maximum advertising data length from 31 to 1650 bytes")
            }
            maximumAdvertisingDataLength = n
        }
        if let text = options["address"] {
            guard let address = BluetoothAddress(text) else {
                throw .invalidValue(option: "address", value: text, expected: "a public address such as 00:11:22:33:44:55")
            }
            publicAddress = address
        }
        if let text = options["manufacturer"] {
            guard let n = Self.parseInteger(text), let id = UInt16(exactly: n) else {
                throw .invalidValue(option: "manufacturer", value: text, expected: "a company identifier from 0 to 0xFFFF")
            }
            manufacturer = id
        }
        if let text = options["subversion"] {
            guard let n = Self.parseInteger(text), let value = UInt16(exactly: n) else {
                throw .invalidValue(option: "subversion", value: text, expected: "an LMP subversion from 0 to 0xFFFF")
            }
            subversion = value
            hciRevision = nil
        }
        if let text = options["txpower"] { txPowerRange = try Self.parsePowerRange(text) }
        if let text = options["ncmd"] {
            guard let n = UInt8(text), n >= 1 else {
                throw .invalidValue(option: "ncmd", value: text, expected: "a number of command packets from 1 to 255")
            }
            commandPackets = n
        }
        if let text = options["latency"] {
            guard let ms = Double(text), ms.isFinite, (0...100).contains(ms) else {
                throw .invalidValue(option: "latency", value: text, expected: "milliseconds from 0 to 100, such as 1 or 2.5")
            }
            commandLatency = .microseconds(Int64((ms * 1000).rounded()))
        }
        if let text = options["quirks"] {
            var parsed: [ControllerQuirk] = []
            for item in text.split(separator: "+").map(String.init) {
                do throws(ControllerQuirkError) {
                    parsed.append(try ControllerQuirk(parsing: item))
                } catch {
                    throw .invalidValue(option: "quirks", value: text, expected: "quirks joined by + (\(error))")
                }
            }
            quirks = parsed
        }
        if let text = options["advdelay"] { advertisingDelay = try Self.parseBool(text, option: "advdelay") }
        if let text = options["seed"] {
            guard let n = UInt64(text) else { throw .invalidValue(option: "seed", value: text, expected: "a non-negative integer") }
            seed = n
        }
        advertisingChannelTxPower = min(max(advertisingChannelTxPower, txPowerRange.lowerBound), txPowerRange.upperBound)
    }

    /// A controller like `model`, as the catalogue has it. Without a public address it reads
    /// 00:00:00:00:00:00; its TX power range is the catalogue's or, if not reported there, the
    /// default's (a controller must answer something: a quirk says when it does not).
    public init(model: ControllerModel) {
        self.init()
        hciVersion = model.hciVersion
        extendedAdvertising = model.extendedAdvertising
        advertisingSets = model.extendedAdvertising ? max(1, model.advertisingSets) : advertisingSets
        maximumAdvertisingDataLength = model.extendedAdvertising ? model.maximumAdvertisingDataLength : 31
        if let range = model.txPowerRange { txPowerRange = range }
        advertisingChannelTxPower = min(max(advertisingChannelTxPower, txPowerRange.lowerBound), txPowerRange.upperBound)
        if !model.hasPublicAddress { publicAddress = BluetoothAddress(0) }
        manufacturer = model.manufacturer
        subversion = model.lmpSubversion
        hciRevision = model.hciRevision
        commandPackets = model.commandPackets
        commandLatency = model.commandLatency
        quirks = model.quirks
        self.model = model
    }

    /// The interval floor a quirk sets for scannable and non-connectable advertising, if any.
    var quirkFloor: AdvertisingInterval? {
        quirks.intervalFloorMilliseconds.map { AdvertisingInterval(milliseconds: Double($0)) }
    }

    /// Whether `opcode` is answered Unknown HCI Command although listed.
    func refuses(_ opcode: HCIOpcode) -> Bool { quirks.contains(.unknown(opcode)) }

    /// Whether `opcode` goes unanswered.
    func ignores(_ opcode: HCIOpcode) -> Bool { quirks.contains(.noReply(opcode)) }

    /// `4.2`, `5.0`, `5.4` … (the names of Assigned Numbers), or the HCI_Version byte as `0x09`.
    static func parseVersion(_ text: String) throws(VirtualControllerConfigurationError) -> HCIVersion {
        let expected = "a Bluetooth version from 4.0 on, such as 4.2, 5.0 or 5.4, or its HCI_Version byte such as 0x09"
        var version: HCIVersion? = nil
        if text.hasPrefix("0x") || text.hasPrefix("0X") {
            if let byte = UInt8(text.dropFirst(2), radix: 16) { version = HCIVersion(rawValue: byte) }
        } else {
            let wanted = text == "5" ? "5.0" : text == "4" ? "4.0" : text == "6" ? "6.0" : text
            version = (0...0xFF).lazy.map { HCIVersion(rawValue: UInt8($0)) }.first { $0.name == wanted }
        }
        // LE exists from 4.0 on; a version this table cannot name is one we cannot promise to imitate.
        guard let version, version >= .v4_0, version.name != nil else {
            throw .invalidValue(option: "version", value: text, expected: expected)
        }
        return version
    }

    static func parseBool(_ text: String, option: String) throws(VirtualControllerConfigurationError) -> Bool {
        switch text.lowercased() {
        case "yes", "y", "true", "on", "1": return true
        case "no", "n", "false", "off", "0": return false
        default: throw .invalidValue(option: option, value: text, expected: "yes or no")
        }
    }

    static func parseInteger(_ text: String) -> Int? {
        if text.hasPrefix("0x") || text.hasPrefix("0X") { return Int(text.dropFirst(2), radix: 16) }
        return Int(text)
    }

    /// `-20..10`: the lowest and highest power in dBm, within the HCI's −127…20.
    static func parsePowerRange(_ text: String) throws(VirtualControllerConfigurationError) -> ClosedRange<Int8> {
        let parts = text.split(separator: ".", omittingEmptySubsequences: true)
        guard text.contains(".."), parts.count == 2, let low = Int8(parts[0]), let high = Int8(parts[1]),
              low <= high, HCIValidation.txPowerRange.contains(low), HCIValidation.txPowerRange.contains(high) else {
            throw .invalidValue(option: "txpower", value: text, expected: "MIN..MAX in dBm within -127..20, e.g. -20..10")
        }
        return low...high
    }
}
