// SPDX-License-Identifier: GPL-2.0-or-later

/// The Flags AD structure (AD type 0x01) an iBeacon payload starts with, if any.
///
/// Core Specification Supplement, Part A §1.3: bit 1 is "LE General Discoverable Mode", bit 2 "BR/EDR
/// Not Supported", bits 3–4 the simultaneous LE and BR/EDR capabilities.
public enum BeaconFlags: Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// `02 01 06`: LE General Discoverable, BR/EDR not supported. Apple's iBeacon specification uses this.
    case generalDiscoverable
    /// `02 01 1A`: LE General Discoverable plus simultaneous LE and BR/EDR (controller and host), as
    /// many commercial beacons (Kontakt.io, Estimote) and phones acting as beacons send.
    case generalDiscoverableSimultaneous
    /// No flags structure: the payload is the 27-byte manufacturer structure alone.
    case none

    /// The flags byte, or `nil` for ``none``.
    @inlinable
    public var byte: UInt8? {
        switch self {
        case .generalDiscoverable: return 0x06
        case .generalDiscoverableSimultaneous: return 0x1A
        case .none: return nil
        }
    }

    /// The option for a flags byte; `nil` for bytes other than 0x06 and 0x1A.
    @inlinable
    public init?(byte: UInt8?) {
        switch byte {
        case .some(0x06): self = .generalDiscoverable
        case .some(0x1A): self = .generalDiscoverableSimultaneous
        case .none: self = .none
        default: return nil
        }
    }

    /// Parses `0x06`, `6`, `0x1A`, `26`, `none` (the spellings profile files and the CLI accept).
    public init?(text: String) {
        switch text.lowercased() {
        case "0x06", "06", "6": self = .generalDiscoverable
        case "0x1a", "1a", "26": self = .generalDiscoverableSimultaneous
        case "none", "no", "off", "false": self = .none
        default: return nil
        }
    }

    /// Size of the structure this option writes: 3 (`02 01 xx`), or 0 for ``none``.
    @inlinable
    public var structureSize: Int { byte == nil ? 0 : 3 }

    /// Writes the Flags structure (if any) at the start of `buffer` and returns its size; every
    /// beacon format's encoder starts with it.
    @inlinable
    public func write(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard let f = byte else { return 0 }
        buffer[0] = 0x02  // length: type + 1 byte of flags
        buffer[1] = ADType.flags.rawValue
        buffer[2] = f
        return 3
    }

    public var description: String {
        switch self {
        case .generalDiscoverable: return "0x06"
        case .generalDiscoverableSimultaneous: return "0x1A"
        case .none: return "none"
        }
    }
}
