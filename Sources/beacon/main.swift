// SPDX-License-Identifier: GPL-2.0-or-later
// The `beacon` executable: everything it does is in BeaconCommands (parsing and presentation)
// and the libraries beneath it.
import BeaconCommands

await BeaconCommandLine.main()
