// SPDX-License-Identifier: GPL-2.0-or-later
import Logging

/// `-q`, `-v` and `--log-level LEVEL`: flags of every command, taken out of the arguments before
/// they are parsed (so they go anywhere: `beacon -v advertise …` or `beacon advertise … -v`).
///
/// The default level is `notice`: the plan, notes and summaries on standard error. `-q` hides them
/// (warnings and errors remain; `-qq`: errors only) and the progress line; `-v` adds `info`, `-vv`
/// `debug`, `-vvv` `trace` (every HCI packet). `--log-level` names the level: trace, debug, info,
/// notice, warning, error or critical. The last of them wins.
struct LogSettings: Equatable, Sendable {
    var level: Logger.Level = .notice

    /// Whether progress lines may be shown.
    var showsProgress: Bool { level <= .notice }

    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    static let levelNames = Logger.Level.allCases.map(\.rawValue)

    /// The settings the arguments ask for, and the arguments without them. Nothing after `--`
    /// is looked at.
    static func extract(_ arguments: [String]) throws(Problem) -> (LogSettings, [String]) {
        var settings = LogSettings()
        var rest: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                rest += arguments[(index - 1)...]
                break
            }
            if argument == "--quiet" { settings.level = .warning; continue }
            if argument == "--log-level" || argument.hasPrefix("--log-level=") {
                let value: String
                if argument == "--log-level" {
                    guard index < arguments.endIndex else { throw Problem(description: "--log-level needs a level: \(levelNames.joined(separator: ", "))") }
                    value = arguments[index]
                    index += 1
                } else {
                    value = String(argument.dropFirst("--log-level=".count))
                }
                guard let level = Logger.Level(rawValue: value.lowercased()) else {
                    throw Problem(description: "--log-level must be one of \(levelNames.joined(separator: ", ")) (got '\(value)')")
                }
                settings.level = level
                continue
            }
            // -q, -qq, -v, -vv, -vvv.
            if argument.count >= 2, argument.hasPrefix("-"), !argument.hasPrefix("--") {
                let letters = argument.dropFirst()
                if letters.allSatisfy({ $0 == "q" }) {
                    settings.level = letters.count == 1 ? .warning : .error
                    continue
                }
                if letters.allSatisfy({ $0 == "v" }) {
                    settings.level = [Logger.Level.info, .debug, .trace][min(letters.count, 3) - 1]
                    continue
                }
            }
            rest.append(argument)
        }
        return (settings, rest)
    }
}
