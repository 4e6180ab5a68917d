// SPDX-License-Identifier: GPL-2.0-or-later

/// A live view's messages (notes, errors): the newest kept for the screen, and those that wait
/// for the view to end because standard error is the terminal it covers.
public struct LiveMessages: Sendable, Equatable {
    /// At most this many are kept for the screen.
    public static let kept = 100

    /// Oldest first (``LiveScreen/messages``).
    public private(set) var shown: [String] = []
    /// Not yet printed on standard error.
    private var heldBack: [String] = []

    public init() {}

    /// Adds `text`; `holdingBack`: it is printed once the view is gone (``takeHeldBack()``).
    public mutating func append(_ text: String, holdingBack: Bool) {
        shown.append(text)
        if shown.count > Self.kept { shown.removeFirst(shown.count - Self.kept) }
        if holdingBack { heldBack.append(text) }
    }

    /// The messages held back so far, which are then forgotten.
    public mutating func takeHeldBack() -> [String] {
        defer { heldBack = [] }
        return heldBack
    }
}
