// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconSystem

/// The command line's output layer is BeaconSystem's (the same for every front end); this name
/// lets every command file use it without importing BeaconSystem itself.
typealias LineOutput = BeaconSystem.LineOutput
