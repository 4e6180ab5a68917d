// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconRadio
import BeaconPositioning
import BeaconProfiles

/// What a map shows, as plain shapes in metres: walls, markers with labels, circles and
/// polylines, each drawn in one ``MapStyle``. Commands build a scene (see the `MapScene+…`
/// builders) and ``SVGMap`` draws it; nothing here knows where the shapes came from.
public struct MapScene: Hashable, Sendable {
    public var title: String
    /// The rooms' walls (BeaconProfiles' `Wall`, the one segment type; z is not drawn).
    public var walls: [Wall] = []
    /// Area names, written inside their rooms (not placed: rooms are large).
    public var roomNames: [MapText] = []
    public var markers: [MapMarker] = []
    public var circles: [MapCircle] = []
    public var polylines: [MapPolyline] = []
    /// Lines of text under the legend (what was run, the error, …).
    public var notes: [String] = []
    /// Styles the legend shows though the scene has no shape in them: what a live page draws
    /// over the map later (`SVGMap/layer(_:)`).
    public var legendAlso: [MapStyle] = []

    public init(title: String) {
        self.title = title
    }

    /// The styles the scene uses, in the legend's order.
    public var stylesUsed: [MapStyle] {
        let used = Set(markers.map(\.style) + circles.map(\.style) + polylines.map(\.style) + (walls.isEmpty ? [] : [.wall]) + legendAlso)
        return MapStyle.allCases.filter(used.contains)
    }
}

/// Text at a point.
public struct MapText: Hashable, Sendable {
    public var position: Point
    public var text: String

    public init(position: Point, text: String) {
        self.position = position
        self.text = text
    }
}

/// A point of interest: a beacon, an estimate, the true position, the walker. A marker with a
/// label gets it placed next to it without overlapping any other (``LabelPlacement``).
public struct MapMarker: Hashable, Sendable {
    public var position: Point
    public var style: MapStyle
    public var label: String?
    /// A name the HTML timeline refers to (``MapTimeline``); `nil`: not animated.
    public var id: String?

    public init(position: Point, style: MapStyle, label: String? = nil, id: String? = nil) {
        self.position = position
        self.style = style
        self.label = label
        self.id = id
    }
}

/// A circle of `radius` metres: a beacon's ranged distance, an estimate's uncertainty.
public struct MapCircle: Hashable, Sendable {
    public var centre: Point
    public var radius: Double
    public var style: MapStyle

    public init(centre: Point, radius: Double, style: MapStyle) {
        self.centre = centre
        self.radius = radius
        self.style = style
    }
}

/// A path through points: a route, a trail of estimates, an estimate's error.
public struct MapPolyline: Hashable, Sendable {
    public var points: [Point]
    public var style: MapStyle

    public init(points: [Point], style: MapStyle) {
        self.points = points
        self.style = style
    }
}
