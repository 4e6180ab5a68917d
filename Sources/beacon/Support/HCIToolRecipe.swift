// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// The `hcitool cmd` lines that make a BlueZ box advertise one beacon with the legacy LE
/// advertising commands (OGF 0x08, LE Controller commands; Core Vol 4 Part E §7.8):
///
/// 1. LE Set Advertising Enable (0x000A) `00`: parameters and the random address may not change
///    while advertising is on (the controller answers Command Disallowed, 0x0C), so the recipe
///    first turns it off; harmless when it is already off.
/// 2. LE Set Random Address (0x0005), only when the beacon has its own address: 6 bytes, least
///    significant first (§7.8.4).
/// 3. LE Set Advertising Data (0x0008): the significant length, then 31 bytes zero-padded (§7.8.7).
/// 4. LE Set Advertising Parameters (0x0006), 15 bytes (§7.8.5): interval min and max (2 bytes
///    each, little-endian, 0.625 ms units), type 0x03 ADV_NONCONN_IND, own address type (0x00
///    public, 0x01 random), peer address type and peer address (unused for this type: zeros),
///    channel map 0x07 (37, 38 and 39), filter policy 0x00.
/// 5. LE Set Advertising Enable (0x000A) `01` (§7.8.9).
///
/// Opcodes print like hcitool's own examples (`0x08 0x0008`), parameter bytes in upper-case hex.
struct HCIToolRecipe {
    /// The adapter name passed to `hcitool -i`.
    var adapter: String

    static let leControllerOGF: UInt8 = 0x08
    static let setRandomAddress: UInt16 = 0x0005
    static let setAdvertisingParameters: UInt16 = 0x0006
    static let setAdvertisingData: UInt16 = 0x0008
    static let setAdvertisingEnable: UInt16 = 0x000A
    static let advNonconnInd: UInt8 = 0x03
    static let publicOwnAddress: UInt8 = 0x00
    static let randomOwnAddress: UInt8 = 0x01
    static let allAdvertisingChannels: UInt8 = 0x07
    static let noFilterPolicy: UInt8 = 0x00

    func lines(for transmission: BeaconTransmission) -> [String] {
        var lines = [command(Self.setAdvertisingEnable, [0x00])]
        if let address = transmission.address {
            let a = address.littleEndianBytes
            lines.append(command(Self.setRandomAddress, [a.0, a.1, a.2, a.3, a.4, a.5]))
        }
        let payload = transmission.payload
        var data = [UInt8(payload.count)] + Array(payload)
        data += [UInt8](repeating: 0, count: AdvertisingPayload.capacity - payload.count)
        lines.append(command(Self.setAdvertisingData, data))

        let interval = transmission.intervalUnits
        let intervalBytes = [UInt8(truncatingIfNeeded: interval), UInt8(truncatingIfNeeded: interval >> 8)]
        let ownAddressType = transmission.address == nil ? Self.publicOwnAddress : Self.randomOwnAddress
        let parameters = intervalBytes + intervalBytes
            + [Self.advNonconnInd, ownAddressType, 0x00]
            + [UInt8](repeating: 0, count: 6)
            + [Self.allAdvertisingChannels, Self.noFilterPolicy]
        lines.append(command(Self.setAdvertisingParameters, parameters))
        lines.append(command(Self.setAdvertisingEnable, [0x01]))
        return lines
    }

    private func command(_ ocf: UInt16, _ parameters: [UInt8]) -> String {
        let ogf = "0x" + Hex.string([Self.leControllerOGF]).lowercased()
        let ocfText = "0x" + Hex.string([UInt8(ocf >> 8), UInt8(ocf & 0xFF)]).lowercased()
        return "hcitool -i \(adapter) cmd \(ogf) \(ocfText) " + Hex.string(parameters, separator: " ")
    }
}
