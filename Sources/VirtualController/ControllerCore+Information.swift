// SPDX-License-Identifier: GPL-2.0-or-later
import HCI

extension ControllerCore {
    /// Read Local Version Information (§7.4.1): HCI and LMP version alike, as single-mode LE
    /// controllers report them.
    func readLocalVersionInformation() -> HCIReadLocalVersionInformation.ReturnParameters {
        .init(hciVersion: configuration.hciVersion, hciRevision: configuration.hciRevision ?? configuration.subversion, lmpVersion: configuration.hciVersion,
              manufacturer: configuration.manufacturer, lmpSubversion: configuration.subversion)
    }

    /// LE Read Local Supported Features (§7.8.3): only what this controller really does. No 2M
    /// or Coded PHY, so advertising and scanning on them is refused as unsupported.
    var leFeatures: LEFeatures { configuration.supportsExtendedAdvertising ? [.leExtendedAdvertising] : [] }
}
