// SPDX-License-Identifier: GPL-2.0-or-later
import HCI

/// The container and link type of a capture file.
///
/// btsnoop: see HCI's `BTSnoop` for the layout (shared with the writer).
///
/// pcap (libpcap): a 24-byte header whose magic number gives the byte order of every header
/// field (0xA1B2C3D4 microseconds, 0xA1B23C4D nanoseconds), then 16-byte record headers.
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

    /// pcap link types.
    public enum PcapLinkType {
        public static let h4: UInt32 = 187
        public static let h4WithPHDR: UInt32 = 201
        public static let linuxMonitor: UInt32 = 254
    }

    /// Size of the file header.
    @inlinable
    public var fileHeaderSize: Int { isBTSnoop ? BTSnoop.fileHeaderSize : 24 }

    /// Size of each record header.
    @inlinable
    public var recordHeaderSize: Int { isBTSnoop ? BTSnoop.recordHeaderSize : 16 }

    @inlinable
    public var isBTSnoop: Bool {
        switch self {
        case .btsnoopHCI, .btsnoopH4, .btsnoopMonitor: true
        case .pcapH4, .pcapH4WithPHDR, .pcapLinuxMonitor: false
        }
    }

    /// Recognises a file header; `nil` when it is neither btsnoop nor pcap.
    public static func detect(header h: UnsafeRawBufferPointer) throws(CaptureError) -> CaptureFormat? {
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
        switch linkType {
        case PcapLinkType.h4: return .pcapH4(bigEndian: bigEndian, nanoseconds: nanoseconds)
        case PcapLinkType.h4WithPHDR: return .pcapH4WithPHDR(bigEndian: bigEndian, nanoseconds: nanoseconds)
        case PcapLinkType.linuxMonitor: return .pcapLinuxMonitor(bigEndian: bigEndian, nanoseconds: nanoseconds)
        default: throw .unsupportedLinkType(format: "pcap", value: linkType)
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
        }
    }

    private static func suffix(_ bigEndian: Bool, _ nanoseconds: Bool) -> String {
        (bigEndian ? ", big-endian" : ", little-endian") + (nanoseconds ? ", ns" : ", µs")
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
    static func uint64BE(_ b: UnsafeRawBufferPointer, _ i: Int) -> UInt64 {
        UInt64(bigEndian: b.loadUnaligned(fromByteOffset: i, as: UInt64.self))
    }

    @inlinable
    static func uint16BE(_ b: UnsafeRawBufferPointer, _ i: Int) -> UInt16 {
        UInt16(bigEndian: b.loadUnaligned(fromByteOffset: i, as: UInt16.self))
    }
}
