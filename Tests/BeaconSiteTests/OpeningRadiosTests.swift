// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import BeaconRadio
import BeaconSite
import Testing

/// A host's radios opened all or none, without the binary (`beacon agent`, a broker-less site).
struct OpeningRadiosTests {
    @Test func virtualRadiosOpenWithTheirIDsAndPositions() throws {
        let radios = [SiteRadio(host: "box", adapter: "virtual-a", position: Point(x: 1, y: 2)),
                      SiteRadio(host: "box", adapter: "virtual-b", position: Point(x: 5, y: 0))]
        let opened = try SiteAgent.Radio.open(radios, with: AdapterOpening(advertising: true))
        defer { opened.forEach { $0.connection.close() } }
        #expect(opened.map(\.id.description) == ["box/virtual-a", "box/virtual-b"])
        #expect(opened.map(\.position) == [Point(x: 1, y: 2), Point(x: 5, y: 0)])
    }

    @Test func anAdapterNoSpecReadsIsNamedWithItsRadioAndNothingIsOpened() {
        let radios = [SiteRadio(host: "box", adapter: "virtual-a", position: Point(x: 0, y: 0)),
                      SiteRadio(host: "box", adapter: "mgmt:wlan0", position: Point(x: 0, y: 0))]
        do throws(SiteRadioOpenError) {
            let opened = try SiteAgent.Radio.open(radios, with: AdapterOpening(advertising: true))
            opened.forEach { $0.connection.close() }
            Issue.record("opened \(opened.count) radios")
        } catch {
            guard case .adapter(let radio, _) = error else { Issue.record("\(error)"); return }
            #expect(radio.description == "box/mgmt:wlan0")
            #expect(error.description.hasPrefix("radio box/mgmt:wlan0: "), "\(error)")
        }
    }
}
