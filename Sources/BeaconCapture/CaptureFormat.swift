// SPDX-License-Identifier: GPL-2.0-or-later
import HCI

/// The container and link type of a capture file.
///
/// btsnoop: see HCI's `BTSnoop` for the layout (shared with the writer).
///
/// pcap (libpcap): a 24-byte header whose magic number gives the byte order of every header
/// field (0xA1B2C3D4 microseconds, 0xA1B23C4D nanoseconds), then 16-byte record headers.
///
/// pcapng: blocks (see ``Pcapng``); each section has its own byte order and interfaces, and each
/// interface its own link type (any of pcap's below) and timestamp resolution.
@frozen
public enum CaptureFormat: Hashable, Sendable, CustomStringConvertible {
    /// btsnoop datalink 1001: un-encapsulated HCI; flags bit 1 tells commands/events from data.
    case btsnoopHCI
    /// btsnoop datalink 1002: each record starts with the H4 packet indicator; flags bit 0 is the
    /// direction (1 received by the host).
    case btsnoopH4
    /// btsnoop datalink 2001: BlueZ's monitor format (`btmon -w`): the flags field holds the
    /// controller index (high 16 bits) and a monitor opcode (low 16 bits); see ``MonitorOpcode``.
    case btsnoopMonitor
    /// pcap link type 187 (DLT_BLUETOOTH_HCI_H4): H4 without a direction.
    case pcapH4(bigEndian: Bool, nanoseconds: Bool)
    /// pcap link type 201 (DLT_BLUETOOTH_HCI_H4_WITH_PHDR): a 4-byte big-endian direction
    /// (bit 0 set: received by the host, libpcap's `pcap-bt-linux.c`), then H4.
    case pcapH4WithPHDR(bigEndian: Bool, nanoseconds: Bool)
    /// pcap link type 254 (DLT_BLUETOOTH_LINUX_MONITOR): 2-byte adapter index and 2-byte monitor
    /// opcode, big-endian, then the packet.
    case pcapLinuxMonitor(bigEndian: Bool, nanoseconds: Bool)
    /// pcap link type 251 (DLT_BLUETOOTH_LE_LL): Link Layer packets as a sniffer hears them.
    case pcapLinkLayer(bigEndian: Bool, nanoseconds: Bool)
    /// pcap link type 256 (DLT_BLUETOOTH_LE_LL_WITH_PHDR): a 10-byte little-endian radio
    /// pseudo-header (channel, signal power, …, flags), then a Link Layer packet.
    case pcapLinkLayerWithPHDR(bigEndian: Bool, nanoseconds: Bool)
    /// pcapng (any byte order, any number of sections and interfaces).
    case pcapng

    /// pcap and pcapng link types.
    public enum PcapLinkType {
        public static let h4: UInt32 = 187
        public static let h4WithPHDR: UInt32 = 201
        public static let leLinkLayer: UInt32 = 251
        public static let linuxMonitor: UInt32 = 254
        public static let leLinkLayerWithPHDR: UInt32 = 256
    }

    /// Size of the file header (pcapng: 0, its section header is a block like the others).
    @inlinable
    public var fileHeaderSize: Int {
        switch self {
        case .btsnoopHCI, .btsnoopH4, .btsnoopMonitor: BTSnoop.fileHeaderSize
        case .pcapng: 0
        default: 24
        }
    }

    /// Size of each record header (pcapng: the block type and length every block starts with).
    @inlinable
    public var recordHeaderSize: Int {
        switch self {
        case .btsnoopHCI, .btsnoopH4, .btsnoopMonitor: BTSnoop.recordHeaderSize
        case .pcapng: 8
        default: 16
        }
    }

    @inlinable
    public var isBTSnoop: Bool {
        switch self {
        case .btsnoopHCI, .btsnoopH4, .btsnoopMonitor: true
        default: false
        }
    }

    /// The link type of a pcap file; `nil` for btsnoop and pcapng (whose interfaces each have one).
    @inlinable
    public var pcapLinkType: CaptureLinkType? {
        switch self {
        case .btsnoopHCI, .btsnoopH4, .btsnoopMonitor, .pcapng: nil
        case .pcapH4: .h4
        case .pcapH4WithPHDR: .h4WithPHDR
        case .pcapLinuxMonitor: .linuxMonitor
        case .pcapLinkLayer: .leLinkLayer
        case .pcapLinkLayerWithPHDR: .leLinkLayerWithPHDR
        }
    }

    /// Recognises a file header; `nil` when it is neither btsnoop, pcap nor pcapng.
    public static func detect(header h: UnsafeRawBufferPointer) throws(CaptureError) -> CaptureFormat? {
        if h.count >= 4, CaptureBytes.uint32(h, 0, bigEndian: true) == Pcapng.BlockType.sectionHeader {
            // The reader checks the byte-order magic with the rest of the block.
            return .pcapng
        }
        if h.count >= BTSnoop.fileHeaderSize, CaptureBytes.uint64BE(h, 0) == BTSnoop.identification {
            let datalink = CaptureBytes.uint32(h, 12, bigEndian: true)
            switch datalink {
            case BTSnoop.Datalink.hci: return .btsnoopHCI
            case BTSnoop.Datalink.h4: return .btsnoopH4
            case BTSnoop.Datalink.monitor: return .btsnoopMonitor
            default: throw .unsupportedLinkType(format: "btsnoop", value: datalink)
            }
        }
        guard h.count >= 24 else { return nil }
        let magicBE = CaptureBytes.uint32(h, 0, bigEndian: true)
        let bigEndian: Bool
        let nanoseconds: Bool
        switch magicBE {
        case 0xA1B2_C3D4: (bigEndian, nanoseconds) = (true, false)
        case 0xA1B2_3C4D: (bigEndian, nanoseconds) = (true, true)
        case 0xD4C3_B2A1: (bigEndian, nanoseconds) = (false, false)
        case 0x4D3C_B2A1: (bigEndian, nanoseconds) = (false, true)
        default: return nil
        }
        // The link type's low 16 bits; the upper bits may carry an FCS length (pcap-savefile(5)).
        let linkType = CaptureBytes.uint32(h, 20, bigEndian: bigEndian) & 0xFFFF
        switch CaptureLinkType(linkType) {
        case .h4: return .pcapH4(bigEndian: bigEndian, nanoseconds: nanoseconds)
        case .h4WithPHDR: return .pcapH4WithPHDR(bigEndian: bigEndian, nanoseconds: nanoseconds)
        case .linuxMonitor: return .pcapLinuxMonitor(bigEndian: bigEndian, nanoseconds: nanoseconds)
        case .leLinkLayer: return .pcapLinkLayer(bigEndian: bigEndian, nanoseconds: nanoseconds)
        case .leLinkLayerWithPHDR: return .pcapLinkLayerWithPHDR(bigEndian: bigEndian, nanoseconds: nanoseconds)
        case nil: throw .unsupportedLinkType(format: "pcap", value: linkType)
        }
    }

    public var description: String {
        switch self {
        case .btsnoopHCI: "btsnoop (HCI, 1001)"
        case .btsnoopH4: "btsnoop (H4, 1002)"
        case .btsnoopMonitor: "btsnoop (BlueZ monitor, 2001)"
        case let .pcapH4(be, ns): "pcap (H4, 187\(Self.suffix(be, ns)))"
        case let .pcapH4WithPHDR(be, ns): "pcap (H4 with direction, 201\(Self.suffix(be, ns)))"
        case let .pcapLinuxMonitor(be, ns): "pcap (Linux monitor, 254\(Self.suffix(be, ns)))"
        case let .pcapLinkLayer(be, ns): "pcap (LE Link Layer, 251\(Self.suffix(be, ns)))"
        case let .pcapLinkLayerWithPHDR(be, ns): "pcap (LE Link Layer with radio header, 256\(Self.suffix(be, ns)))"
        case .pcapng: "pcapng"
        }
    }

    private static func suffix(_ bigEndian: Bool, _ nanoseconds: Bool) -> String {
        (bigEndian ? ", big-endian" : ", little-endian") + (nanoseconds ? ", ns" : ", µs")
    }
}

/// The pcap and pcapng link types the reader understands (values in ``CaptureFormat/PcapLinkType``).
@frozen
public enum CaptureLinkType: Hashable, Sendable {
    case h4, h4WithPHDR, linuxMonitor, leLinkLayer, leLinkLayerWithPHDR

    /// `nil` for a link type the reader does not understand.
    @inlinable
    public init?(_ value: UInt32) {
        switch value {
        case CaptureFormat.PcapLinkType.h4: self = .h4
        case CaptureFormat.PcapLinkType.h4WithPHDR: self = .h4WithPHDR
        case CaptureFormat.PcapLinkType.linuxMonitor: self = .linuxMonitor
        case CaptureFormat.PcapLinkType.leLinkLayer: self = .leLinkLayer
        case CaptureFormat.PcapLinkType.leLinkLayerWithPHDR: self = .leLinkLayerWithPHDR
        default: return nil
        }
    }
}

/// Integer reads from raw capture bytes (no alignment assumed).
@usableFromInline
enum CaptureBytes {
    @inlinable
    static func uint32(_ b: UnsafeRawBufferPointer, _ i: Int, bigEndian: Bool) -> UInt32 {
        let v = b.loadUnaligned(fromByteOffset: i, as: UInt32.self)
        return bigEndian ? UInt32(bigEndian: v) : UInt32(littleEndian: v)
    }

    @inlinable
    static func uint64(_ b: UnsafeRawBufferPointer, _ i: Int, bigEndian: Bool) -> UInt64 {
        let v = b.loadUnaligned(fromByteOffset: i, as: UInt64.self)
        return bigEndian ? UInt64(bigEndian: v) : UInt64(littleEndian: v)
    }

    @inlinable
    static func uint64BE(_ b: UnsafeRawBufferPointer, _ i: Int) -> UInt64 {
        UInt64(bigEndian: b.loadUnaligned(fromByteOffset: i, as: UInt64.self))
    }

    @inlinable
    static func uint16(_ b: UnsafeRawBufferPointer, _ i: Int, bigEndian: Bool) -> UInt16 {
        let v = b.loadUnaligned(fromByteOffset: i, as: UInt16.self)
        return bigEndian ? UInt16(bigEndian: v) : UInt16(littleEndian: v)
    }

    @inlinable
    static func uint16BE(_ b: UnsafeRawBufferPointer, _ i: Int) -> UInt16 {
        UInt16(bigEndian: b.loadUnaligned(fromByteOffset: i, as: UInt16.self))
    }
}
