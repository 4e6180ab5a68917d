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

    /// The explanations that advise a stop or a reset keep the term, not a command line.
    @Test func explanationsNameTheTerm() {
        #expect(HCIStatus.commandDisallowed.explanation?.pieces.contains(.term(.stop)) == true)
        #expect(HCIStatus(rawValue: 0x03).explanation?.pieces.contains(.term(.stop)) == true)
    }

    /// Two front ends in one process each name a status explanation their own way (no library
    /// holds either's names), and a program without names gets the concept.
    @Test func twoFrontEndsInOneProcessEachUseTheirOwnNames() {
        let failure = HCICommandError.failed(command: "LE Set Extended Advertising Enable", opcode: HCIOpcode(rawValue: 0x2039),
                                             status: .commandDisallowed)
        let cli: (FrontEndTerm) -> String? = { $0 == .stop ? "`beacon stop`" : nil }
        let web: (FrontEndTerm) -> String? = { $0 == .stop ? "the Stop button" : nil }
        let named = (cli: failure.termedText.text(namedBy: cli), web: failure.termedText.text(namedBy: web))
        #expect(named.cli.contains("Run `beacon stop` (or reset the adapter)"), "\(named.cli)")
        #expect(named.web.contains("Run the Stop button (or reset the adapter)"), "\(named.web)")
        #expect(!named.web.contains("beacon stop") && !named.cli.contains("Stop button"))
        #expect(failure.description.contains("Run \(FrontEndTerm.stop.conceptText) (or reset the adapter)"), "\(failure)")
        #expect(failure.termedText.text(namedBy: cli) == named.cli, "naming for one front end changes nothing for the other")
    }
}
