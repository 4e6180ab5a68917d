// SPDX-License-Identifier: GPL-2.0-or-later
import Testing
@testable import BeaconProfiles

/// The strict number spellings and the "did you mean" matcher behind the loader's messages.
@Suite struct ScalarSyntaxTests {
    @Test(arguments: [
        ("12", NumberSyntax.IntegerReading.value(12)), ("-59", .value(-59)), ("+4", .value(4)), ("0x1A", .value(26)),
        ("0X1a", .value(26)), ("010", .value(10)), ("1.5", .fractional), ("1e3", .fractional), ("1.0", .fractional),
        ("99999999999999999999999", .overflow), ("0x", .notANumber), ("1_000", .notANumber), ("twelve", .notANumber),
        ("", .notANumber), ("-", .notANumber), ("0o17", .notANumber), (".inf", .notANumber), ("1:30", .notANumber),
    ])
    func integers(text: String, reading: NumberSyntax.IntegerReading) {
        #expect(NumberSyntax.integer(text) == reading)
    }

    @Test(arguments: [("100", 100.0), ("152.5", 152.5), ("-1.5", -1.5), (".5", 0.5), ("5.", 5), ("2.5e3", 2500), ("1E-1", 0.1)])
    func decimals(text: String, value: Double) {
        #expect(NumberSyntax.decimal(text) == value)
    }

    @Test(arguments: ["", ".", "-", "1e", "e3", ".inf", "nan", "inf", "0x10", "1,5", "1.2.3", "1e400", "1 0"])
    func notDecimals(text: String) {
        #expect(NumberSyntax.decimal(text) == nil)
    }

    @Test func suggestions() {
        let keys = ProfileKeys.beacon
        #expect(KeySuggestion.closest(to: "mesured_power", among: keys) == "measured_power")
        #expect(KeySuggestion.closest(to: "measuredPower", among: keys) == "measured_power")
        #expect(KeySuggestion.closest(to: "TX-Power", among: keys) == "tx_power")
        #expect(KeySuggestion.closest(to: "uid", among: keys) == "uuid")
        #expect(KeySuggestion.closest(to: "intervall", among: keys) == "interval")
        #expect(KeySuggestion.closest(to: "colour", among: keys) == nil)
        #expect(KeySuggestion.closest(to: "w", among: ProfileKeys.position) == nil)
        #expect(KeySuggestion.editDistance(Array("kitten"), Array("sitting")) == 3)
    }
}
