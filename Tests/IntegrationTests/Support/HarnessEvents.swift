// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import Foundation

/// One `adv` line: an advertising event the harness's scanner (controller B) received.
struct HarnessAdvertisement: Sendable, CustomStringConvertible {
    var address: String
    var addressType: Int
    var legacy: Bool
    var connectable: Bool
    var scannable: Bool
    /// With `--active-scan`: Bumble's host joined a scannable advertisement and its scan
    /// response into this one (`data` is then the advertising data followed by the response).
    var scanResponse = false
    var data: [UInt8]
    /// `time.monotonic()` of the harness (CLOCK_MONOTONIC), seconds.
    var time: Double

    var description: String { "adv \(address) type \(addressType) legacy \(legacy) at \(time): \(Hex.string(data))" }
}

/// One `cmd` line: a command controller A handled, and the status it answered.
struct HarnessCommand: Sendable, CustomStringConvertible {
    var opcode: UInt16
    var name: String
    var parameters: [UInt8]
    /// `nil` for a pending Command Status.
    var status: Int?
    var time: Double

    var description: String {
        "cmd 0x\(String(opcode, radix: 16, uppercase: true)) \(name) \(Hex.string(parameters)) status \(status.map(String.init) ?? "pending") at \(time)"
    }
}

/// One `sets` line: controller A's advertising state.
struct HarnessSets: Sendable, CustomStringConvertible {
    var reason: String
    var legacyEnabled: Bool
    var existing: [Int]
    var active: [Int]
    var time: Double

    /// Nothing on air and nothing left behind.
    var isClean: Bool { !legacyEnabled && existing.isEmpty && active.isEmpty }

    var description: String { "sets (\(reason)) legacy_enabled \(legacyEnabled) existing \(existing) active \(active) at \(time)" }
}

/// The `ready` line.
struct HarnessReady: Sendable {
    var port: UInt16
    var address: String
    var extended: Bool
    var maxSets: Int
    var hciVersion: Int
    var pid: Int32
    /// The second controller's port (`--scanner-port`; 0 asks the kernel for a free one), if served.
    var scannerPort: UInt16 = 0
}

/// A parsed stdout line of `bumble_link.py`.
enum HarnessEvent: Sendable {
    case ready(HarnessReady)
    case advertisement(HarnessAdvertisement)
    case command(HarnessCommand)
    case sets(HarnessSets)
    case error(String)
    case exit(reason: String)
    /// `connected`, `disconnected`, and kinds added later.
    case other(String)

    /// Parses one JSON line; `nil` when it is not a JSON object with an `event`.
    init?(line: String) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              let event = object["event"] as? String else { return nil }
        func int(_ key: String) -> Int? { (object[key] as? NSNumber)?.intValue }
        func double(_ key: String) -> Double { (object[key] as? NSNumber)?.doubleValue ?? .nan }
        func bool(_ key: String) -> Bool { (object[key] as? NSNumber)?.boolValue ?? false }
        func string(_ key: String) -> String { object[key] as? String ?? "" }
        switch event {
        case "ready":
            self = .ready(HarnessReady(port: UInt16(int("port") ?? 0), address: string("address"), extended: bool("extended"),
                                       maxSets: int("max_sets") ?? 0, hciVersion: int("hci_version") ?? 0, pid: Int32(int("pid") ?? 0), scannerPort: UInt16(int("scanner_port") ?? 0)))
        case "adv":
            self = .advertisement(HarnessAdvertisement(
                address: string("address"), addressType: int("address_type") ?? -1, legacy: bool("legacy"),
                connectable: bool("connectable"), scannable: bool("scannable"), scanResponse: bool("scan_response"),
                data: Hex.bytes(string("data")) ?? [],
                time: double("time")))
        case "cmd":
            let opcodeText = string("opcode")
            self = .command(HarnessCommand(
                opcode: UInt16(opcodeText.dropFirst(2), radix: 16) ?? 0, name: string("name"),
                parameters: Hex.bytes(string("params")) ?? [], status: int("status"), time: double("time")))
        case "sets":
            self = .sets(HarnessSets(
                reason: string("reason"), legacyEnabled: bool("legacy_enabled"),
                existing: (object["existing"] as? [NSNumber])?.map(\.intValue) ?? [],
                active: (object["active"] as? [NSNumber])?.map(\.intValue) ?? [], time: double("time")))
        case "error": self = .error(string("message"))
        case "exit": self = .exit(reason: string("reason"))
        default: self = .other(event)
        }
    }
}
