// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import BeaconRadio

/// What an agent needs of its site when it runs without the site file (`beacon agent --broker`):
/// the site's name, its own host name and radios, and the broker settings, checked as a site
/// file's `name`, `radios[].host`, `radios[].adapter` and `broker:` are.
public struct SiteAgentSettings: Sendable, Hashable {
    /// One setting, for messages: the command line names each its own way.
    public enum Setting: Sendable, Hashable {
        case siteName
        case host
        case adapter
        case broker(SiteBrokerSettings.Key)
    }

    /// A problem with one setting: its value (`nil`: missing) and what is allowed.
    public struct Issue: Sendable, Hashable {
        public var setting: Setting
        public var value: String?
        public var message: String
    }

    /// The settings, checked.
    public struct Checked: Sendable {
        public var site: String
        public var broker: SiteBroker
        /// The host's radios. Their positions are the site file's: here, all at the origin.
        public var radios: [SiteRadio]
    }

    public var siteName: String?
    public var host: String
    public var adapters: [String]
    public var broker: SiteBrokerSettings

    public init(siteName: String?, host: String, adapters: [String], broker: SiteBrokerSettings) {
        self.siteName = siteName
        self.host = host
        self.adapters = adapters
        self.broker = broker
    }

    /// The settings checked, or every problem with them; `naming` is how the broker's settings
    /// are called where they were given (for messages that name another one).
    public func checked(naming: (SiteBrokerSettings.Key) -> String = \.rawValue) -> Result<Checked, Issues> {
        var issues: [Issue] = []
        if let siteName {
            if let problem = SiteNames.problem(withName: siteName) { issues.append(Issue(setting: .siteName, value: siteName, message: problem)) }
        } else {
            issues.append(Issue(setting: .siteName, value: nil, message: "required with the broker (the site's name, the topics' second level)"))
        }
        if let problem = SiteNames.problem(withName: host) { issues.append(Issue(setting: .host, value: host, message: problem)) }
        if adapters.isEmpty {
            issues.append(Issue(setting: .adapter, value: nil, message: "required with the broker (this host's radios: hci0, virtual …)"))
        }
        for adapter in adapters {
            if let problem = SiteNames.problem(withTopicLevel: adapter) { issues.append(Issue(setting: .adapter, value: adapter, message: problem)) }
        }
        if Set(adapters).count != adapters.count {
            issues.append(Issue(setting: .adapter, value: nil, message: "each radio once (\(adapters.joined(separator: ", ")))"))
        }
        let (broker, brokerIssues) = self.broker.read(naming: naming)
        issues += brokerIssues.map { Issue(setting: .broker($0.key), value: $0.value, message: $0.message) }
        guard issues.isEmpty, let broker, let siteName else { return .failure(Issues(issues: issues)) }
        let radios = adapters.map { SiteRadio(host: host, adapter: AdapterName($0), position: Point(x: 0, y: 0)) }
        return .success(Checked(site: siteName, broker: broker, radios: radios))
    }

    /// The issues of settings that were refused.
    public struct Issues: Error, Sendable {
        public var issues: [Issue]
    }
}
