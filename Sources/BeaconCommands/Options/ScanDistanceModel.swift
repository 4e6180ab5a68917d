// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser

/// `--model altbeacon|pathloss`: which distance model `beacon scan` ranges with.
enum ScanDistanceModel: String, CaseIterable, ExpressibleByArgument, Sendable {
    case altbeacon
    case pathloss
}
