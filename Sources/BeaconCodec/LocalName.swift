// SPDX-License-Identifier: GPL-2.0-or-later

/// The Complete Local Name AD structure (Core Specification Supplement Part A §1.2, AD type
/// 0x09: UTF-8, not terminated) as a beacon's scan response carries it: `LL 09 name…`.
public enum LocalName {
    /// The longest name one legacy scan response holds: 31 bytes less the length and type bytes.
    public static let maximumBytes = AdvertisingPayload.capacity - 2

    /// The scan response data holding `name` alone; `nil` when its UTF-8 is empty or longer
    /// than ``maximumBytes``.
    public static func scanResponse(_ name: some StringProtocol) -> AdvertisingPayload? {
        let count = name.utf8.count
        guard count > 0, count <= maximumBytes else { return nil }
        return AdvertisingPayload { buffer in
            buffer[0] = UInt8(count + 1)
            buffer[1] = ADType.completeLocalName.rawValue
            var i = 2
            for byte in name.utf8 {
                buffer[i] = byte
                i += 1
            }
            return i
        }
    }
}
