// SPDX-License-Identifier: GPL-2.0-or-later

/// Numbers and text as SVG and HTML write them, without Foundation.
enum SVGText {
    /// `value` rounded to a tenth, without a trailing `.0` (`12`, `-3.5`): pixels to a tenth are
    /// finer than any screen or printer shows.
    /// With `places` decimals (trailing zeros dropped): `number(0.305, places: 3)` is `0.305`,
    /// for metres to the millimetre.
    static func number(_ value: Double, places: Int = 1) -> String {
        guard value.isFinite else { return "0" }
        var unit = 1
        for _ in 0..<places { unit *= 10 }
        // A wild range (metres of noise) must not trap: a picture never needs a billion pixels.
        let scaled = Int((min(max(value, -1e12), 1e12) * Double(unit)).rounded())
        let sign = scaled < 0 ? "-" : ""
        let whole = abs(scaled) / unit
        var fraction = String(abs(scaled) % unit)
        fraction = String(repeating: "0", count: places - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return sign + String(whole) + (fraction.isEmpty ? "" : "." + fraction)
    }

    /// Metres for people: `0.5 m`, `2 m`, `1.25 m` (up to two decimals).
    static func metres(_ value: Double) -> String {
        guard value.isFinite else { return "? m" }
        let hundredths = Int((min(max(value, -1e12), 1e12) * 100).rounded())
        let sign = hundredths < 0 ? "-" : ""
        let whole = abs(hundredths) / 100, fraction = abs(hundredths) % 100
        if fraction == 0 { return "\(sign)\(whole) m" }
        let digits = fraction % 10 == 0 ? String(fraction / 10) : (fraction < 10 ? "0" : "") + String(fraction)
        return "\(sign)\(whole).\(digits) m"
    }

    /// Text with XML's five special characters escaped (for element content and attributes);
    /// control characters other than tab and newline, which XML 1.0 forbids, become U+FFFD.
    static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value) { out += "\u{FFFD}" } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }

    /// The start of every picture of this module: the `<svg>` element `width` × `height` pixels,
    /// its title, a white ground and the title written at the top left.
    static func documentStart(width: Double, height: Double, title: String, fontSize: Double) -> String {
        """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(number(width))" height="\(number(height))" viewBox="0 0 \(number(width)) \(number(height))" \
        font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="\(number(fontSize))">
        <title>\(escaped(title))</title>
        <rect x="0" y="0" width="\(number(width))" height="\(number(height))" fill="#ffffff"/>
        <text x="12" y="22" font-size="15" font-weight="bold">\(escaped(title))</text>

        """
    }

    /// A rough width, in pixels, of `text` in a sans-serif font of `size` px: 0.62 em a character
    /// (DejaVu Sans and Helvetica average under it), so a box made from it holds the text.
    static func width(_ text: String, size: Double) -> Double {
        Double(text.count) * size * 0.62
    }
}
