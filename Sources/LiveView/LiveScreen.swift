// SPDX-License-Identifier: GPL-2.0-or-later

/// What a live view shows at one moment, independent of any terminal: a title, a table (columns
/// and rows), the latest messages and a one-line summary. ``lines(width:height:)`` fits it to a
/// terminal of any size; ``LiveTerminal`` draws the result.
///
/// The commands that watch something run (advertise, cycle, scan; later play and walk) build one
/// of these at every redraw: the layout rules live here once, and are unit-tested without a
/// terminal.
public struct LiveScreen: Sendable, Equatable {
    /// The first line: what runs, and how to stop it.
    public var title: String
    public var columns: [LiveColumn]
    /// In the caller's order; ``lines(width:height:)`` moves problems first.
    public var rows: [LiveRow]
    /// What stands in for the table while it has no rows ("no beacon heard yet").
    public var placeholder: String
    /// Notes and errors worth a line, oldest first; the newest few are shown under the table.
    public var messages: [String]
    /// The last line, always on screen: the counts that matter (on air, adapters, turns, errors,
    /// elapsed time).
    public var summary: String
    /// A smaller table shown above the main one (a site's radios above its beacons), or `nil`.
    public var lead: LiveTable?

    public init(title: String, columns: [LiveColumn], rows: [LiveRow], placeholder: String = "", messages: [String] = [], summary: String,
                lead: LiveTable? = nil) {
        self.title = title
        self.columns = columns
        self.rows = rows
        self.placeholder = placeholder
        self.messages = messages
        self.summary = summary
        self.lead = lead
    }
}

/// A table of its own on a live screen (``LiveScreen/lead``): columns and rows, fitted as the
/// main table is.
public struct LiveTable: Sendable, Equatable {
    public var columns: [LiveColumn]
    public var rows: [LiveRow]

    public init(columns: [LiveColumn], rows: [LiveRow]) {
        self.columns = columns
        self.rows = rows
    }
}

/// One column of a live table.
public struct LiveColumn: Sendable, Equatable {
    /// How a column's cells line up.
    public enum Alignment: Sendable, Equatable {
        case left, right
    }

    public var title: String
    public var alignment: Alignment
    /// 0: always shown (the line is truncated instead). Higher numbers are dropped first when
    /// the terminal is too narrow for every column.
    public var dropOrder: Int

    public init(_ title: String, alignment: Alignment = .left, dropOrder: Int = 0) {
        self.title = title
        self.alignment = alignment
        self.dropOrder = dropOrder
    }
}

/// How a row stands: problems come first and are counted when rows do not fit.
public enum LiveStatus: Sendable, Equatable, Comparable {
    /// An error, or something that may be wrong (a teardown that failed).
    case problem
    /// Doing its job (on air, heard).
    case active
    /// Waiting for its turn, not heard lately.
    case idle
}

/// One row of a live table: one cell per column.
public struct LiveRow: Sendable, Equatable {
    public var cells: [String]
    public var status: LiveStatus

    public init(_ cells: [String], status: LiveStatus) {
        self.cells = cells
        self.status = status
    }
}

/// One line of a fitted screen: its text (never wider than the width it was fitted to) and what
/// it is, for colour.
public struct LiveLine: Sendable, Equatable {
    /// Which part of the screen a line is (title, table header, a row with its status, the
    /// "more" line, a message, the summary), which decides how it is shown.
    public enum Role: Sendable, Equatable {
        case title, header, row(LiveStatus), more, message, summary
    }

    public var text: String
    public var role: Role

    public init(_ text: String, role: Role) {
        self.text = text
        self.role = role
    }
}
