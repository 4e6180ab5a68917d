// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import Foundation
import Testing
import TestSupport

/// Whether Bumble can be imported (scripts/test installs it and puts it first on PATH).
enum Bumble {
    static let python = URL(fileURLWithPath: "/usr/bin/env")
    static let isAvailable: Bool =
        (try? Program.run(python, ["python3", "-c", "import bumble.hci"]).status) == 0
    static let missing: Comment = "python3 on PATH has no Bumble 0.0.236: run the tests with scripts/test, which installs it (scripts/setup --tests) and puts its virtual environment first on PATH"
}

/// Checks `encode --format hcitool` against an independent reading of the same bytes: Bumble's
/// HCI command parser (the pinned Bumble the integration tests use). It decodes each command
/// line into named fields, so a wrong field order, byte order or length fails here even if the
/// recipe's own author misread the Core specification.
@Suite
struct HCIToolCrossCheckTests {
    static let python = Bumble.python

    /// Reads hcitool lines on stdin, prints one JSON object per line: `{"beacon": name}` for a
    /// `#` line, else the parsed command's class name and fields.
    static let parser = #"""
        import sys, json
        from bumble.hci import HCI_Packet
        for line in sys.stdin:
            line = line.strip()
            if not line:
                continue
            if line.startswith('#'):
                print(json.dumps({'beacon': line[1:].strip()}))
                continue
            w = line.split()
            assert w[0] == 'hcitool' and w[1] == '-i' and w[3] == 'cmd', line
            ogf, ocf = int(w[4], 16), int(w[5], 16)
            params = bytes(int(x, 16) for x in w[6:])
            opcode = (ogf << 10) | ocf
            packet = HCI_Packet.from_bytes(bytes([1, opcode & 0xFF, opcode >> 8, len(params)]) + params)
            fields = {'command': type(packet).__name__, 'adapter': w[2]}
            for key in ('random_address', 'advertising_interval_min', 'advertising_interval_max', 'advertising_type',
                        'own_address_type', 'peer_address_type', 'advertising_channel_map',
                        'advertising_filter_policy', 'advertising_enable'):
                if hasattr(packet, key):
                    value = getattr(packet, key)
                    fields[key] = int(value) if isinstance(value, int) else str(value).split('/')[0]
            if hasattr(packet, 'advertising_data'):
                fields['advertising_data'] = packet.advertising_data.hex().upper()
            if hasattr(packet, 'scan_response_data'):
                fields['scan_response_data'] = packet.scan_response_data.hex().upper()
            print(json.dumps(fields))
        """#

    @Test func everyProfileBeaconsRecipeReadsBackAsItsFields() throws {
        try #require(Bumble.isAvailable, Bumble.missing)
        let path = "profiles/example.yaml"
        let recipe = try BeaconExecutable.run(["encode", path, "--format", "hcitool", "--adapter", "hci2"])
        let described = try BeaconExecutable.run(["encode", path, "--format", "json"])
        #expect(recipe.status == 0 && described.status == 0, "\(recipe)\n\(described)")
        let parsed = try Program.run(Self.python, ["python3", "-c", Self.parser], stdin: recipe.stdout)
        #expect(parsed.status == 0, "\(parsed)")

        // Group the parsed commands by beacon ("# name" lines start a group).
        var groups: [(name: String, commands: [[String: Any]])] = []
        for line in parsed.lines {
            let object = try BeaconExecutable.jsonObject(line)
            if let name = object["beacon"] as? String {
                groups.append((name, []))
            } else {
                try #require(!groups.isEmpty, "a command before any # line")
                groups[groups.count - 1].commands.append(object)
            }
        }
        let beacons = try described.lines.map(BeaconExecutable.jsonObject)
        #expect(groups.count == beacons.count)

        for (var group, beacon) in zip(groups, beacons) {
            #expect(group.name == beacon["name"] as? String)
            var names = group.commands.map { $0["command"] as? String ?? "?" }
            // A beacon with a local name: its scan response before the enable, and ADV_SCAN_IND.
            let localName = beacon["local_name"] as? String
            if localName != nil, names.count == 6, names[4] == "HCI_LE_Set_Scan_Response_Data_Command" {
                let response = group.commands.remove(at: 4)
                names.remove(at: 4)
                let expected = [UInt8(localName!.utf8.count + 1), 0x09] + Array(localName!.utf8)
                #expect((response["scan_response_data"] as? String)?.hasPrefix(Hex.string(expected)) == true, "\(response)")
            }
            #expect(names == [
                "HCI_LE_Set_Advertising_Enable_Command",
                "HCI_LE_Set_Random_Address_Command",
                "HCI_LE_Set_Advertising_Parameters_Command",
                "HCI_LE_Set_Advertising_Data_Command",
                "HCI_LE_Set_Advertising_Enable_Command",
            ], "\(beacon["name"] ?? "?")")
            guard group.commands.count == 5 else { continue }
            #expect(group.commands.allSatisfy { $0["adapter"] as? String == "hci2" })
            #expect(group.commands[0]["advertising_enable"] as? Int == 0)
            #expect(group.commands[1]["random_address"] as? String == beacon["address"] as? String)
            #expect(group.commands[3]["advertising_data"] as? String == beacon["hex"] as? String)
            let parameters = group.commands[2]
            let units = beacon["interval_units"] as? Int
            #expect(units == Int(((BeaconExecutable.number(beacon["interval_ms"]) ?? 0) / 0.625).rounded()))
            #expect(parameters["advertising_interval_min"] as? Int == units)
            #expect(parameters["advertising_interval_max"] as? Int == units)
            #expect(parameters["advertising_type"] as? Int == (localName == nil ? 0x03 : 0x02))  // ADV_NONCONN_IND, ADV_SCAN_IND
            #expect(parameters["own_address_type"] as? Int == 0x01)  // random
            #expect(parameters["advertising_channel_map"] as? Int == 0x07)
            #expect(parameters["advertising_filter_policy"] as? Int == 0x00)
            #expect(group.commands[4]["advertising_enable"] as? Int == 1)
        }
    }

    /// As `advertise --uuid …` does: the random static address derived from the identity.
    @Test func aCommandLineBeaconUsesItsDerivedAddress() throws {
        try #require(Bumble.isAvailable, Bumble.missing)
        let recipe = try BeaconExecutable.run(["encode", "--format", "hcitool"] + UsageTests.fields)
        let parsed = try Program.run(Self.python, ["python3", "-c", Self.parser], stdin: recipe.stdout)
        #expect(parsed.status == 0, "\(parsed)")
        let commands = try parsed.lines.map(BeaconExecutable.jsonObject)
        #expect(commands.contains { $0["command"] as? String == "HCI_LE_Set_Random_Address_Command" }, "\(recipe)")
        let parameters = try #require(commands.first { $0["command"] as? String == "HCI_LE_Set_Advertising_Parameters_Command" })
        #expect(parameters["own_address_type"] as? Int == 0x01)
        #expect(parameters["advertising_interval_min"] as? Int == 160)
    }
}
