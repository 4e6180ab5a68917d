// SPDX-License-Identifier: GPL-2.0-or-later

/// The version `beacon --version` prints.
enum BeaconVersion {
    static let string = "0.1.0"
}
