// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconJSON
import HCI
import KnownControllers
import TextLayout

/// The catalogue's models in words and as JSON: `doctor`'s recognised model and its known limits,
/// `doctor --known-controllers` (the table docs/CONTROLLERS.md shows, and the JSON the Bumble
/// harness reads as Tests/Harness/controllers.json).
enum ControllerModelText {
    /// What a user of this model should know, one sentence each, from its catalogue facts: how
    /// beacon copes, or what the user must do.
    static func limits(_ model: ControllerModel) -> [String] {
        var limits: [String] = []
        if !model.extendedAdvertising {
            limits.append("legacy advertising only: one advertiser, beacons take turns")
        } else if !model.extendedAdvertisingWorks {
            let refused = model.refusedCommands.map { HCICommandRegistry.commandType(for: $0)?.name ?? $0.description }
            limits.append("lists extended advertising but its firmware answers \(refused.joined(separator: ", ")) Unknown HCI Command: beacon resets it and advertises with legacy commands (on a controller it owns: user:, serial:, tcp:)")
        } else if model.advertisingSets == 1 {
            limits.append("one advertising set: beacons take turns")
        }
        if model.hciVersion < .v5_0 {
            limits.append("Bluetooth \(model.hciVersion.name ?? "4.x"): non-connectable advertising not below 100 ms")
        } else if model.nonConnectableFloor >= .milliseconds(100) {
            limits.append("claims Bluetooth \(model.hciVersion.name ?? "5.x") but refuses non-connectable advertising below \(milliseconds(model.nonConnectableFloor)): beacon plans at least that")
        }
        if !model.hasPublicAddress {
            limits.append("no public address (00:00:00:00:00:00): the kernel will not power it up (EADDRNOTAVAIL) until bluetoothd sets one; or use it as user:, serial: or tcp:, which need none")
        }
        if model.unansweredCommands.contains(LEReadTransmitPower.opcode) {
            limits.append("never answers LE Read Transmit Power: beacon waits 250 ms for it, then goes on without a TX power range")
        }
        for opcode in model.unansweredCommands where opcode != LEReadTransmitPower.opcode {
            limits.append("never answers \(HCICommandRegistry.commandType(for: opcode)?.name ?? opcode.description)")
        }
        let packets = model.commandPackets == 1 ? "one command at a time" : "\(model.commandPackets) commands at a time"
        limits.append("takes \(packets), about \(milliseconds(model.commandLatency)) each")
        return limits
    }

    /// `Bluetooth 5.1, 12 sets, 1650 bytes` or `Bluetooth 4.1, legacy only`.
    static func summary(_ model: ControllerModel) -> String {
        let version = "Bluetooth \(model.hciVersion.name ?? model.hciVersion.description)"
        guard model.extendedAdvertising else { return version + ", legacy only" }
        return version + ", \(Plural.of(model.advertisingSets, "set")), \(model.maximumAdvertisingDataLength) bytes"
    }

    /// The table of `doctor --known-controllers`.
    static func table(_ models: [ControllerModel]) -> [String] {
        var lines: [String] = []
        for model in models {
            lines.append("\(model.id): \(model.title)")
            lines.append("  reports: \(summary(model)); \(CompanyNames.describe(model.manufacturer)), LMP subversion \(hex(model.lmpSubversion))")
            for limit in limits(model) { lines.append("  - " + limit) }
            if !model.notes.isEmpty { lines.append("  note: " + model.notes) }
            lines.append("  sources: " + model.sources.joined(separator: "; "))
        }
        return lines
    }

    /// `1.5 ms`, `100 ms`: fractions kept, as command times are that short.
    static func milliseconds(_ d: Duration) -> String { NumberText.string(d / .milliseconds(1)) + " ms" }

    static func hex(_ value: UInt16) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// One model as JSON: every fact the harness needs to imitate it, and the limits in words.
    static func json(_ model: ControllerModel) -> JSONValue {
        .object([
            ("id", .string(model.id)),
            ("title", .string(model.title)),
            ("hci_version", .int(model.hciVersion.rawValue)),
            ("hci_version_name", .string(model.hciVersion.name)),
            ("hci_revision", .int(model.hciRevision)),
            ("lmp_subversion", .int(model.lmpSubversion)),
            ("manufacturer", .int(model.manufacturer)),
            ("extended_advertising", .bool(model.extendedAdvertising)),
            ("advertising_sets", .int(model.advertisingSets)),
            ("maximum_advertising_data_length", .int(model.maximumAdvertisingDataLength)),
            ("tx_power_min", .int(model.txPowerRange?.lowerBound)),
            ("tx_power_max", .int(model.txPowerRange?.upperBound)),
            ("public_address", .bool(model.hasPublicAddress)),
            ("command_packets", .int(model.commandPackets)),
            ("command_latency_ms", .double(model.commandLatency / .milliseconds(1))),
            ("quirks", .array(model.quirks.map { .string($0.description) })),
            ("recognition", model.recognition.map { recognition in
                .object([
                    ("lmp_subversions", .array(recognition.lmpSubversions.map { .array([.int($0.lowerBound), .int($0.upperBound)]) })),
                    ("hci_versions", .array([.int(recognition.versions.lowerBound.rawValue), .int(recognition.versions.upperBound.rawValue)])),
                ])
            } ?? .null),
            ("limits", .array(limits(model).map { .string($0) })),
            ("notes", .string(model.notes)),
            ("sources", .array(model.sources.map { .string($0) })),
        ])
    }

    /// The catalogue as Tests/Harness/controllers.json holds it: one model per line, so a change
    /// reads as a change to one model.
    static func catalogueJSON(_ models: [ControllerModel]) -> String {
        "{\"controllers\": [\n" + models.map { "  " + json($0).text }.joined(separator: ",\n") + "\n]}"
    }
}
