// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser

/// What `encode` prints for each beacon.
enum EncodeFormat: String, ExpressibleByArgument, CaseIterable {
    /// The advertising data in upper-case hex, one line per beacon.
    case hex
    /// The `hcitool cmd` lines that make a BlueZ box advertise it.
    case hcitool
    /// One JSON object per line.
    case json
}
