// SPDX-License-Identifier: GPL-2.0-or-later
import Testing
import TestSupport

/// `beacon agent` without a site file: its broker flags are checked as a site file's `broker:`
/// section is (SiteBrokerSettings), each error naming the flag and what it allows, before
/// anything is opened or connected (exit 2). AgentTests runs an agent from these flags on a real
/// Mosquitto.
@Suite struct AgentBrokerFlagsTests {
    static let base = ["agent", "--host", "pi", "--site-name", "lab", "-i", "virtual"]

    static let refused: [(arguments: [String], message: String)] = [
        (base + ["--broker", "mqtts://127.0.0.1"], "--ca-file: an mqtts:// broker is verified against the certificate authorities in this file"),
        (base + ["--broker", "ftp://broker.lan"], "--broker ftp://broker.lan: must be mqtt://HOST[:PORT] or mqtts://HOST[:PORT]"),
        (base + ["--broker", "mqtt://127.0.0.1:70000"], "--broker mqtt://127.0.0.1:70000: must be mqtt://HOST[:PORT] or mqtts://HOST[:PORT]"),
        (base + ["--broker", "mqtt://127.0.0.1", "--ca-file", "ca.crt"], "--ca-file ca.crt: is for an mqtts:// broker; this one is mqtt:// (no TLS)"),
        (base + ["--broker", "mqtt://127.0.0.1", "--cert-file", "client.crt"], "a client certificate needs both --cert-file and --key-file"),
        (["agent", "--host", "pi", "--site-name", "Lab!", "-i", "virtual", "--broker", "mqtt://127.0.0.1"], "--site-name Lab!: may hold only lowercase letters"),
        (["agent", "--host", "pi", "-i", "virtual", "--broker", "mqtt://127.0.0.1"], "--site-name: required with the broker"),
        (["agent", "--host", "pi", "--site-name", "lab", "--broker", "mqtt://127.0.0.1"], "-i: required with the broker"),
        (["agent", "--host", "pi", "--site-name", "lab", "--broker", "mqtt://127.0.0.1", "-i", "hci0/x"], "-i hci0/x: may not hold /, +, #"),
        (["agent", "--host", "pi", "--site-name", "lab", "--broker", "mqtt://127.0.0.1", "-i", "virtual", "-i", "virtual"], "-i: each radio once"),
        (["agent", "--host", "Pi West", "--site-name", "lab", "--broker", "mqtt://127.0.0.1", "-i", "virtual"], "--host Pi West: may hold only lowercase letters"),
        (["agent", "--host", "pi", "--site", "examples/site-lab.yaml", "--broker", "mqtt://127.0.0.1"], "give either --site or --broker, --site-name and -i"),
        (["agent", "--host", "pi"], "give --site SITE, or --broker URL, --site-name NAME and -i ADAPTER"),
    ]

    @Test(arguments: refused.indices)
    func aBadFlagIsAUsageErrorNamingIt(_ index: Int) throws {
        let (arguments, message) = Self.refused[index]
        let result = try BeaconExecutable.run(arguments)
        #expect(result.status == 2, "\(arguments): \(result)")
        #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}
