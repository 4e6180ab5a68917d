// SPDX-License-Identifier: GPL-2.0-or-later
import Logging

/// swift-log's handler for the CLI: one line on standard error per message, through
/// ``LineOutput`` (never interleaved with other output). Notices and info are printed as they
/// are (the plan, notes); warnings and errors get `warning:` / `error:`; debug and trace name
/// the logger too (`debug: beacon.hci: …`).
struct StandardErrorLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]

    init(label: String, level: Logger.Level) {
        self.label = label
        logLevel = level
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        LineOutput.err(Self.line(level: event.level, label: label, message: "\(event.message)"))
    }

    static func line(level: Logger.Level, label: String, message: String) -> String {
        switch level {
        case .notice, .info: message
        case .warning: "warning: \(message)"
        case .error, .critical: "error: \(message)"
        case .debug, .trace: "\(level.rawValue): \(label): \(message)"
        }
    }
}

/// The CLI's loggers, and the settings they were made with.
enum Log {
    /// Set once by `Beacon.main()` before anything logs.
    nonisolated(unsafe) static var settings = LogSettings()

    static let cli = Logger(label: "beacon")

    /// A notice of the CLI (the plan, notes, summaries): hidden by -q.
    static func notice(_ message: String) { cli.notice("\(message)") }

    /// What only -v shows.
    static func info(_ message: String) { cli.info("\(message)") }

    /// Installs the handler for every logger of the process (the libraries' too); once.
    static func bootstrap(_ settings: LogSettings) {
        Log.settings = settings
        LoggingSystem.bootstrap { label in StandardErrorLogHandler(label: label, level: settings.level) }
    }
}
