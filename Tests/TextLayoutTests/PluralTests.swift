// SPDX-License-Identifier: GPL-2.0-or-later
import TextLayout
import Testing

/// The one pluralising helper every message counts with.
@Suite struct PluralTests {
    @Test func nounsAndVerbsAgreeWithTheCount() {
        #expect(Plural.of(1, "beacon") == "1 beacon")
        #expect(Plural.of(0, "beacon") == "0 beacons")
        #expect(Plural.of(2, "entry", plural: "entries") == "2 entries")
        #expect(Plural.word(1.0, "event") + "/s" == "event/s")
        #expect(Plural.word(1.5, "event") + "/s" == "events/s")
        #expect(Plural.verb(1, singular: "asks", plural: "ask") == "asks")
        #expect(Plural.verb(3, singular: "asks", plural: "ask") == "ask")
    }
}
