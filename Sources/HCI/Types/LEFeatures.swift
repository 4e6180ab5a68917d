// SPDX-License-Identifier: GPL-2.0-or-later

/// The controller's LE feature bits, from LE Read Local Supported Features (Core Vol 6 Part B
/// §4.6 "Feature support"; bit numbers are the spec's).
@frozen
public struct LEFeatures: OptionSet, Hashable, Sendable {
    public let rawValue: UInt64
    @inlinable public init(rawValue: UInt64) { self.rawValue = rawValue }
    @inlinable init(bit: Int) { rawValue = 1 << UInt64(bit) }

    public static let encryption = LEFeatures(bit: 0)
    public static let connectionParametersRequest = LEFeatures(bit: 1)
    public static let extendedRejectIndication = LEFeatures(bit: 2)
    public static let peripheralInitiatedFeaturesExchange = LEFeatures(bit: 3)
    public static let ping = LEFeatures(bit: 4)
    public static let dataPacketLengthExtension = LEFeatures(bit: 5)
    public static let llPrivacy = LEFeatures(bit: 6)
    public static let extendedScannerFilterPolicies = LEFeatures(bit: 7)
    public static let le2MPHY = LEFeatures(bit: 8)
    public static let stableModulationIndexTransmitter = LEFeatures(bit: 9)
    public static let stableModulationIndexReceiver = LEFeatures(bit: 10)
    public static let leCodedPHY = LEFeatures(bit: 11)
    /// Bluetooth 5 extended advertising: advertising sets and the 0x2036… commands.
    public static let leExtendedAdvertising = LEFeatures(bit: 12)
    public static let lePeriodicAdvertising = LEFeatures(bit: 13)
    public static let channelSelectionAlgorithm2 = LEFeatures(bit: 14)
    public static let lePowerClass1 = LEFeatures(bit: 15)
}
