// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconPositioning

/// The position error of several positioning methods as an SVG chart: per method, the
/// cumulative distribution (the share of fixes within x metres of the truth), its median and
/// 90th percentile marked on the curve and written in the legend. The figures are
/// `LocationErrorSummary`'s (BeaconPositioning), so the chart and the benchmark's table
/// (`beacon locate --simulate random`, BENCHMARKS.md) say the same. Errors beyond the x axis
/// (a nice number above the largest 90th percentile) leave their curve at the right edge.
public struct ErrorCDFChart: Sendable {
    /// One method's errors.
    public struct Series: Sendable {
        public let name: String
        /// The errors in metres, ascending.
        public let errors: [Double]
        public let summary: LocationErrorSummary

        /// `nil` without any error (a run with no fix has no distribution).
        public init?(name: String, errors: [Double]) {
            guard let summary = LocationErrorSummary(errors: errors) else { return nil }
            self.name = name
            self.errors = errors.sorted()
            self.summary = summary
        }
    }

    public let title: String
    public let series: [Series]
    /// Lines under the legend (what was run).
    public let notes: [String]
    /// The x axis runs from 0 to this many metres.
    public let maximumError: Double
    /// Metres between the x axis's ticks.
    public let tick: Double

    public static let width = 640.0
    /// The plot's frame, pixels.
    public static let plotLeft = 64.0, plotTop = 44.0, plotWidth = 540.0, plotHeight = 260.0
    static let legendRow = 20.0
    /// How many steps of the distribution each curve is drawn with.
    static let curveSteps = 200
    /// Colour and dash per series, in order (told apart in grey print by the dashes).
    static let looks: [(colour: String, dash: String?)] = [("#d73027", "7 4"), ("#e08214", "2 3"), ("#2166ac", nil), ("#1a9850", "10 3 2 3")]

    public init(title: String, series: [Series], notes: [String] = []) {
        self.title = title
        self.series = series
        self.notes = notes
        let (maximum, tick) = Self.axis(upTo: series.map(\.summary.p90).max() ?? 1)
        maximumError = maximum
        self.tick = tick
    }

    /// A round axis end a little above `value` (1, 2 or 5 × 10ⁿ steps, 4 to 10 of them).
    static func axis(upTo value: Double) -> (maximum: Double, tick: Double) {
        let top = max(value * 1.15, 0.1)
        var tick = 1.0
        while top / tick > 10 { tick *= 10 }
        while top / tick < 1 { tick /= 10 }
        for step in [tick / 5, tick / 2, tick] where (top / step).rounded(.up) <= 10 {
            tick = step
            break
        }
        return ((top / tick).rounded(.up) * tick, tick)
    }

    public var height: Double {
        Self.plotTop + Self.plotHeight + 46 + Double(series.count) * Self.legendRow + Double(notes.count) * 16 + 10
    }

    /// Where an error of `metres` lies across (clamped to the axis).
    public func x(_ metres: Double) -> Double {
        Self.plotLeft + min(max(metres, 0), maximumError) / maximumError * Self.plotWidth
    }

    /// Where the share `fraction` (0 to 1) of fixes lies up.
    public func y(_ fraction: Double) -> Double {
        Self.plotTop + (1 - fraction) * Self.plotHeight
    }

    /// The curve's points: at each step k/``curveSteps``, the error below which that share of
    /// the fixes lies (``LocationErrorSummary/quantile(_:_:)``, so step ½ is the median).
    func curve(_ s: Series) -> [(x: Double, y: Double)] {
        (0...Self.curveSteps).map { k in
            let fraction = Double(k) / Double(Self.curveSteps)
            return (x(LocationErrorSummary.quantile(s.errors, fraction)), y(fraction))
        }
    }

    /// The SVG document.
    public func render() -> String {
        func n(_ value: Double) -> String { SVGText.number(value) }
        let (left, top, right, bottom) = (Self.plotLeft, Self.plotTop, Self.plotLeft + Self.plotWidth, Self.plotTop + Self.plotHeight)
        var out = SVGText.documentStart(width: Self.width, height: height, title: title, fontSize: 11)
        out += "<rect x=\"\(n(left))\" y=\"\(n(top))\" width=\"\(n(Self.plotWidth))\" height=\"\(n(Self.plotHeight))\" fill=\"#fafafa\" stroke=\"#bbbbbb\"/>\n"
        // The grid: the x ticks, and the median and 90 % lines the markers sit on.
        out += "<g id=\"grid\" stroke=\"#dddddd\">\n"
        let ticks = Int((maximumError / tick).rounded())
        for i in 0...ticks {
            let metres = Double(i) * tick
            out += "<line x1=\"\(n(x(metres)))\" y1=\"\(n(top))\" x2=\"\(n(x(metres)))\" y2=\"\(n(bottom))\"/>\n"
        }
        for fraction in [0.5, 0.9] {
            out += "<line x1=\"\(n(left))\" y1=\"\(n(y(fraction)))\" x2=\"\(n(right))\" y2=\"\(n(y(fraction)))\" stroke-dasharray=\"4 3\" stroke=\"#999999\"/>\n"
        }
        out += "</g>\n<g id=\"axes\" fill=\"#333333\">\n"
        for i in 0...ticks {
            let metres = Double(i) * tick
            out += "<text x=\"\(n(x(metres)))\" y=\"\(n(bottom + 16))\" text-anchor=\"middle\">\(SVGText.escaped(SVGText.metres(metres)))</text>\n"
        }
        for (fraction, label) in [(0.0, "0 %"), (0.5, "median"), (0.9, "90 %"), (1.0, "100 %")] {
            out += "<text x=\"\(n(left - 6))\" y=\"\(n(y(fraction) + 4))\" text-anchor=\"end\">\(label)</text>\n"
        }
        out += "<text x=\"\(n((left + right) / 2))\" y=\"\(n(bottom + 34))\" text-anchor=\"middle\">position error (share of fixes within it)</text>\n"
        out += "</g>\n"
        out += "<defs><clipPath id=\"plot\"><rect x=\"\(n(left))\" y=\"\(n(top - 4))\" width=\"\(n(Self.plotWidth + 4))\" height=\"\(n(Self.plotHeight + 8))\"/></clipPath></defs>\n"
        for (index, s) in series.enumerated() {
            let look = Self.looks[index % Self.looks.count]
            let dash = look.dash.map { " stroke-dasharray=\"\($0)\"" } ?? ""
            let points = curve(s).map { "\(n($0.x)),\(n($0.y))" }.joined(separator: " ")
            out += "<g id=\"series-\(index)\" clip-path=\"url(#plot)\">\n"
            out += "<polyline fill=\"none\" stroke=\"\(look.colour)\" stroke-width=\"2\"\(dash) points=\"\(points)\"/>\n"
            out += "<circle id=\"median-\(index)\" cx=\"\(n(x(s.summary.median)))\" cy=\"\(n(y(0.5)))\" r=\"4.5\" fill=\"\(look.colour)\"/>\n"
            out += "<rect id=\"p90-\(index)\" x=\"\(n(x(s.summary.p90) - 4))\" y=\"\(n(y(0.9) - 4))\" width=\"8\" height=\"8\" fill=\"#ffffff\" stroke=\"\(look.colour)\" stroke-width=\"2\"/>\n"
            out += "</g>\n"
        }
        var row = bottom + 46
        out += "<g id=\"legend\">\n"
        for (index, s) in series.enumerated() {
            let look = Self.looks[index % Self.looks.count]
            let dash = look.dash.map { " stroke-dasharray=\"\($0)\"" } ?? ""
            out += "<line x1=\"\(n(left))\" y1=\"\(n(row - 4))\" x2=\"\(n(left + 30))\" y2=\"\(n(row - 4))\" stroke=\"\(look.colour)\" stroke-width=\"2\"\(dash)/>\n"
            let text = "\(s.name): median \(SVGText.metres(s.summary.median)) (disc), 90 % \(SVGText.metres(s.summary.p90)) (square), \(s.summary.fixes) fixes"
            out += "<text x=\"\(n(left + 38))\" y=\"\(n(row))\">\(SVGText.escaped(text))</text>\n"
            row += Self.legendRow
        }
        for note in notes {
            out += "<text x=\"\(n(left))\" y=\"\(n(row))\" fill=\"#555555\">\(SVGText.escaped(note))</text>\n"
            row += 16
        }
        out += "</g>\n</svg>\n"
        return out
    }
}
