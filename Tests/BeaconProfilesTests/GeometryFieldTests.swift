// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconProfiles
import Testing

/// A fleet's `receiver_height:` and a beacon's `calibration_error:`: the geometry and the
/// radiated power the virtual air and positioning share (docs/PROFILES.md, docs/AIR.md).
@Suite("receiver_height and calibration_error")
struct GeometryFieldTests {
    static func fleet(top: String = "", beacon: String = "") -> String {
        "name: hall\n\(top)beacons:\n  - {uuid: E2C56DB5-DFFB-48D2-B060-D0F5A71096E0, major: 1, minor: 1\(beacon)}\n"
    }

    @Test("accepted, and 0 when left out")
    func accepted() throws {
        let fleet = try ProfileLoader.parse(Self.fleet(top: "receiver_height: 1.2\n", beacon: ", calibration_error: -6.5"), file: "hall.yaml")
        #expect(fleet.receiverHeight == 1.2)
        #expect(fleet.beacons[0].calibrationError == -6.5)
        let plain = try ProfileLoader.parse(Self.fleet(), file: "hall.yaml")
        #expect(plain.receiverHeight == 0 && plain.beacons[0].calibrationError == 0)
        // Written back as read.
        #expect(FleetWriter.yaml(name: "hall", beacons: fleet.beacons).contains("calibration_error: -6.5"))
        // list --json: only when not 0.
        #expect(fleet.beacons[0].json(file: "hall.yaml").text.contains(#""calibration_error":-6.5"#))
        #expect(!plain.beacons[0].json(file: "hall.yaml").text.contains("calibration_error"))
    }

    @Test("bad values: file, line, column, field and the allowed range", arguments: [
        (Self.fleet(top: "receiver_height: high\n"), "receiver_height", 2, 18, "must be a number of metres"),
        (Self.fleet(top: "receiver_height: 2e6\n"), "receiver_height", 2, 18, "from -1000000 to 1000000"),
        (Self.fleet(beacon: ", calibration_error: 50"), "calibration_error", 3, 89, "from -40 to 40"),
    ])
    func refused(text: String, field: String, line: Int, column: Int, message: String) throws {
        do {
            _ = try ProfileLoader.parse(text, file: "hall.yaml")
            Issue.record("accepted: \(text)")
        } catch {
            let issue = try #require(error.issues.first)
            #expect(error.issues.count == 1, "\(error)")
            #expect(issue.location.file == "hall.yaml" && issue.location.line == line && issue.location.column == column, "\(error)")
            #expect(issue.field == field && issue.message.contains(message), "\(error)")
        }
    }
}
