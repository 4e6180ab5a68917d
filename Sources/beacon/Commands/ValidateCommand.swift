// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import BeaconCodec

/// `beacon validate FILE…`: checks profile files without touching any adapter.
struct ValidateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check profile files.",
        discussion: """
            Prints "FILE: OK (N beacons)" for each valid file. For an invalid one, every issue \
            goes to standard error as "file:line:column: field: value: message", and the exit \
            status is 65 (1 if a file cannot be read). Every file is checked even when one fails.
            """
    )

    @Argument(help: ArgumentHelp("Profile files (YAML or JSON).", valueName: "file"))
    var files: [String]

    func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one profile file") }
    }

    mutating func run() async throws {
        var tally = ExitTally()
        for file in files {
            switch ProfileFiles.load(file) {
            case .success(let fleet):
                let count = fleet.beacons.count
                LineOutput.out("\(file.escapingControlCharacters): OK (\(count) \(count == 1 ? "beacon" : "beacons"))")
            case .failure(let code):
                tally.record(code)
            }
        }
        try tally.finish()
    }
}
