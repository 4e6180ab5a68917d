// SPDX-License-Identifier: GPL-2.0-or-later
import TextLayout
import ArgumentParser
import BeaconCodec
import BeaconJSON
import HCITransport

/// `beacon adapters`: the Bluetooth adapters the kernel has.
struct AdaptersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "adapters",
        abstract: "List the kernel's Bluetooth adapters.",
        discussion: """
            One row per adapter: name, public address, and whether it is up and running. On a \
            kernel without Bluetooth support the advice is printed and the exit status is 1. \
            Controllers that are not kernel adapters (-i tcp:…, serial:…, virtual) are not listed.

            Examples:
              beacon adapters
              beacon adapters --json
            """
    )

    @Flag(help: "Print one JSON object per adapter.")
    var json = false

    mutating func run() async throws {
        let adapters: [KernelAdapter]
        do throws(TransportError) { adapters = try KernelTransport.adapters() } catch {
            throw CommandFailure.exit("\(error)")
        }
        if json {
            for a in adapters {
                LineOutput.out(JSONValue.object([
                    ("name", .string("hci\(a.id)")), ("address", .string(a.address.description)),
                    ("up", .bool(a.isUp)), ("running", .bool(a.isRunning)),
                ]).text)
            }
            return
        }
        guard !adapters.isEmpty else {
            LineOutput.err("no Bluetooth adapters (the kernel supports Bluetooth, but no controller is attached); -i virtual works without one")
            return
        }
        var table = TextTable(headers: ["NAME", "ADDRESS", "STATE"])
        for a in adapters {
            table.append(["hci\(a.id)", a.address.description, a.isUp ? (a.isRunning ? "up, running" : "up") : "down"])
        }
        for line in table.lines { LineOutput.out(line) }
    }
}
