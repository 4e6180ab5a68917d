// SPDX-License-Identifier: GPL-2.0-or-later
import HCI
import Testing

/// Library messages name concepts; a front end names them its own way.
@Suite struct FrontEndTermTests {
    static let all: [FrontEndTerm] = [
        .stop, .stopWithReset, .stopOn(adapter: "raw:hci0"), .examineAdapter, .listAdapters, .adapter("raw:hci0"),
        .trafficCapture, .maximumSilence, .dryRun,
    ]

    /// Without a front end's names, every term is the concept in words, naming no option.
    @Test func theConceptIsWordsWithoutOptions() {
        for term in Self.all {
            #expect(term.text(namedBy: { _ in nil }) == term.conceptText)
            #expect(!term.conceptText.contains("--") && !term.conceptText.contains("-i "), "\(term.conceptText)")
        }
        #expect(Set(Self.all.map(\.conceptText)).count == Self.all.count, "each concept in its own words")
        #expect(FrontEndTerm.adapter("raw:hci0").conceptText.contains("raw:hci0"))
    }

    @Test func aFrontEndsNameIsUsedWhereItHasOne() {
        let naming: (FrontEndTerm) -> String? = { term in
            switch term {
            case .stopWithReset: "tool stop --reset"
            case .adapter(let spec): "--adapter \(spec)"
            default: nil
            }
        }
        #expect(FrontEndTerm.stopWithReset.text(namedBy: naming) == "tool stop --reset")
        #expect(FrontEndTerm.adapter("virtual").text(namedBy: naming) == "--adapter virtual")
        #expect(FrontEndTerm.examineAdapter.text(namedBy: naming) == FrontEndTerm.examineAdapter.conceptText)
    }

    /// The explanations that advise a stop or a reset name the term, not a command line.
    @Test func explanationsNameTheTerm() {
        #expect(HCIStatus.commandDisallowed.explanation?.contains(FrontEndTerm.stop.text) == true)
        #expect(HCIStatus(rawValue: 0x03).explanation?.contains(FrontEndTerm.stop.text) == true)
    }
}
