// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconPositioning

/// Draws a ``MapScene`` as a standalone SVG document: the title, the plan (walls, circles,
/// polylines, markers, labels placed so none overlap), a scale bar, a legend and the notes.
/// Sizes are in pixels for a laptop screen; the `viewBox` lets a browser or printer scale it
/// (A4 landscape holds the largest plan at about 5 px a millimetre).
public struct SVGMap: Sendable {
    public let scene: MapScene
    public let projection: MapProjection
    /// Where each labelled marker's label went, in the order of `scene.markers` (unlabelled
    /// markers are skipped).
    public let labels: [LabelPlacement.Placed]
    public let width: Double
    public let height: Double

    static let titleHeight = 34.0
    static let margin = 70.0
    static let fontSize = 11.0
    static let labelHeight = 14.0
    static let markerRadius = 6.0
    static let legendRow = 22.0

    /// The smallest scale a page may show this map at: labels 8.8 px (about 10 px high with
    /// their descenders), the smallest markers (rings, the estimate: 10 px) 8 px across. A page
    /// narrower than that keeps the map at this scale in a box that scrolls (``init(forLivePage:)``).
    public static let smallestLegibleScale = 0.8

    /// The map of `scene`, its plan fitted to `largest` pixels (by default A4's and a laptop's;
    /// see ``init(forLivePage:)``). Text and markers are the same
    /// pixels whatever the plan's size.
    public init(_ scene: MapScene, largestPlan largest: (width: Double, height: Double) = (MapProjection.maximumWidth, MapProjection.maximumHeight)) {
        self.scene = scene
        let projection = MapProjection(fitting: scene, left: Self.margin, top: Self.titleHeight + Self.margin, largest: largest)
        self.projection = projection
        let area = LabelBox(x: 4, y: Self.titleHeight, width: projection.width + 2 * Self.margin - 8, height: projection.height + 2 * Self.margin)
        // Labels keep off every marker and off the rooms' names.
        let obstacles = scene.markers.map {
            LabelBox(centreX: projection.x($0.position), centreY: projection.y($0.position),
                     width: 2 * Self.markerRadius + 2, height: 2 * Self.markerRadius + 2)
        } + scene.roomNames.map { Self.roomNameBox($0, projection) }
        let requests = scene.markers.compactMap { marker in
            marker.label.map {
                LabelBox(centreX: projection.x(marker.position), centreY: projection.y(marker.position),
                         width: SVGText.width($0, size: Self.fontSize) + 6, height: Self.labelHeight)
            }
        }
        let overflowX = area.x + area.width + 10
        labels = LabelPlacement.place(requests, in: area, obstacles: obstacles, markerRadius: Self.markerRadius, overflowX: overflowX)
        let overflowRight = labels.filter { $0.box.x >= overflowX }.map { $0.box.x + $0.box.width + 10 }.max() ?? 0
        let planBottom = Self.titleHeight + projection.height + 2 * Self.margin
        let overflowBottom = labels.map { $0.box.y + $0.box.height }.max() ?? 0
        width = max(projection.width + 2 * Self.margin, overflowRight, 640)
        let legendRows = Self.legendLayout(scene.stylesUsed, width: width).rows
        height = max(planBottom, overflowBottom) + 30 + Double(legendRows) * Self.legendRow + Double(scene.notes.count) * 16 + 12
    }

    /// The map of `scene` for a live page: its plan no larger than
    /// ``MapProjection/livePageLargest(for:)``, so that a phone need not shrink it illegibly.
    public init(forLivePage scene: MapScene) {
        self.init(scene, largestPlan: MapProjection.livePageLargest(for: scene))
    }

    /// Draws `moving` (circles, polylines, unlabelled markers) in this map's pixels, for a page
    /// that shows this map and moves only these: `<g id="circles">`, `<g id="paths">` and
    /// `<g id="markers">` as ``render()`` writes them (empty groups left out). Positions outside
    /// this map's plan land outside its frame: the map is not fitted to them.
    public func layer(_ moving: MapScene) -> String {
        let drawer = SVGMap(moving, projection: projection)
        return drawer.renderCircles() + drawer.renderPolylines() + drawer.renderMarkers()
    }

    /// A drawer of shapes only (no labels, legend or size), in `projection`'s pixels.
    private init(_ scene: MapScene, projection: MapProjection) {
        self.scene = scene
        self.projection = projection
        labels = []
        width = 0
        height = 0
    }

    /// The SVG document (UTF-8 text, no XML declaration needed: it is UTF-8).
    public func render() -> String {
        var out = SVGText.documentStart(width: width, height: height, title: scene.title, fontSize: Self.fontSize)
        out += "<defs><clipPath id=\"plan\"><rect x=\"\(n(projection.left))\" y=\"\(n(projection.top))\" width=\"\(n(projection.width))\" height=\"\(n(projection.height))\"/></clipPath></defs>\n"
        out += "<rect x=\"\(n(projection.left))\" y=\"\(n(projection.top))\" width=\"\(n(projection.width))\" height=\"\(n(projection.height))\" fill=\"#fafafa\" stroke=\"#dddddd\"/>\n"
        out += renderRoomNames()
        out += renderWalls()
        out += renderCircles()
        out += renderPolylines()
        out += renderLeaders()
        out += renderMarkers()
        out += renderLabels()
        out += renderScaleBarAndLegend()
        out += "</svg>\n"
        return out
    }

    func n(_ value: Double) -> String { SVGText.number(value) }

    func renderWalls() -> String {
        guard !scene.walls.isEmpty else { return "" }
        var out = "<g id=\"walls\" stroke=\"\(MapStyle.wall.colour)\" stroke-width=\"3\" stroke-linecap=\"round\">\n"
        for wall in scene.walls {
            out += "<line x1=\"\(n(projection.x(wall.start)))\" y1=\"\(n(projection.y(wall.start)))\" x2=\"\(n(projection.x(wall.end)))\" y2=\"\(n(projection.y(wall.end)))\"/>\n"
        }
        return out + "</g>\n"
    }

    /// Where a room's name is written: just inside its corner.
    static func roomNameBox(_ room: MapText, _ projection: MapProjection) -> LabelBox {
        LabelBox(x: projection.x(room.position) + 5, y: projection.y(room.position) + 5,
                 width: SVGText.width(room.text, size: fontSize) + 2, height: labelHeight)
    }

    func renderRoomNames() -> String {
        var out = ""
        for room in scene.roomNames {
            let box = Self.roomNameBox(room, projection)
            out += "<text x=\"\(n(box.x + 1))\" y=\"\(n(box.y + box.height - 3.5))\" fill=\"#777777\" font-style=\"italic\">\(SVGText.escaped(room.text))</text>\n"
        }
        return out
    }

    func renderCircles() -> String {
        guard !scene.circles.isEmpty else { return "" }
        var out = "<g id=\"circles\" clip-path=\"url(#plan)\">\n"
        for circle in scene.circles {
            let style = circle.style
            let paint = style == .uncertainty
                ? "fill=\"\(style.colour)\" fill-opacity=\"0.1\" stroke=\"\(style.colour)\" stroke-width=\"1\""
                : "fill=\"none\" stroke=\"\(style.colour)\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\""
            out += "<circle class=\"\(style.rawValue)\" cx=\"\(n(projection.x(circle.centre)))\" cy=\"\(n(projection.y(circle.centre)))\" r=\"\(n(circle.radius * projection.scale))\" \(paint)/>\n"
        }
        return out + "</g>\n"
    }

    func renderPolylines() -> String {
        guard !scene.polylines.isEmpty else { return "" }
        var out = "<g id=\"paths\" fill=\"none\" stroke-linejoin=\"round\">\n"
        for line in scene.polylines where line.points.count >= 2 {
            let points = line.points.map { "\(n(projection.x($0))),\(n(projection.y($0)))" }.joined(separator: " ")
            let stroke: String
            switch line.style {
            case .route: stroke = "stroke-width=\"2\" stroke-dasharray=\"8 5\""
            case .miss: stroke = "stroke-width=\"1\""
            case .carrier: stroke = "stroke-width=\"1\" stroke-dasharray=\"2 3\""
            default: stroke = "stroke-width=\"1.5\" stroke-opacity=\"0.7\""
            }
            out += "<polyline class=\"\(line.style.rawValue)\" points=\"\(points)\" stroke=\"\(line.style.colour)\" \(stroke)/>\n"
        }
        return out + "</g>\n"
    }

    /// One marker's shape centred at (x, y): beacons are discs (a ring when off air), the
    /// estimate a smaller disc, the truth a cross, the walker a diamond.
    static func markerShape(_ style: MapStyle, x: String, y: String, r: Double) -> String {
        let c = style.colour
        switch style {
        case .truth:
            return "<path d=\"M\(x) \(y) m-\(SVGText.number(r)) -\(SVGText.number(r)) l\(SVGText.number(2 * r)) \(SVGText.number(2 * r)) m0 -\(SVGText.number(2 * r)) l-\(SVGText.number(2 * r)) \(SVGText.number(2 * r))\" stroke=\"\(c)\" stroke-width=\"2.5\"/>"
        case .radio, .radioOffline:
            let side = SVGText.number(2 * r + 2)
            return "<rect x=\"\(x)\" y=\"\(y)\" width=\"\(side)\" height=\"\(side)\" transform=\"translate(-\(SVGText.number(r + 1)) -\(SVGText.number(r + 1)))\" fill=\"\(style == .radio ? c : "#ffffff")\" stroke=\"\(c)\" stroke-width=\"2\"/>"
        case .walker:
            return "<path d=\"M\(x) \(y) m0 -\(SVGText.number(r + 1)) l\(SVGText.number(r + 1)) \(SVGText.number(r + 1)) l-\(SVGText.number(r + 1)) \(SVGText.number(r + 1)) l-\(SVGText.number(r + 1)) -\(SVGText.number(r + 1))z\" fill=\"\(c)\" stroke=\"#ffffff\" stroke-width=\"1\"/>"
        case .offAir:
            return "<circle cx=\"\(x)\" cy=\"\(y)\" r=\"\(SVGText.number(r - 1))\" fill=\"#ffffff\" stroke=\"\(c)\" stroke-width=\"2.5\"/>"
        case .estimate:
            return "<circle cx=\"\(x)\" cy=\"\(y)\" r=\"\(SVGText.number(r - 1))\" fill=\"\(c)\" stroke=\"#ffffff\" stroke-width=\"1.5\"/>"
        default:
            return "<circle cx=\"\(x)\" cy=\"\(y)\" r=\"\(SVGText.number(r))\" fill=\"\(c)\" stroke=\"#ffffff\" stroke-width=\"1\"/>"
        }
    }

    func renderMarkers() -> String {
        guard !scene.markers.isEmpty else { return "" }
        var out = "<g id=\"markers\">\n"
        for marker in scene.markers {
            let shape = Self.markerShape(marker.style, x: n(projection.x(marker.position)), y: n(projection.y(marker.position)), r: Self.markerRadius)
            let id = marker.id.map { " id=\"m-\(SVGText.escaped($0))\"" } ?? ""
            // Where it is on the plan, metres: a page's script (and its tests) read positions there.
            let at = " data-x=\"\(SVGText.number(marker.position.x, places: 3))\" data-y=\"\(SVGText.number(marker.position.y, places: 3))\""
            out += "<g class=\"\(marker.style.rawValue)\"\(id)\(at)>\(shape)</g>\n"
        }
        return out + "</g>\n"
    }

    /// The labelled markers with their placed labels.
    var labelledMarkers: [(MapMarker, LabelPlacement.Placed)] {
        Array(zip(scene.markers.filter { $0.label != nil }, labels))
    }

    func renderLeaders() -> String {
        var out = ""
        for (marker, placed) in labelledMarkers where placed.needsLeader {
            let mx = projection.x(marker.position), my = projection.y(marker.position)
            let end = placed.box.nearestPoint(toX: mx, y: my)
            out += "<line x1=\"\(n(mx))\" y1=\"\(n(my))\" x2=\"\(n(end.x))\" y2=\"\(n(end.y))\" stroke=\"#888888\" stroke-width=\"0.7\"/>\n"
        }
        return out.isEmpty ? "" : "<g id=\"leaders\">\n" + out + "</g>\n"
    }

    func renderLabels() -> String {
        var out = ""
        for (marker, placed) in labelledMarkers {
            let box = placed.box
            out += "<g class=\"label\"><rect x=\"\(n(box.x))\" y=\"\(n(box.y))\" width=\"\(n(box.width))\" height=\"\(n(box.height))\" fill=\"#ffffff\" fill-opacity=\"0.85\" rx=\"2\"/>"
            out += "<text x=\"\(n(box.x + 3))\" y=\"\(n(box.y + box.height - 3.5))\">\(SVGText.escaped(marker.label ?? ""))</text></g>\n"
        }
        return out.isEmpty ? "" : "<g id=\"labels\">\n" + out + "</g>\n"
    }

    /// The legend's items in rows that fit `width`: (x offset, row) per style.
    static func legendLayout(_ styles: [MapStyle], width: Double) -> (items: [(MapStyle, Double, Int)], rows: Int) {
        var items: [(MapStyle, Double, Int)] = []
        var x = 0.0, row = 0
        let available = width - 24 - 230  // the scale bar's room on the left
        for style in styles {
            let itemWidth = 30 + SVGText.width(style.legendText, size: fontSize) + 16
            if x > 0, x + itemWidth > available { x = 0; row += 1 }
            items.append((style, x, row))
            x += itemWidth
        }
        return (items, styles.isEmpty ? 0 : row + 1)
    }

    func renderScaleBarAndLegend() -> String {
        let top = max(projection.top + projection.height + Self.margin, (labels.map { $0.box.y + $0.box.height }.max() ?? 0)) + 18
        var out = "<g id=\"scale\">\n"
        let metres = projection.scaleBarMetres
        let length = metres * projection.scale
        out += "<path d=\"M12 \(n(top)) v8 h\(n(length)) v-8\" fill=\"none\" stroke=\"#000000\" stroke-width=\"1.5\"/>\n"
        out += "<text x=\"\(n(12 + length + 6))\" y=\"\(n(top + 9))\">\(SVGText.metres(metres))</text>\n</g>\n"
        out += "<g id=\"legend\">\n"
        let legendLeft = 12 + 230.0
        for (style, x, row) in Self.legendLayout(scene.stylesUsed, width: width).items {
            let lx = legendLeft + x, ly = top + Double(row) * Self.legendRow + 4
            switch style {
            case .uncertainty:
                out += "<circle cx=\"\(n(lx + 11))\" cy=\"\(n(ly))\" r=\"7\" fill=\"\(style.colour)\" fill-opacity=\"0.2\" stroke=\"\(style.colour)\" stroke-width=\"1\"/>"
            case .wall, .route, .trail, .miss, .ranging, .carrier:
                let dash = style == .route ? " stroke-dasharray=\"8 5\"" : style == .ranging ? " stroke-dasharray=\"6 4\"" : style == .carrier ? " stroke-dasharray=\"2 3\"" : ""
                let widthText = style == .wall ? "3" : "2"
                out += "<line x1=\"\(n(lx))\" y1=\"\(n(ly))\" x2=\"\(n(lx + 22))\" y2=\"\(n(ly))\" stroke=\"\(style.colour)\" stroke-width=\"\(widthText)\"\(dash)/>"
            default:
                out += Self.markerShape(style, x: n(lx + 11), y: n(ly), r: Self.markerRadius)
            }
            out += "<text x=\"\(n(lx + 30))\" y=\"\(n(ly + 4))\">\(SVGText.escaped(style.legendText))</text>\n"
        }
        out += "</g>\n"
        let rows = Self.legendLayout(scene.stylesUsed, width: width).rows
        var y = top + Double(max(rows, 1)) * Self.legendRow + 8
        for note in scene.notes {
            out += "<text x=\"12\" y=\"\(n(y))\" fill=\"#333333\">\(SVGText.escaped(note))</text>\n"
            y += 16
        }
        return out
    }
}
