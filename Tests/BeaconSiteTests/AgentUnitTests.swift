// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing
import TestSupport

/// contrib/systemd/beacon-agent@.service: systemd accepts it (systemd-analyze verify, warnings
/// taken as failures) and its ExecStart is a command the tool takes.
@Suite struct AgentUnitTests {
    static let unit = PackageRoot.url.appendingPathComponent("contrib/systemd/beacon-agent@.service")

    @Test func theAgentUnitVerifies() throws {
        let analyze = try Executables.require("systemd-analyze", install: "apt-get install systemd, or scripts/setup --tests")
        let text = try String(contentsOf: Self.unit, encoding: .utf8)
        #expect(text.split(separator: "\n").contains("ExecStart=/usr/local/bin/beacon agent --site /etc/beacon/site.yaml --host %i"))
        let beacon = try Executables.beacon.get().path
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacon-agent-unit-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let instance = directory.appendingPathComponent("beacon-agent@pi-west.service")
        try text.replacingOccurrences(of: "/usr/local/bin/beacon", with: beacon).write(to: instance, atomically: true, encoding: .utf8)
        let verify = try Program.run(analyze, ["verify", "--man=no", instance.path])
        #expect(verify.status == 0 && verify.stderr.isEmpty, "\(verify)")
        // The same check refuses a unit whose program is missing (it can fail).
        let broken = directory.appendingPathComponent("beacon-agent@broken.service")
        try text.replacingOccurrences(of: "/usr/local/bin/beacon", with: "/nonexistent/beacon").write(to: broken, atomically: true, encoding: .utf8)
        let refused = try Program.run(analyze, ["verify", "--man=no", broken.path])
        #expect(refused.status != 0 || !refused.stderr.isEmpty, "\(refused)")
        // The options ExecStart passes are the agent's (a site file it can read, --host).
        let help = try Program.run(URL(fileURLWithPath: beacon), ["agent", "--help"])
        #expect(help.status == 0 && help.stdout.contains("--site <site>") && help.stdout.contains("--host <name>"), "\(help)")
    }
}
