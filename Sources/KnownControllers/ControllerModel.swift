// SPDX-License-Identifier: GPL-2.0-or-later
import HCI

/// A real controller as users own it: what it reports (versions, maker, LE features, sets, data
/// length), how it behaves on the wire (Num_HCI_Command_Packets, how long a command takes) and
/// how it misbehaves (``ControllerQuirk``), each fact from a public source (``sources``).
///
/// The catalogue (``catalogue``) is the one place these facts live: the virtual controller takes
/// a model (`-i virtual:model=NAME`), the Bumble harness takes the same entries from
/// `Tests/Harness/controllers.json` (written by `beacon doctor --known-controllers --json`, and
/// checked against it by a test), `doctor` recognises a controller from its maker and LMP
/// subversion (``recognise(manufacturer:hciVersion:lmpSubversion:)``) and states its limits, and
/// docs/CONTROLLERS.md lists them.
public struct ControllerModel: Hashable, Sendable, Identifiable {
    /// The name `model=` takes: lower case, hyphens (`intel-ax201`).
    public var id: String
    /// What people call it, with the products it is in.
    public var title: String
    /// HCI_Version and LMP_Version of Read Local Version Information.
    public var hciVersion: HCIVersion
    /// HCI_Revision.
    public var hciRevision: UInt16
    /// LMP_Subversion: with the maker, what names a controller (firmware builds differ).
    public var lmpSubversion: UInt16
    /// Company_Identifier (Assigned Numbers): Intel 2, Broadcom 15, Realtek 93 …
    public var manufacturer: UInt16
    /// LE feature bit 12, LE Extended Advertising, as the controller lists it (its firmware may
    /// still refuse the commands: see ``quirks``).
    public var extendedAdvertising: Bool
    /// LE Read Number of Supported Advertising Sets (when ``extendedAdvertising``).
    public var advertisingSets: Int
    /// LE Read Maximum Advertising Data Length (when ``extendedAdvertising``; 31 otherwise).
    public var maximumAdvertisingDataLength: Int
    /// LE Read Transmit Power, when the controller answers it.
    public var txPowerRange: ClosedRange<Int8>?
    /// Whether Read BD_ADDR gives a public address; without one (Zephyr's hci_usb, boards with no
    /// address programmed) it reads 00:00:00:00:00:00 and the kernel will not power it up
    /// (HCIDEVUP: EADDRNOTAVAIL) until bluetoothd sets one.
    public var hasPublicAddress: Bool
    /// Num_HCI_Command_Packets in its Command Complete events: how many commands the host may
    /// have outstanding.
    public var commandPackets: UInt8
    /// About how long the controller takes to answer a command, transport included.
    public var commandLatency: Duration
    /// How it departs from what it reports or from the specification.
    public var quirks: [ControllerQuirk]
    /// Where the facts come from: kernel source, BlueZ issues, users' btmon traces, vendor docs.
    public var sources: [String]
    /// What else is known, in a sentence or two (for docs/CONTROLLERS.md and doctor).
    public var notes: String
    /// How `doctor` tells this model from others with the same maker; `nil` when what it reports
    /// cannot tell it (a degraded firmware build: only trying the commands shows it).
    public var recognition: Recognition?

    /// Which reported values mark a controller as this model.
    public struct Recognition: Hashable, Sendable {
        /// The LMP subversions this model reports (empty: any, when ``versions`` decide).
        public var lmpSubversions: [ClosedRange<UInt16>]
        /// The HCI versions it claims.
        public var versions: ClosedRange<HCIVersion>

        public init(lmpSubversions: [ClosedRange<UInt16>], versions: ClosedRange<HCIVersion>) {
            self.lmpSubversions = lmpSubversions
            self.versions = versions
        }
    }

    public init(id: String, title: String, hciVersion: HCIVersion, hciRevision: UInt16, lmpSubversion: UInt16, manufacturer: UInt16,
                extendedAdvertising: Bool, advertisingSets: Int, maximumAdvertisingDataLength: Int, txPowerRange: ClosedRange<Int8>?,
                hasPublicAddress: Bool = true, commandPackets: UInt8, commandLatency: Duration, quirks: [ControllerQuirk] = [],
                recognition: Recognition?, sources: [String], notes: String) {
        self.id = id
        self.title = title
        self.hciVersion = hciVersion
        self.hciRevision = hciRevision
        self.lmpSubversion = lmpSubversion
        self.manufacturer = manufacturer
        self.extendedAdvertising = extendedAdvertising
        self.advertisingSets = advertisingSets
        self.maximumAdvertisingDataLength = maximumAdvertisingDataLength
        self.txPowerRange = txPowerRange
        self.hasPublicAddress = hasPublicAddress
        self.commandPackets = commandPackets
        self.commandLatency = commandLatency
        self.quirks = quirks
        self.recognition = recognition
        self.sources = sources
        self.notes = notes
    }

    /// The lowest interval the controller really accepts for scannable and non-connectable
    /// advertising: a quirk's floor, else 20 ms from Bluetooth 5.0 on and 100 ms before.
    public var nonConnectableFloor: Duration {
        if let ms = quirks.intervalFloorMilliseconds { return .milliseconds(ms) }
        return hciVersion >= .v5_0 ? .milliseconds(20) : .milliseconds(100)
    }

    /// The commands it lists but answers Unknown HCI Command.
    public var refusedCommands: [HCIOpcode] { quirks.compactMap { if case let .unknown(op) = $0 { op } else { nil } } }

    /// The commands it never answers.
    public var unansweredCommands: [HCIOpcode] { quirks.compactMap { if case let .noReply(op) = $0 { op } else { nil } } }

    /// Whether extended advertising really works: listed, and none of its commands refused.
    public var extendedAdvertisingWorks: Bool {
        // LE Set Advertising Set Random Address … LE Clear Advertising Sets (Core Vol 4 Part E §7.8.52–§7.8.60).
        extendedAdvertising && !refusedCommands.contains { (0x2035...0x203D).contains($0.rawValue) }
    }

    /// The model named `id`, or `nil`.
    public static func named(_ id: String) -> ControllerModel? { catalogue.first { $0.id == id } }

    /// The model a controller's Read Local Version Information points to: the same maker, a
    /// claimed version in the model's range and (where the model lists them) an LMP subversion in
    /// its ranges. The most specific match wins (one with subversions over one without); `nil`
    /// when nothing in the catalogue matches, which says nothing against the controller.
    public static func recognise(manufacturer: UInt16, hciVersion: HCIVersion, lmpSubversion: UInt16) -> ControllerModel? {
        let candidates = catalogue.filter {
            guard let recognition = $0.recognition else { return false }
            return $0.manufacturer == manufacturer && recognition.versions.contains(hciVersion)
                && (recognition.lmpSubversions.isEmpty || recognition.lmpSubversions.contains { $0.contains(lmpSubversion) })
        }
        return candidates.first { $0.recognition?.lmpSubversions.isEmpty == false } ?? candidates.first
    }
}
