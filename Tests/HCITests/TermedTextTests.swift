// SPDX-License-Identifier: GPL-2.0-or-later
import HCI
import Testing

/// Messages keep their terms until a front end presents them with its own names.
@Suite struct TermedTextTests {
    struct Advice: Error, TermedTextConvertible, CustomStringConvertible {
        var termedText: TermedText { "run \(FrontEndTerm.stop) first" }
        var description: String { termedText.description }
    }

    static func cli(_ term: FrontEndTerm) -> String? { term == .stop ? "`tool stop`" : nil }

    @Test func eachFrontEndNamesTheTermsItsOwnWay() {
        let text: TermedText = "the adapter is busy: \(FrontEndTerm.stop), then \(FrontEndTerm.examineAdapter)"
        #expect(text.text(namedBy: Self.cli) == "the adapter is busy: `tool stop`, then \(FrontEndTerm.examineAdapter.conceptText)")
        #expect(text.description == "the adapter is busy: \(FrontEndTerm.stop.conceptText), then \(FrontEndTerm.examineAdapter.conceptText)")
        #expect(text.pieces == [.words("the adapter is busy: "), .term(.stop), .words(", then "), .term(.examineAdapter)])
    }

    /// A value with terms interpolated into a message keeps them; any other value is its
    /// description, as in a string.
    @Test func interpolatingKeepsTheTermsOfWhatHasThem() {
        let error: any Error = Advice()
        let wrapped: TermedText = "hci0: \(Advice()) (\(42))"
        #expect(wrapped.text(namedBy: Self.cli) == "hci0: run `tool stop` first (42)")
        #expect(TermedText(describing: error).text(namedBy: Self.cli) == "run `tool stop` first")
        #expect(TermedText(describing: 7).pieces == [.words("7")])
        #expect(("a" + TermedText("b") + "\(FrontEndTerm.dryRun)").pieces == [.words("ab"), .term(.dryRun)])
    }
}
