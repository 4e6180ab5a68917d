// SPDX-License-Identifier: GPL-2.0-or-later
import Testing
import TextLayout

/// The one number formatter: columns of fixed decimals, coordinates with their sign.
@Suite struct NumberTextTests {
    @Test func fixedPadsToItsPlaces() {
        #expect(NumberText.fixed(1.5) == "1.50" && NumberText.fixed(12) == "12.00" && NumberText.fixed(-1.034) == "-1.03")
        #expect(NumberText.fixed(4, places: 1) == "4.0" && NumberText.fixed(0.0004, places: 3) == "0.000")
    }

    @Test func signedAlwaysWritesTheSignAndNeverMinusZero() {
        #expect(NumberText.signed(0.52) == "+0.52" && NumberText.signed(-1.034) == "-1.03" && NumberText.signed(3) == "+3.00")
        #expect(NumberText.signed(-0.001) == "+0.00", "rounds to zero: no -0.00")
        #expect(NumberText.signed(-2.5, places: 1) == "-2.5")
    }
}
