// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconJSON
import BeaconSite
import Testing

/// The agent's telemetry carries its resident set size, read from /proc/self/status through the
/// system-call seam.
@Suite struct ResidentSetSizeTests {
    @Test func theVmRSSLineIsReadInBytes() {
        let status = "Name:\tbeacon\nVmPeak:\t  200000 kB\nVmRSS:\t   12345 kB\nRssAnon:\t    9000 kB\n"
        #expect(ResidentSetSize.parse(status: status) == 12_345 * 1024)
    }

    @Test(arguments: ["Name:\tbeacon\n", "VmRSS:\t12 MB\n", "VmRSS:\t-3 kB\n", "VmRSS:\t kB\n", "VmRSS:\t99999999999999999999 kB\n"])
    func aStatusWithoutAReadableVmRSSGivesNothing(_ status: String) {
        #expect(ResidentSetSize.parse(status: status) == nil)
    }

    @Test func thisProcessHoldsSomeMegabytes() throws {
        let bytes = try #require(ResidentSetSize.current())
        // A Swift test process holds several MiB and (on a CI machine) well under 64 GiB.
        #expect(bytes > 1 << 20 && bytes < 64 << 30, "\(bytes)")
    }

    @Test func noProcGivesNothing() {
        #expect(ResidentSetSize.current(statusFile: "/proc/no-such-process/status") == nil)
    }

    @Test func theTelemetryCarriesItOnlyWhenKnown() {
        let with = HostTelemetry(host: "pi", uptime: 1, onAir: 0, errors: 0, rejected: 0, residentBytes: 4096).json.text
        let without = HostTelemetry(host: "pi", uptime: 1, onAir: 0, errors: 0, rejected: 0).json.text
        #expect(with.contains("\"rss_bytes\":4096") && !without.contains("rss_bytes"), "\(with) \(without)")
    }
}
