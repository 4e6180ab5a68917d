// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconProfiles
import Testing

/// A step changes only fields the named beacon's format has; an Eddystone frame's power at 0 m
/// is one of them.
@Suite("scenario steps by format")
struct FormatStepTests {
    static let fleet = """
        fleet:
          beacons:
            - {name: door, uuid: 8F0C4E62-3B1A-4C7E-9D52-6A1F0B2C3D4E, major: 1, minor: 1}
            - {name: alt, format: altbeacon, uuid: 8F0C4E62-3B1A-4C7E-9D52-6A1F0B2C3D4E, major: 1, minor: 2}
            - {name: eddy, format: eddystone-uid, namespace: 00112233445566778899, instance: 000000000001}
            - {name: raw, format: raw, data: 0201061AFF4C0002158F0C4E623B1A4C7E9D526A1F0B2C3D4E00010005C5}

        """

    @Test("a field the format lacks: refused at its key, naming the beacon, its format and the fields it has", arguments: [
        ("steps: [{at: 1, beacon: eddy, minor: 3}]", "7:31 steps.minor: 3: `eddy` (format eddystone-uid) has no minor; a step changes its power_at_0m, tx_power, interval"),
        ("steps: [{at: 1, beacon: [door, eddy], measured_power: -60}]", "7:39 steps.measured_power: -60: `eddy` (format eddystone-uid) has no measured_power"),
        ("steps: [{at: 1, beacon: door, power_at_0m: -20}]", "7:31 steps.power_at_0m: -20: `door` (format ibeacon) has no power_at_0m; a step changes its major, minor, measured_power, tx_power, interval"),
        ("steps: [{at: 1, beacon: raw, major: 2}]", "7:30 steps.major: 2: `raw` (format raw-data) has no major; a step changes its tx_power, interval"),
        ("steps: [{at: 1, beacon: eddy, power_at_0m: -101}]", "7:44 steps.power_at_0m: -101: must be an integer from -100 to 20"),
    ])
    func refused(text: String, expected: String) {
        do {
            _ = try ScenarioLoader.parse(Self.fleet + text + "\n", file: "s.yaml")
            Issue.record("accepted: \(text)")
        } catch {
            let found = error.issues.map { "\($0.location.line):\($0.location.column) \($0.field): \($0.value): \($0.message)" }
            #expect(found.count == 1 && found[0].hasPrefix(expected), "\(found)\nexpected \(expected)…")
        }
    }

    @Test("power_at_0m changes an Eddystone frame's power; AltBeacons take major, minor and measured power as iBeacons do")
    func applied() throws {
        let scenario = try ScenarioLoader.parse(Self.fleet + """
            steps:
              - {at: 1, beacon: eddy, power_at_0m: -30, tx_power: -8}
              - {at: 2, beacon: alt, minor: 9, measured_power: -70}

            """, file: "s.yaml")
        let timeline = ScenarioTimeline(scenario)
        let end = timeline.state(at: 3).beacons
        guard case .eddystoneUID(let uid) = end[2].beacon else { Issue.record("\(end[2])"); return }
        #expect(uid.txPower == -30 && end[2].txPower == -8)
        #expect(end[1].beacon.powerAt1m == -70 && end[1].beacon.key.map { "\($0)" }?.contains("9") == true, "\(end[1].beacon)")
        #expect(timeline.pass[0].change.description == "eddy: power_at_0m -30, tx_power -8")
    }
}
