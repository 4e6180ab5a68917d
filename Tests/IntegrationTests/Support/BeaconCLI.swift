// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import TestSupport

/// The built `beacon` executable (found by TestSupport's ``Executables``).
enum BeaconCLI {
    /// Runs `beacon arguments…` in the package root to completion.
    static func run(_ arguments: [String]) throws -> ProgramOutput {
        try Program.run(try Executables.beacon.get(), arguments)
    }

    /// Starts `beacon arguments…` in the background (for signals).
    static func start(_ arguments: [String]) throws -> BackgroundProgram {
        try BackgroundProgram(try Executables.beacon.get(), arguments)
    }
}
