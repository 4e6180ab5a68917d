// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import BeaconProfiles

/// A length of time on the command line, in BeaconProfiles' ``DurationSyntax`` (the grammar of
/// scenario files too): `30s`, `500ms`, `2m`, `1h`, `1m30s`, or a bare number of seconds (`5`,
/// `0.5`). Always more than zero.
struct DurationArgument: ExpressibleByArgument, Sendable, CustomStringConvertible {
    var duration: Duration
    /// How it was written, for messages.
    var text: String

    init?(argument: String) { self.init(argument, allowingZero: false) }

    /// `allowingZero`: `0` (or `0s`) is a duration too, for a point in time such as `play --from`.
    init?(_ argument: String, allowingZero: Bool) {
        guard let seconds = DurationSyntax.seconds(argument), seconds > 0 || (allowingZero && seconds == 0) else { return nil }
        let nanoseconds = (seconds * 1e9).rounded()
        guard nanoseconds >= 1 || (allowingZero && seconds == 0), nanoseconds < Double(Int64.max) else { return nil }
        duration = .nanoseconds(Int64(nanoseconds))
        text = argument
    }

    var description: String { text }

    static var defaultCompletionKind: CompletionKind { .default }
}

/// A time from a start on the command line (`play --from`): a ``DurationArgument`` that may be 0.
struct TimeOffsetArgument: ExpressibleByArgument, Sendable, CustomStringConvertible {
    var offset: DurationArgument

    init?(argument: String) {
        guard let offset = DurationArgument(argument, allowingZero: true) else { return nil }
        self.offset = offset
    }

    var description: String { offset.text }

    static var defaultCompletionKind: CompletionKind { .default }
}
