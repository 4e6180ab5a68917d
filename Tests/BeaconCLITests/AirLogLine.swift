// SPDX-License-Identifier: GPL-2.0-or-later

/// One `air …` line of a run on the virtual controller:
/// `air +0.100 s set 0 C0:11:22:33:44:55 random ADV_NONCONN_IND 0201061AFF…`.
struct AirLogLine: Equatable {
    /// Seconds on the controller's clock.
    var time: Double
    /// `set 0` or `legacy`.
    var advertiser: String
    var address: String
    var pdu: String
    var data: String

    init?(_ line: String) {
        let words = line.split(separator: " ").map(String.init)
        guard words.count >= 8, words[0] == "air", words[1].hasPrefix("+"), words[2] == "s",
              let time = Double(words[1].dropFirst()) else { return nil }
        self.time = time
        let addressIndex = words[3] == "legacy" ? 4 : 5
        guard words.count == addressIndex + 4 else { return nil }
        advertiser = words[3..<addressIndex].joined(separator: " ")
        address = words[addressIndex]
        pdu = words[addressIndex + 2]
        data = words[addressIndex + 3]
    }

    /// Every air line of `output`.
    static func all(_ output: String) -> [AirLogLine] {
        output.split(separator: "\n").compactMap { AirLogLine(String($0)) }
    }
}

/// The address and advertising data of each beacon of a profile, as `list --json` and `encode`
/// print them (the independent source of truth for what must appear on air).
struct ExpectedBeacon: Equatable {
    var name: String
    var address: String
    var data: String

    static func from(_ profile: String) throws -> [ExpectedBeacon] {
        let list = try BeaconExecutable.run(["list", "--json", profile])
        let encoded = try BeaconExecutable.run(["encode", profile])
        let objects = try list.lines.map(BeaconExecutable.jsonObject)
        guard list.status == 0, encoded.status == 0, objects.count == encoded.lines.count else { return [] }
        return zip(objects, encoded.lines).map { object, hex in
            ExpectedBeacon(name: object["name"] as? String ?? "", address: object["address"] as? String ?? "", data: hex)
        }
    }
}
