// SPDX-License-Identifier: GPL-2.0-or-later
import HCITransport
import VirtualController

extension ControllerCapabilities {
    /// The controllers a run on `specs` would find, assumed without opening anything (for a dry
    /// run): the virtual controller's own configuration for `virtual:…`; otherwise a Bluetooth 5
    /// controller with `sets` advertising sets (16 when nil), or a Bluetooth 4.2 legacy one when
    /// `legacy`. No adapters named means the first kernel adapter, as every kernel adapter does.
    public static func assumed(for specs: [AdapterSpec]?, legacy: Bool, sets: Int?) -> [ControllerCapabilities] {
        let specs = (specs ?? [.kernel(id: 0)]).map { $0 == .allKernel ? AdapterSpec.kernel(id: 0) : $0 }
        return specs.map { spec in
            if case .virtual(let options) = spec, let configuration = try? VirtualController.Configuration(options: options) {
                return ControllerCapabilities(virtual: configuration, adapter: AdapterName(spec))
            }
            return legacy
                ? .assumedLegacy(adapter: AdapterName(spec))
                : .assumedExtended(adapter: AdapterName(spec), sets: sets ?? defaultAssumedSets)
        }
    }

    /// The advertising sets an assumed Bluetooth 5 controller has unless told otherwise.
    public static let defaultAssumedSets = 16

    /// What probing a virtual controller with `configuration` would find.
    public init(virtual configuration: VirtualController.Configuration, adapter: AdapterName) {
        let extended = configuration.supportsExtendedAdvertising
        self.init(
            adapter: adapter, hciVersion: configuration.hciVersion, lmpVersion: configuration.hciVersion,
            manufacturer: configuration.manufacturer, address: configuration.publicAddress,
            leFeatures: extended ? [.leExtendedAdvertising] : [],
            advertisingSets: extended ? configuration.advertisingSets : 0,
            maximumDataLength: extended ? configuration.maximumAdvertisingDataLength : 31,
            txPowerRange: extended ? configuration.txPowerRange : nil)
    }
}
