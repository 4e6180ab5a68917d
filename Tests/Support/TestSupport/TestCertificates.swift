// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation

/// A certificate authority, a broker certificate for 127.0.0.1 and localhost and a client certificate, made
/// with openssl for one test (elliptic-curve keys: quick to make).
public struct TestCertificates {
    /// The directory holding the keys and certificates (ca.crt, other-ca.crt, server.crt and
    /// .key, client.crt and .key).
    public let directory: URL
    /// The path of one of the files.
    public func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Makes them all with openssl in a new temporary directory.
    public init() throws {
        let openssl = try Executables.require("openssl", install: "apt-get install openssl")
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacon-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("subjectAltName=IP:127.0.0.1,DNS:localhost\n".utf8).write(to: directory.appendingPathComponent("server.ext"))
        let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        let steps: [[String]] = [
            ["req", "-x509"] + key + ["-keyout", "ca.key", "-out", "ca.crt", "-days", "2", "-subj", "/CN=beacon test CA"],
            ["req", "-x509"] + key + ["-keyout", "other-ca.key", "-out", "other-ca.crt", "-days", "2", "-subj", "/CN=someone else's CA"],
            ["req"] + key + ["-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1"],
            ["x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
             "-out", "server.crt", "-days", "2", "-extfile", "server.ext"],
            ["req"] + key + ["-keyout", "client.key", "-out", "client.csr", "-subj", "/CN=host1"],
            ["x509", "-req", "-in", "client.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-out", "client.crt", "-days", "2"],
        ]
        for step in steps {
            let result = try Program.run(openssl, step, in: directory)
            guard result.status == 0 else { throw MosquittoBroker.Failure(description: "openssl \(step.joined(separator: " ")): \(result)") }
        }
    }
}
