// SPDX-License-Identifier: GPL-2.0-or-later
import LiveView

/// What the live page shows at one moment: the map, the live view's table and each beacon's
/// state. A viewer that connects (or reconnects) gets the newest snapshot first, then every
/// later one.
public struct LivePageSnapshot: Sendable, Equatable, Encodable {
    /// One beacon as the page marks it: `id` names the map marker (`m-ID`) and the table row
    /// (`beacon-ID`); `state` is the words the table shows ("on air", "waiting", …) and `status`
    /// their colour class (`active`, `idle`, `problem`).
    public struct Beacon: Sendable, Equatable, Encodable {
        public var id: String
        public var state: String
        public var status: String

        public init(id: String, state: String, status: LiveStatus) {
            self.id = id
            self.state = state
            self.status = Self.statusName(status)
        }

        static func statusName(_ status: LiveStatus) -> String {
            switch status {
            case .problem: "problem"
            case .active: "active"
            default: "idle"
            }
        }
    }

    /// One table row: its cells, its colour class, and the beacon it shows (when it shows one).
    public struct Row: Sendable, Equatable, Encodable {
        public var cells: [String]
        public var status: String
        public var beacon: String?
    }

    public var title: String
    public var columns: [String]
    public var rows: [Row]
    public var summary: String
    public var messages: [String]
    public var beacons: [Beacon]
    /// The map as SVG (BeaconMaps), or empty when the run has nothing to draw: the scene (walls,
    /// beacons), sent to the page again only when it changes.
    public var svg: String
    /// What moves on the map (a positioning run's ranging circles, trail, estimate, true
    /// position): SVG groups in the map's pixels (`SVGMap/layer(_:)`) that the page puts in place
    /// of the ones it shows; empty when nothing moves.
    public var layer: String

    /// The snapshot of a live view's screen; `beaconOfRow` names the beacon a row shows (by
    /// index), nil for rows that are not one beacon.
    public init(screen: LiveScreen, beacons: [Beacon], beaconOfRow: (Int) -> String? = { _ in nil }, svg: String = "", layer: String = "") {
        title = screen.title
        columns = screen.columns.map(\.title)
        rows = screen.rows.enumerated().map { i, r in Row(cells: r.cells, status: Beacon.statusName(r.status), beacon: beaconOfRow(i)) }
        summary = screen.summary
        messages = Array(screen.messages.suffix(10))
        self.beacons = beacons
        self.svg = svg
        self.layer = layer
    }
}
