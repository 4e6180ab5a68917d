// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

extension Hex {
    /// Two upper-case hex digits, for messages (`0C`).
    @usableFromInline static func byte(_ value: UInt8) -> String { Hex.string([value]) }
    /// Four upper-case hex digits, for messages (`2006`).
    @usableFromInline static func word(_ value: UInt16) -> String { Hex.string([UInt8(value >> 8), UInt8(truncatingIfNeeded: value)]) }
}
