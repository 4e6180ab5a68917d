// SPDX-License-Identifier: GPL-2.0-or-later
// What a program that runs a fleet names besides the fleet: the adapters (`AdapterSpec`, parsed
// from `hci0`, `virtual`, `tcp:HOST:PORT`, …), how they are opened, and why that failed. Exported
// here so that `import BeaconEmulator` is enough for a ``FleetRun``.
@_exported import enum HCITransport.AdapterSpec
@_exported import struct BeaconAdapters.AdapterOpening
@_exported import enum BeaconAdapters.AdapterOpenError
@_exported import struct VirtualController.SharedAir
