// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconProfiles
import Testing

/// The one duration grammar of the command line and the files (scenario times).
@Suite struct DurationSyntaxTests {
    @Test("bare seconds, one unit, compound values, spaces around", arguments: [
        ("5", 5.0), ("0.5", 0.5), ("-1", -1), ("30s", 30), ("500ms", 0.5), ("2m", 120), ("1h", 3600),
        ("1m30s", 90), ("1h2m3.5s", 3723.5), ("1s500ms", 1.5), (" 35 s ", 35), ("1m 30s", 90), (".5s", 0.5),
    ])
    func reads(text: String, seconds: Double) {
        #expect(DurationSyntax.seconds(text) == seconds)
    }

    @Test("not a duration: units out of order or repeated, unknown units, signs on units, no number", arguments: [
        "", "s", "30s1m", "1m1m", "5x", "1d", "-1s", "1e3s", "inf", "nan", "0x10", "1..5s", "1m30",
    ])
    func refuses(text: String) {
        #expect(DurationSyntax.seconds(text) == nil)
    }
}
