// SPDX-License-Identifier: GPL-2.0-or-later

/// Text for people that refers to ``FrontEndTerm``s: words and terms kept apart until a front end
/// presents it, so that each front end names the terms its own way (``text(namedBy:)``) and no
/// library holds a front end's names.
///
/// Built like a string: `"run \(FrontEndTerm.stop) and try again"`. Interpolating a value that is
/// ``TermedTextConvertible`` (an error whose message advises something, say) keeps its terms;
/// anything else is interpolated as `String(describing:)` would.
public struct TermedText: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringInterpolation {
    /// Words as written, or a term a front end names.
    public enum Piece: Hashable, Sendable {
        case words(String)
        case term(FrontEndTerm)
    }

    /// The words and terms in order (adjacent words joined).
    public private(set) var pieces: [Piece] = []

    /// Words with no term in them.
    public init(_ words: String) { append(.words(words)) }

    /// The text of `value` with its terms when it has them (``TermedTextConvertible``), else
    /// `String(describing: value)` as words.
    public init(describing value: Any) {
        if let value = value as? any TermedTextConvertible { self = value.termedText } else { self.init(String(describing: value)) }
    }

    public init(stringLiteral value: String) { self.init(value) }

    public init(stringInterpolation: Interpolation) { self = stringInterpolation.text }

    /// The text with each term as `naming` names it (its ``FrontEndTerm/conceptText`` where
    /// `naming` gives nil): what a front end presents.
    public func text(namedBy naming: (FrontEndTerm) -> String?) -> String {
        var text = ""
        for piece in pieces {
            switch piece {
            case .words(let words): text += words
            case .term(let term): text += term.text(namedBy: naming)
            }
        }
        return text
    }

    /// The text with every term in words (``FrontEndTerm/conceptText``), for programs without
    /// names of their own.
    public var description: String { text(namedBy: { _ in nil }) }

    /// Appends `other` after this text.
    public mutating func append(_ other: TermedText) { for piece in other.pieces { append(piece) } }

    /// This text and `other`, in that order.
    public static func + (lhs: TermedText, rhs: TermedText) -> TermedText {
        var joined = lhs
        joined.append(rhs)
        return joined
    }

    private mutating func append(_ piece: Piece) {
        if case .words(let words) = piece {
            if words.isEmpty { return }
            if case .words(let before)? = pieces.last {
                pieces[pieces.count - 1] = .words(before + words)
                return
            }
        }
        pieces.append(piece)
    }

    /// Builds a ``TermedText`` from a string literal with interpolations.
    public struct Interpolation: StringInterpolationProtocol {
        var text = TermedText()

        public init(literalCapacity: Int, interpolationCount: Int) {}

        public mutating func appendLiteral(_ literal: String) { text.append(.words(literal)) }

        /// A term, which a front end names.
        public mutating func appendInterpolation(_ term: FrontEndTerm) { text.append(.term(term)) }

        /// Any other value: its terms when it has them, else its description.
        public mutating func appendInterpolation<Value>(_ value: Value) { text.append(TermedText(describing: value)) }
    }

    private init() {}
}

extension TermedText: TermedTextConvertible {
    public var termedText: TermedText { self }
}

/// A value whose text for people may refer to ``FrontEndTerm``s (an error that advises a stop,
/// say): front ends present ``termedText`` with their own names, and `description` (where the
/// type has one) is the same text in words.
public protocol TermedTextConvertible {
    /// The text, its terms not yet named.
    var termedText: TermedText { get }
}
