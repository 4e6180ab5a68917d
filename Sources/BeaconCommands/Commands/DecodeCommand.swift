// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import BeaconCodec
import BeaconJSON
import BeaconSystem

/// `beacon decode HEX…`: reads iBeacon (or Eddystone, AltBeacon) advertising data and prints its
/// fields, or why it is not a valid payload and at which byte.
struct DecodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode iBeacon, Eddystone or AltBeacon advertising data given in hex.",
        discussion: """
            Each argument is one payload; with no arguments, standard input is read, one payload \
            per line (blank lines are skipped), each answered as soon as its line arrives. Hex may contain spaces, colons, hyphens or \
            underscores between bytes and may start with 0x.

            Text output is one line per valid payload on standard output; each invalid payload \
            is reported on standard error as "error: INPUT: byte N: KIND: REASON" ("character N" \
            for text that is not hex; both count from 0). With --json, \
            every input gives exactly one JSON object on standard output, in input order:
              {"format":"ibeacon","uuid":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E0","major":1,"minor":2,"power":-59}
              {"error":"length-overrun","offset":3,"reason":"…"}
            (offset is the byte offset of the fault; for "invalid-hex" it is the character offset).
            Eddystone-UID, -URL, -TLM and AltBeacon payloads are recognised too; their JSON \
            starts with "format":
              {"format":"eddystone-url","url":"https://example.com","tx_power":-20}
            Data without any beacon is reported as "no-ibeacon", as always; a fault in an \
            Eddystone or AltBeacon structure by its own kind (e.g. "eddystone-url-character").

            Exits with 65 if any input failed to decode.

            --capture FILE reads a btsnoop (btmon -w, Android, beacon --btsnoop), pcap or \
            pcapng (Wireshark, tshark; any byte order, several sections and interfaces) capture \
            of link type 187, 201, 254 (HCI) or 251, 256 (a sniffer's LE Link Layer) instead \
            and prints every iBeacon in its LE (Extended) Advertising Reports, in its own LE Set \
            (Extended) Advertising Data commands and in sniffed legacy advertising PDUs \
            (source "link-layer"): time, source, address, RSSI, UUID, major, minor, power; with \
            --json one object per beacon:
              {"time":1700000000.123456,"source":"report","address":"C0:11:22:33:44:55",
               "rssi":-61,"format":"ibeacon","uuid":"…","major":1,"minor":2,"power":-59}

            Examples:
              beacon encode profiles/room-2m.yaml | beacon decode
              beacon encode --url https://example.com | beacon decode --json
            """
    )

    @Argument(help: ArgumentHelp("Advertising data in hex (default: one payload per line on standard input).", valueName: "hex"))
    var payloads: [String] = []

    @Flag(help: "Print one JSON object per input.")
    var json = false

    @Flag(help: "Find an iBeacon in malformed or foreign data instead of refusing it.")
    var lenient = false

    @Flag(help: "Accept up to 254 bytes (one extended advertising fragment) instead of 31.")
    var extended = false

    @Option(help: ArgumentHelp("Read the iBeacons of a btsnoop, pcap or pcapng capture file instead of hex (- reads standard input).", valueName: "file"),
            completion: .file())
    var capture: String?

    var options: BeaconDecodingOptions {
        if lenient { return .lenient }
        return extended ? .strictExtended : .strict
    }

    mutating func run() async throws {
        if let capture { return try runCapture(path: capture) }
        var tally = ExitTally()
        let (options, json) = (self.options, self.json)
        func decode(_ input: String) {
            let text = input.trimmingWhitespace()
            do throws(PayloadDecodingError) {
                let beacon = try AnyBeacon(identifyingHex: text, options: options)
                LineOutput.out(json ? JSONValue.object(BeaconObject.fields(beacon, naming: .payload)).text : beacon.description)
            } catch {
                tally.record(ExitStatus.dataError)
                if json {
                    LineOutput.out(error.json.text)
                } else {
                    LineOutput.err("error: \(text.escapingControlCharacters): \(error)")
                }
            }
        }
        if payloads.isEmpty {
            // Line by line: each answer is out (flushed, even into a pipe) before the next line is
            // read, so `decode` can sit at the end of a pipe that stays open.
            do {
                try LineOutput.forEachStandardInputLine { line in
                    guard !line.allSatisfy(\.isWhitespace) else { return }
                    decode(line)
                    LiveSystemCalls().flushStandardStreams()  // every stdio output stream: stdout is shared mutable state to Swift 6
                }
            } catch {
                LineOutput.err("error: \(error)")
                tally.record(ExitStatus.dataError)
            }
        } else {
            payloads.forEach(decode)
        }
        try tally.finish()
    }
}

extension PayloadDecodingError {
    /// The fault as one JSON object: `error` (the kind's name), `offset`, `reason`.
    var json: JSONValue {
        .object([("error", .string(kind.name)), ("offset", .int(offset)), ("reason", .string(reason))])
    }
}

extension String {
    /// The string without leading and trailing whitespace (and the `\r` of CRLF input).
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}
