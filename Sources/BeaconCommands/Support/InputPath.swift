// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconSystem

/// A file a command reads: a path, `-` for standard input, or a pipe the shell made
/// (`<(…)`, which arrives as `/dev/fd/N`) or a FIFO; devices and sockets are refused. Saying
/// precisely why one cannot be read.
enum InputPath {
    /// How messages name it: `-` is standard input.
    static func label(_ path: String) -> String {
        path == "-" ? "- (standard input)" : path.escapingControlCharacters
    }

    /// Why `path` cannot be read, or nil when it can be opened for reading (BeaconSystem's ``InputFile``).
    static func problem(_ path: String) -> String? { InputFile().problem(path) }
}
