// SPDX-License-Identifier: GPL-2.0-or-later

/// The `beacon` command line as a library: the executable (`Sources/beacon/main.swift`) only
/// calls ``main()``. Parsing and presentation live here, so tests reach them with
/// `@testable import BeaconCommands` instead of spawning the binary; the decisions they present
/// live in the libraries below (BeaconEmulator's `FleetRun`, BeaconAdapters, BeaconScenarios …).
public enum BeaconCommandLine {
    /// Runs the command `CommandLine.arguments` name and exits with its status (0, 1, 2, 65 …).
    public static func main() async {
        await Beacon.main()
    }
}
