// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import BeaconRadio
import Testing
@testable import BeaconSite

/// What `-i` a radio's adapter name stands for: several virtual radios on one host have names of
/// their own, and may carry the virtual controller's options after a colon.
@Suite struct RadioAdapterSpecTests {
    @Test(arguments: [
        ("hci0", "hci0"), ("user:hci1", "user:hci1"), ("virtual", "virtual"), ("virtual:sets=64", "virtual:sets=64"),
        ("virtual-east", "virtual"), ("virtual2", "virtual"), ("virtual-east:sets=64", "virtual:sets=64"),
        ("virtual-a:sets=64,version=5.2", "virtual:sets=64,version=5.2"),
    ])
    func theAdapterSpec(_ name: String, _ spec: String) {
        #expect(SiteRadio(host: "pi", adapter: AdapterName(name), position: Point(x: 0, y: 0)).adapterSpecText == spec)
    }
}
