// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import BeaconSite

/// `beacon agent`'s flags for a host that runs without a site file: the keys of a site file's
/// `broker:` section, flag by key, and the site's name (`SiteAgentSettings` checks them as the
/// file's are).
struct BrokerOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The broker, without a site file: mqtt://HOST[:PORT] (1883) or mqtts://HOST[:PORT] (8883, TLS, verified).", valueName: "url"))
    var broker: String?

    @Option(help: ArgumentHelp("The site's name (a-z 0-9 - _: the topics' second level), with --broker.", valueName: "name"))
    var siteName: String?

    @Option(help: ArgumentHelp("The file with the MQTT user name and password (two lines, mode 0600, owned by you), with --broker; else BEACON_MQTT_USERNAME and BEACON_MQTT_PASSWORD.", valueName: "file"))
    var credentials: String?

    @Option(help: ArgumentHelp("The certificate authorities that verify an mqtts:// broker (required there).", valueName: "file"))
    var caFile: String?

    @Option(help: ArgumentHelp("A client certificate for the broker (with --key-file).", valueName: "file"))
    var certFile: String?

    @Option(help: ArgumentHelp("The client certificate's key (with --cert-file).", valueName: "file"))
    var keyFile: String?

    /// Whether any of these flags was given (they stand instead of a site file).
    var given: Bool { [broker, siteName, credentials, caFile, certFile, keyFile].contains { $0 != nil } }

    /// The flag of each setting.
    static func flag(_ setting: SiteAgentSettings.Setting) -> String {
        switch setting {
        case .siteName: "--site-name"
        case .host: "--host"
        case .adapter: "-i"
        case .broker(.url): "--broker"
        case .broker(.caFile): "--ca-file"
        case .broker(.certificateFile): "--cert-file"
        case .broker(.keyFile): "--key-file"
        case .broker(.credentialsFile): "--credentials"
        }
    }

    /// The site, broker and radios these flags, `host` and `adapters` give, or a usage error
    /// naming each flag that is wrong and what it allows.
    func checked(host: String, adapters: [String]) throws(ValidationError) -> SiteAgentSettings.Checked {
        let settings = SiteAgentSettings(siteName: siteName, host: host, adapters: adapters, broker: SiteBrokerSettings(
            url: broker, caFile: caFile, certificateFile: certFile, keyFile: keyFile, credentialsFile: credentials))
        switch settings.checked(naming: { Self.flag(.broker($0)) }) {
        case .success(let checked): return checked
        case .failure(let refused):
            throw ValidationError(refused.issues.map { "\(Self.flag($0.setting))\($0.value.map { " \($0)" } ?? ""): \($0.message)" }.joined(separator: "\n"))
        }
    }
}
