// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconRadio

/// Where a walker is on the shared virtual air: `beacon walk -i virtual` sends the walker's
/// position with its advertising events, and a receiver that follows the walker
/// (`locate --live -i virtual --follow-walker`) stands there, so it hears the fixed beacons as
/// the walker would and its estimate follows the walk.
///
/// The datagram: `BWLK`, version 1, then x, y, z as IEEE 754 binary64 little-endian (metres).
/// Like ``AirDatagram``, a malformed one is dropped whole.
enum AirWalkerDatagram {
    static let magic: [UInt8] = Array("BWLK".utf8)
    static let version: UInt8 = 1

    static func encode(_ point: Point) -> [UInt8] {
        var out = magic + [version]
        for v in [point.x, point.y, point.z] {
            for i in 0..<8 { out.append(UInt8(truncatingIfNeeded: v.bitPattern >> UInt64(8 * i))) }
        }
        return out
    }

    /// The walker's position, or nil when `bytes` is not a walker datagram.
    static func decode(_ bytes: ArraySlice<UInt8>) -> Point? {
        guard bytes.count == magic.count + 1 + 24, Array(bytes.prefix(magic.count)) == magic,
              bytes[bytes.startIndex + magic.count] == version else { return nil }
        var values: [Double] = []
        var index = bytes.startIndex + magic.count + 1
        for _ in 0..<3 {
            let bits = bytes[index..<index + 8].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            values.append(Double(bitPattern: bits))
            index += 8
        }
        guard values.allSatisfy(\.isFinite) else { return nil }
        return Point(x: values[0], y: values[1], z: values[2])
    }
}
