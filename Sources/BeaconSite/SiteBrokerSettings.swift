// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconMQTT

/// The broker settings as written, before they are checked: a site file's `broker:` section, or
/// `beacon agent`'s flags (`--broker`, `--ca-file`, …) when it runs without a site file. Both are
/// checked here, by ``read(naming:)``, so they accept and refuse the same things.
public struct SiteBrokerSettings: Sendable, Hashable {
    /// One setting: its key in a site file's `broker:` section.
    public enum Key: String, Sendable, CaseIterable {
        case url
        case caFile = "ca_file"
        case certificateFile = "cert_file"
        case keyFile = "key_file"
        case credentialsFile = "credentials_file"
    }

    /// A problem with one setting: its value (`nil`: missing) and what is allowed.
    public struct Issue: Sendable, Hashable {
        public var key: Key
        public var value: String?
        public var message: String
        /// The setting whose place shows the problem: `key` itself when it was given; for a
        /// setting missing beside one that needs it, that one; `nil` when it is simply missing.
        public var shownAt: Key?
    }

    public var url: String?
    public var caFile: String?
    public var certificateFile: String?
    public var keyFile: String?
    public var credentialsFile: String?

    public init(url: String?, caFile: String? = nil, certificateFile: String? = nil, keyFile: String? = nil, credentialsFile: String? = nil) {
        self.url = url
        self.caFile = caFile
        self.certificateFile = certificateFile
        self.keyFile = keyFile
        self.credentialsFile = credentialsFile
    }

    /// What a broker's address may be.
    public static let allowedURL = "must be mqtt://HOST[:PORT] or mqtts://HOST[:PORT]"

    /// The broker (whenever the address is one, so that a reader can go on checking the rest of
    /// a file) and every problem with the settings. `naming` is how a key is called where it was
    /// written (`cert_file` in a file, `--cert-file` on the command line), for messages that name
    /// another setting.
    public func read(naming: (Key) -> String = \.rawValue) -> (broker: SiteBroker?, issues: [Issue]) {
        var issues: [Issue] = []
        var parsed: MQTTBrokerURL?
        if let url {
            do throws(MQTTError) { parsed = try MQTTBrokerURL(parsing: url) } catch {
                let reason: String
                if case .invalidURL(_, let why) = error { reason = why } else { reason = error.description }
                issues.append(Issue(key: .url, value: url, message: "\(Self.allowedURL); \(reason)", shownAt: .url))
            }
        } else {
            issues.append(Issue(key: .url, value: nil, message: "the broker's address: mqtt://HOST[:PORT] or mqtts://HOST[:PORT]", shownAt: nil))
        }
        if let parsed {
            if parsed.usesTLS, caFile == nil {
                issues.append(Issue(key: .caFile, value: nil, message: "an mqtts:// broker is verified against the certificate authorities in this file",
                                    shownAt: nil))
            }
            if !parsed.usesTLS, let caFile {
                issues.append(Issue(key: .caFile, value: caFile, message: "is for an mqtts:// broker; this one is mqtt:// (no TLS)", shownAt: .caFile))
            }
        }
        if (certificateFile == nil) != (keyFile == nil) {
            let (missing, given): (Key, Key) = certificateFile == nil ? (.certificateFile, .keyFile) : (.keyFile, .certificateFile)
            issues.append(Issue(key: missing, value: nil, message: "a client certificate needs both \(naming(.certificateFile)) and \(naming(.keyFile))",
                                shownAt: given))
        }
        let broker = parsed.map {
            SiteBroker(url: $0, caFile: caFile, certificateFile: certificateFile, keyFile: keyFile, credentialsFile: credentialsFile)
        }
        return (broker, issues)
    }
}
