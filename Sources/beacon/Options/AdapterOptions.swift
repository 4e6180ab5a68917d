// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser

/// `--adapter hciN`: which Bluetooth controller a command talks about (shared by every command
/// that prints or drives HCI).
struct AdapterOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The Bluetooth adapter, as BlueZ names it.", valueName: "hciN"))
    var adapter = "hci0"

    /// The adapter's index (`hci3` → 3).
    var index: Int? { adapter.hasPrefix("hci") ? Int(adapter.dropFirst(3)) : nil }

    func validate() throws {
        guard let index, index >= 0, index <= 0xFFFE else {
            throw ValidationError("--adapter must be an adapter name such as hci0 (got '\(adapter)')")
        }
    }
}
