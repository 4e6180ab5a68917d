// SPDX-License-Identifier: GPL-2.0-or-later
@testable import BeaconMaps
import BeaconPositioning
import Foundation
import Testing
import TestSupport

/// The benchmark's error chart: well-formed SVG, and its marks where the figures say.
@Suite("error distribution chart")
struct ErrorCDFChartTests {
    /// Three methods with known order statistics: 1 … 100 cm, 0.5 … 5 m (doubling the spread
    /// does not stretch the axis past the largest 90th percentile), and one error.
    static func chart() throws -> ErrorCDFChart {
        let a = try #require(ErrorCDFChart.Series(name: "circles", errors: (1...100).reversed().map { Double($0) / 100 }))
        let b = try #require(ErrorCDFChart.Series(name: "ls & <wls>", errors: (1...10).map { Double($0) / 2 }))
        let c = try #require(ErrorCDFChart.Series(name: "one", errors: [0.25]))
        return ErrorCDFChart(title: "test \"chart\"", series: [a, b, c], notes: ["a note & more"])
    }

    /// The number an attribute of the element with `id` has in `svg`.
    static func attribute(_ name: String, of id: String, in svg: String) throws -> Double {
        let element = try #require(svg.components(separatedBy: "id=\"\(id)\"").dropFirst().first?.components(separatedBy: "/>").first, "no \(id)")
        let value = try #require(element.components(separatedBy: " \(name)=\"").dropFirst().first?.components(separatedBy: "\"").first)
        return try #require(Double(value), "\(name)=\(value)")
    }

    @Test("the summary figures are LocationErrorSummary's; the axis ends at a round number above the largest 90th percentile")
    func figures() throws {
        let chart = try Self.chart()
        let circles = chart.series[0].summary, ls = chart.series[1].summary
        #expect(circles.median == 0.51 && circles.p90 == 0.91 && circles.fixes == 100)
        #expect(ls.median == 3 && ls.p90 == 5)
        #expect(chart.series[2].summary.median == 0.25 && chart.series[2].summary.p90 == 0.25)
        // 5 m × 1.15 = 5.75: ticks of 1 m up to 6 m.
        #expect(chart.maximumError == 6 && chart.tick == 1)
        #expect(ErrorCDFChart.Series(name: "none", errors: []) == nil)
        #expect(LocationErrorSummary.quantile([1, 2, 3, 4], 1) == 4 && LocationErrorSummary.quantile([1, 2, 3, 4], 0) == 1)
    }

    @Test("each median disc and 90 % square sits at its error across and at ½ and 0.9 up; the curve passes through the median")
    func geometry() throws {
        let chart = try Self.chart()
        let svg = chart.render()
        for (index, series) in chart.series.enumerated() {
            let cx = try Self.attribute("cx", of: "median-\(index)", in: svg), cy = try Self.attribute("cy", of: "median-\(index)", in: svg)
            #expect(abs(cx - chart.x(series.summary.median)) <= 0.05 && abs(cy - chart.y(0.5)) <= 0.05, "median \(index): \(cx), \(cy)")
            let x = try Self.attribute("x", of: "p90-\(index)", in: svg)
            #expect(abs(x + 4 - chart.x(series.summary.p90)) <= 0.05, "p90 \(index): \(x)")
        }
        // Absolute positions: the axis is 0…6 m over 540 px from x = 64; ½ is 130 px down from 44.
        #expect(try Self.attribute("cx", of: "median-1", in: svg) == 64 + 3.0 / 6 * 540)
        #expect(try Self.attribute("cy", of: "median-1", in: svg) == 44 + 130)
        // The curve's middle point (step 100 of 200) is the median disc's centre.
        let polyline = try #require(svg.components(separatedBy: "<g id=\"series-0\"").dropFirst().first?.components(separatedBy: "points=\"").dropFirst().first?
            .components(separatedBy: "\"").first)
        let points = polyline.split(separator: " ")
        #expect(points.count == 201)
        #expect(String(points[100]) == "\(SVGText.number(chart.x(0.51))),\(SVGText.number(chart.y(0.5)))")
        #expect(svg.contains("circles: median 0.51 m (disc), 90 % 0.91 m (square), 100 fixes"))
        #expect(svg.contains("ls &amp; &lt;wls&gt;"))
    }

    @Test("xmllint finds the chart and its HTML page well-formed")
    func wellFormed() throws {
        let xmllint = try #require(Executables.onPath("xmllint"), "xmllint is not installed (scripts/setup --tests installs it)")
        let chart = try Self.chart()
        for (name, text) in [("chart.svg", chart.render()), ("chart.html", MapHTML.page(svg: chart.render(), title: chart.title))] {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("beacon-chart-\(UUID().uuidString)-\(name)")
            defer { try? FileManager.default.removeItem(at: file) }
            try Data(text.utf8).write(to: file)
            let result = try Program.run(xmllint, ["--noout", file.path])
            #expect(result.status == 0, "\(name): \(result.stderr)")
        }
    }
}
