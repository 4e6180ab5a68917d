// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconProfiles
import Testing

/// A fleet's `air:`: a preset or a preset with overrides, checked like every other field.
@Suite("fleet air:")
struct AirFieldTests {
    static func fleet(_ air: String) -> String {
        "name: hall\nair: \(air)\nbeacons:\n  - uuid: E2C56DB5-DFFB-48D2-B060-D0F5A71096E0\n    major: 1\n    minor: 1\n"
    }

    @Test("a preset, or a preset with overrides; none without air:")
    func accepted() throws {
        #expect(try ProfileLoader.parse(Self.fleet("office"), file: "hall.yaml").air == .office)
        let custom = try #require(try ProfileLoader.parse(Self.fleet("{preset: station, sigma: 4, exponent: 2.5, fading: \"rician:3\", loss: 0.1, seed: 7}"),
                                                           file: "hall.yaml").air)
        #expect(custom.name == "station+" && custom.shadowingSigma == 4 && custom.exponent == 2.5)
        #expect(custom.fading == .rician(kFactor: 3) && custom.randomLoss == 0.1 && custom.seed == 7 && custom.collisions)
        let walled = try #require(try ProfileLoader.parse(Self.fleet("{preset: clean, wall_db: 5}"), file: "hall.yaml").air)
        #expect(walled.wallLoss == 5 && walled.name == "clean+" && walled.walls.isEmpty)
        let none = "name: hall\nbeacons:\n  - uuid: E2C56DB5-DFFB-48D2-B060-D0F5A71096E0\n    major: 1\n    minor: 1\n"
        #expect(try ProfileLoader.parse(none, file: "hall.yaml").air == nil)
    }

    @Test("bad values: file, line, column, field and the allowed values", arguments: [
        ("attic", "air", 6, "must be one of clean, office, station"),
        ("{preset: office, sigma: 30}", "air.sigma", 30, "from 0 to 20"),
        ("{exponent: 0.5}", "air.exponent", 17, "from 1 to 6"),
        ("{fading: rice}", "air.fading", 15, "rician:K"),
        ("{loss: 2}", "air.loss", 13, "from 0 to 1"),
        ("{wall_db: 50}", "air.wall_db", 16, "from 0 to 40"),
        ("{sigmas: 3}", "air.sigmas", 7, "did you mean `sigma`"),
    ])
    func refused(air: String, field: String, column: Int, message: String) throws {
        do {
            _ = try ProfileLoader.parse(Self.fleet(air), file: "hall.yaml")
            Issue.record("air: \(air) was accepted")
        } catch {
            let issue = try #require(error.issues.first)
            #expect(error.issues.count == 1, "\(error)")
            #expect(issue.location.file == "hall.yaml" && issue.location.line == 2 && issue.location.column == column, "\(error)")
            #expect(issue.field == field && issue.message.contains(message), "\(error)")
        }
    }
}
