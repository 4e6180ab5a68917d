// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import BeaconEmulator
import BeaconJSON
import BeaconMQTT
import BeaconProfiles
import Foundation
import Synchronization

/// `beacon site SITE`: the controller. It places the site's beacons on its radios, publishes
/// each radio's desired fleet (retained, QoS 1, only when it changes), follows the hosts' status
/// (their Last Will) and the radios' state, and says which beacons are on air. When a host goes
/// offline (and is not back within ``failoverGrace``) its beacons are reported off air and, with
/// `failover: nearest`, placed again on the radios in reach. A restarted controller first reads
/// back what it published before (the retained desired fleets, and the beacons Home Assistant
/// switched off) and keeps that placement, so nothing on air is churned and a beacon switched off
/// stays off.
public final class SiteController: Sendable {
    public enum Event: Sendable {
        case connected
        case disconnected(reason: String)
        /// The retained desired fleets found at the start, adopted as the placement.
        case adopted(radios: Int, beacons: Int)
        /// The controller has published what the site needs; from here it follows changes.
        case ready
        /// After a reconnection, the retained desired fleets read back: `unchanged` of them as
        /// published, `republished` missing or different (a broker that kept nothing), sent again.
        case resynced(unchanged: Int, republished: Int)
        /// A host said `online` (first, again, or back within its ``SiteController/failoverGrace``).
        case hostOnline(String)
        /// A host's Last Will counted: its beacons move once the failover grace is over, unless
        /// it is back by then. Or, after a reconnection, it did not say `online` within
        /// ``SiteController/reconnectionGrace``: its beacons move at once.
        case hostOffline(String)
        case desired(radio: SiteRadio.ID, revision: Int, beacons: Int)
        /// The site's beacons were placed again (at the start, after a host came or went, after
        /// an edit of the site file): `site` as now read, and which radio carries each beacon.
        case placed(site: Site, placement: SitePlacement)
        /// A beacon on air or not (`reason`: why not; `error`: its agent reports an error; on
        /// air, `seat`: the set, or legacy advertiser, its agent put it on), said when that, the
        /// reason or the seat changes.
        case beacon(id: String, name: String, onAir: Bool, radio: SiteRadio.ID?, reason: String?, error: Bool = false, seat: AdvertiserSeat? = nil)
        case unplaced(id: String, name: String, reason: String)
        case rejected(radio: SiteRadio.ID, DesiredRejection)
        /// The broker refused a message (an ACL that forbids the discovery prefix, say): said
        /// once per kind (the topic's first two levels and the reason code).
        case publishRefused(topic: String, code: Int, reason: String)
        /// A message the controller cannot read (a radio's state that is not one, a switch
        /// command that is neither ON nor OFF): dropped, and said once per topic.
        case ignored(topic: String, reason: String)
    }

    public let topics: SiteTopics
    public let client: MQTTClient
    private let report: @Sendable (Event) -> Void
    private let publisher: OrderedPublisher
    private let state = Mutex(State())
    private let syncToken = UUID().uuidString
    /// How long after a reconnection a host that was online has to say so again before it is
    /// taken for gone. While the broker is away no Last Will can be trusted: Mosquitto sends every
    /// client's will when it shuts down (and keeps them, retained, if it persists), and a host that
    /// dies meanwhile sends none at all. Every live agent says `online` again on reconnecting, and
    /// retries at least every ``SiteBroker/reconnectDelayMaxSeconds``: twice that is the grace.
    public let reconnectionGrace: Duration
    /// How long after a host's Last Will counts its beacons stay where they are. A host back
    /// within it keeps them and nothing moves: an agent's own reconnection taking over its old
    /// session (a Wi-Fi roam, a broker that noticed the dead connection late), an agent restarted
    /// at once. Meanwhile the host is said to be offline and its beacons as its last state said
    /// (an agent keeps its radios on air while the broker is away); after it, they are off air
    /// and placed again.
    public let failoverGrace: Duration
    /// The default ``failoverGrace``: an agent's first wait before reconnecting (1 s), a
    /// connection (with TLS) and its `online`, with room for a slow link.
    public static let defaultFailoverGrace: Duration = .seconds(3)
    private let configuration: Mutex<Configuration>
    /// One message, reload or reconnection handled at a time: each reads the state, places and
    /// publishes, then writes the state back.
    private let serial = NSLock()
    /// Radios' states not yet read, the newest per radio: read away from the broker's events and
    /// outside ``serial`` (a state of 10,000 beacons is megabytes of JSON), then taken in under it.
    /// (Made by ``run()``: its reader holds the controller weakly.)
    private let stateInbox = Mutex<LatestInbox<SiteRadio.ID, [UInt8]>?>(nil)
    /// How a state payload is read (``RadioStateReport/init(payload:)``); internal, for a test to
    /// put a read that takes as long as it likes in its place.
    let readState = Mutex<@Sendable ([UInt8]) -> RadioStateReport?>({ RadioStateReport(payload: $0) })
    /// Told, internally for a test, each time a failover grace ends: the hosts it took offline
    /// (none: they came back within it).
    let leftAfterGrace = Mutex<@Sendable ([String]) -> Void>({ _ in })

    /// The site as last read, and what is worked out of it once.
    private struct Configuration {
        var site: Site
        var placer: SitePlacer
        var beaconsByID: [String: BeaconProfile]
        /// The beacons' identities, in site order.
        var order: [String]

        init(_ site: Site, placer: SitePlacer? = nil) {
            self.site = site
            self.placer = placer ?? SitePlacer(maximumDistance: site.maximumDistance)
            order = site.beacons.map(SiteBeaconID.of)
            beaconsByID = Dictionary(zip(order, site.beacons).map { ($0, $1) }, uniquingKeysWith: { a, _ in a })
        }
    }

    /// The site as last read (the file given at the start, or its last good reload).
    public var site: Site { configuration.withLock { $0.site } }

    private struct Published: Equatable {
        var revision: Int
        var entries: [String]
    }

    private struct ReportedPlacement: Equatable {
        var assignment: [String: SiteRadio.ID]
        var unplaced: [String: String]
    }

    private struct BeaconReport: Equatable {
        var onAir: Bool
        var reason: String?
        var error: Bool
        var seat: AdvertiserSeat?
    }

    private struct State {
        var synced = false
        var hostOnline: [String: Bool] = [:]
        var published: [SiteRadio.ID: Published] = [:]
        var assignment: [String: SiteRadio.ID] = [:]
        var agentStates: [SiteRadio.ID: RadioStateReport] = [:]
        /// Each radio's beacons as its state says, by identity (a state of thousands of beacons is
        /// looked up once per beacon, not searched).
        var agentBeacons: [SiteRadio.ID: [String: BeaconState]] = [:]
        var onAir: [String: Bool] = [:]
        /// What was last reported of each beacon: on air (and on which seat) or why not.
        var reported: [String: BeaconReport] = [:]
        var unplaced: [String: String] = [:]
        /// The placement last reported (``Event/placed(site:placement:)``); nil: report the next.
        var reportedPlacement: ReportedPlacement?
        var enabled: [String: Bool] = [:]
        var discoveryHost: [String: String] = [:]
        var rejections: [SiteRadio.ID: DesiredRejection] = [:]
        /// The topics an unreadable message was said for (each once; only the site's radios'
        /// and beacons' topics get here, so the set is bounded by the site).
        var ignoredTopics: Set<String> = []
        var stopping = false
        /// Which connection to the broker this is (one more at each reconnection).
        var connection = 0
        /// Hosts whose Last Will came, by the connection it came on: acted on once a marker sent
        /// after it comes back on that same connection (see ``SiteController/confirmOffline(_:)``).
        var pendingOffline: [String: Int] = [:]
        /// Hosts online before the last reconnection that have not said `online` on it yet: a
        /// host that died while the broker was away sends no Last Will the controller can trust
        /// (see ``SiteController/reconnectionGrace``).
        var unconfirmed: Set<String> = []
        /// Hosts whose Last Will counted and whose ``SiteController/failoverGrace`` is running,
        /// each with the token of its wait (a host that leaves, comes back and leaves again is
        /// not taken by the first wait). Still online as far as placement goes.
        var leaving: [String: Int] = [:]
        var leavingToken = 0
        /// Each published beacon's JSON entry, by its flow mapping (``Published/entries``): made
        /// once and kept while a desired fleet carries the beacon (see ``SiteController/payloads(_:)``).
        var entryJSON: [String: JSONValue] = [:]
        /// The desired fleets the broker handed back as retained since the last sync marker was
        /// sent: what it holds, against which ``SiteController/reconcile(republishing:)``
        /// republishes only what differs.
        var retained: [SiteRadio.ID: Published] = [:]
        /// The reconnection whose sync marker has not come back yet (its retained copies are
        /// still arriving).
        var resyncing: Int?
    }

    public init(site: Site, client: MQTTClient, placer: SitePlacer? = nil,
                reconnectionGrace: Duration = .seconds(2 * Int(SiteBroker.reconnectDelayMaxSeconds)),
                failoverGrace: Duration = SiteController.defaultFailoverGrace,
                report: @escaping @Sendable (Event) -> Void = { _ in }) {
        self.reconnectionGrace = reconnectionGrace
        self.failoverGrace = failoverGrace
        self.configuration = Mutex(Configuration(site, placer: placer))
        self.topics = SiteTopics(site)
        self.client = client
        self.report = report
        self.publisher = OrderedPublisher(client) { refusal in
            if refusal.firstOfItsKind { report(.publishRefused(topic: refusal.topic, code: Int(refusal.code), reason: refusal.reason)) }
        }
    }

    /// The controller's Last Will: `offline`, retained, on ``SiteTopics/controllerStatus``.
    public static func lastWill(topics: SiteTopics) -> MQTTWill {
        MQTTWill(topic: topics.controllerStatus, payload: Array(SiteTopics.offline.utf8), qos: .atLeastOnce, retain: true)
    }

    /// The topic a controller sends itself a marker on: once it comes back, every retained
    /// message of the subscriptions made before it has arrived (a broker delivers in order).
    var syncTopic: String { "\(topics.root)/controller/sync" }

    /// Connects, adopts what it published before, and serves until ``requestStop()``.
    /// - Throws: the broker's answer when the first connection or a subscription fails.
    public func run() async throws(MQTTError) {
        do throws(MQTTError) {
            try await client.connect()
            try await client.subscribe(topics.hostsFilter)
            try await client.subscribe(topics.beaconSetFilter)
            try await client.subscribe(topics.beaconSwitchFilter)
            try await client.subscribe(syncTopic)
            try await client.publish(topic: syncTopic, payload: Array(syncToken.utf8), qos: .atLeastOnce, retain: false)
        } catch {
            client.disconnect()
            // Stopped while waiting for the broker: a stop, not a failure.
            if state.withLock({ $0.stopping }) { return }
            throw error
        }
        report(.connected)
        let stateInbox = LatestInbox<SiteRadio.ID, [UInt8]>(label: "beacon.site.state") { [weak self] radio, payload in
            self?.takeState(payload, of: radio)
        }
        self.stateInbox.withLock { $0 = stateInbox }
        var first = true
        for await event in client.events {
            // Stopping: what is still queued (a backlog of hosts coming online, each a placement)
            // is dropped unread, so the stop does not wait behind it.
            if state.withLock({ $0.stopping }) { continue }
            switch event {
            case .connected:
                if first { first = false; continue }
                // Wills still waiting for their marker came before the connection was lost:
                // unconfirmed, they are dropped (the hosts say again where they are).
                let connection = state.withLock { s in
                    s.connection += 1
                    s.pendingOffline = [:]
                    // A host already leaving keeps its own wait: its will counted while the
                    // broker was there.
                    s.unconfirmed = Set(s.hostOnline.filter { $0.value && s.leaving[$0.key] == nil }.keys)
                    return s.connection
                }
                report(.connected)
                Task { [weak self, grace = reconnectionGrace] in
                    try? await Task.sleep(for: grace)
                    self?.expireUnconfirmed(connection)
                }
                // The broker hands back what it retains on the renewed subscriptions, then this
                // marker: only what it lacks or holds otherwise is published again.
                let synced = state.withLock { s in
                    s.retained = [:]
                    if s.synced { s.resyncing = connection }
                    return s.synced
                }
                publisher.send(syncTopic, text: synced ? "\(syncToken) resync \(connection)" : syncToken, retain: false)
            case .disconnected(_, let reason):
                report(.disconnected(reason: reason))
            case .refused(let error):
                report(.disconnected(reason: "\(error)"))
            case .message(let message):
                receive(message)
            case .subscribed:
                first = false
            }
        }
        // A state being read now is not waited for: once read, it is dropped (``takeState(_:of:)``).
        state.withLock { $0.stopping = true }
        stateInbox.finish()
        await publisher.finish()
    }

    /// Says `offline` (waiting at most half a second for the broker) and disconnects; the beacons
    /// stay on air with their agents.
    public func requestStop() {
        let already = state.withLock { s in defer { s.stopping = true }; return s.stopping }
        guard !already else { return }
        client.farewell([(topics.controllerStatus, Array(SiteTopics.offline.utf8))])
    }

    /// Applies an edited site file: beacons added, removed or moved, radios added or removed;
    /// only the desired fleets that change are published (each beacon that can stay where it is
    /// stays). The site's name and discovery prefix cannot change while it runs.
    /// - Returns: why the file was not applied, or `nil`.
    public func reload(_ edited: Site) -> String? {
        serial.lock()
        defer { serial.unlock() }
        let current = site
        if edited.name != current.name { return "the site's name cannot change while it runs (\(current.name) → \(edited.name)); restart beacon site" }
        if edited.discoveryPrefix != current.discoveryPrefix { return "discovery_prefix cannot change while the site runs; restart beacon site" }
        configuration.withLock { $0 = Configuration(edited) }
        // Even a placement that stays is reported: the beacons' positions may have moved.
        state.withLock { $0.reportedPlacement = nil }
        if state.withLock({ $0.synced }) { reconcile() }
        return nil
    }

    // MARK: - Messages

    private func receive(_ message: MQTTMessage) {
        serial.lock()
        defer { serial.unlock() }
        let site = self.site
        if message.topic == syncTopic {
            let text = String(decoding: message.payload, as: UTF8.self)
            if text.hasPrefix(syncToken + " resync "), let connection = Int(text.dropFirst(syncToken.count + 8)) {
                resync(connection)
                return
            }
            if text.hasPrefix(syncToken + " "), let connection = Int(text.dropFirst(syncToken.count + 1)) {
                confirmOffline(connection)
                return
            }
            guard text == syncToken, !state.withLock({ $0.synced }) else { return }
            let adopted = state.withLock { s -> (Int, Int) in
                s.synced = true
                return (s.published.count, s.assignment.count)
            }
            report(.adopted(radios: adopted.0, beacons: adopted.1))
            publisher.send(topics.controllerStatus, text: SiteTopics.online, retain: true)
            reconcile(republishing: true)
            report(.ready)
            return
        }
        if let id = topics.parseBeaconSet(message.topic), configuration.withLock({ $0.beaconsByID[id] != nil }) {
            let text = String(decoding: message.payload, as: UTF8.self)
            guard text == SiteTopics.on || text == SiteTopics.off else {
                // Empty: a retained command removed, nothing to say.
                if !message.payload.isEmpty { ignore(message.topic, "a switch command is ON or OFF") }
                return
            }
            state.withLock { $0.enabled[id] = text == SiteTopics.on }
            // Kept retained, for the next run of the controller (empty: nothing to keep).
            publisher.send(topics.beaconSwitch(id), text == SiteTopics.off ? Array(SiteTopics.off.utf8) : [], retain: true)
            if state.withLock({ $0.synced }) { reconcile() }
            return
        }
        if let id = topics.parseBeaconSwitch(message.topic) {
            // Before the sync: a beacon a previous run was told to switch off stays off. After it,
            // this is the controller's own record coming back.
            guard String(decoding: message.payload, as: UTF8.self) == SiteTopics.off else { return }
            state.withLock { s in if !s.synced, s.enabled[id] == nil { s.enabled[id] = false } }
            return
        }
        guard let parsed = topics.parseHostTopic(message.topic), !site.radios(of: parsed.host).isEmpty else { return }
        switch (parsed.adapter, parsed.kind) {
        case (nil, "status"):
            let online = String(decoding: message.payload, as: UTF8.self) == SiteTopics.online
            if !online, state.withLock({ $0.synced }) {
                // A Last Will: the host went away, or the broker is shutting down, which sends every
                // client's will before it closes (Mosquitto does on SIGTERM). Acted on once a marker
                // sent now comes back on this connection: then the broker is still there.
                let connection: Int? = state.withLock { s in
                    // After a reconnection, until the grace ends, only an `online` counts
                    // (``expireUnconfirmed(_:)`` decides about the others).
                    guard s.hostOnline[parsed.host] != false, s.pendingOffline[parsed.host] == nil, s.leaving[parsed.host] == nil,
                          !s.unconfirmed.contains(parsed.host) else { return nil }
                    s.pendingOffline[parsed.host] = s.connection
                    return s.connection
                }
                if let connection { publisher.send(syncTopic, text: "\(syncToken) \(connection)", retain: false) }
                return
            }
            let changed = state.withLock { s in
                s.pendingOffline[parsed.host] = nil
                // Back within its failover grace: said online again (it was said offline), and
                // nothing of its beacons moved.
                let wasLeaving = online && s.leaving.removeValue(forKey: parsed.host) != nil
                if online { s.unconfirmed.remove(parsed.host) }
                defer { s.hostOnline[parsed.host] = online }
                return s.hostOnline[parsed.host] != online || wasLeaving
            }
            guard changed else { return }
            report(online ? .hostOnline(parsed.host) : .hostOffline(parsed.host))
            guard state.withLock({ $0.synced }) else { return }
            // Its beacons are off air now, said before they are placed elsewhere.
            if !online { updateBeaconStates() }
            reconcile()
        case (let adapter?, "desired"):
            // Before a sync marker comes back: what the broker retains. Before the first, what
            // this controller (or its previous run) published, adopted; after a reconnection,
            // compared with what it published (its own messages since come back not retained).
            let radio = SiteRadio.ID(host: parsed.host, adapter: AdapterName(adapter))
            guard site.radios.contains(where: { $0.id == radio }) else { return }
            let (synced, collecting) = state.withLock { ($0.synced, !$0.synced || $0.resyncing != nil) }
            guard collecting, !synced || message.retained else { return }
            // Unreadable or empty (removed): nothing kept, so published again.
            let desired = try? DesiredFleet.read(message.payload, topic: message.topic).get()
            let kept = desired.map { Published(revision: $0.revision, entries: $0.beacons.map(FleetWriter.flowMapping)) }
            state.withLock { s in
                s.retained[radio] = kept
                guard !synced, let desired, let kept else { return }
                s.published[radio] = kept
                for beacon in desired.beacons { s.assignment[SiteBeaconID.of(beacon)] = radio }
            }
        case (let adapter?, "state"):
            let radio = SiteRadio.ID(host: parsed.host, adapter: AdapterName(adapter))
            // Only the site's radios: a host may publish under any adapter name of its own, and
            // states of radios it invents would otherwise be kept (memory without bound).
            guard site.radios.contains(where: { $0.id == radio }) else { return }
            stateInbox.withLock { $0 }?.post(message.payload, for: radio)
        default:
            break
        }
    }

    /// Reads a radio's state (outside ``serial``: the loop goes on meanwhile) and takes it in.
    private func takeState(_ payload: [UInt8], of radio: SiteRadio.ID) {
        let topic = topics.state(radio)
        // Bounded before it is read: the largest state an agent sends.
        guard payload.count <= RadioStateReport.maximumPayloadSize else {
            serial.withLock { ignore(topic, "a radio's state has at most \(RadioStateReport.maximumPayloadSize) bytes; this one has \(payload.count)") }
            return
        }
        let read = readState.withLock { $0 }(payload)
        serial.lock()
        defer { serial.unlock() }
        // Stopped while it was read: nothing of it is taken in.
        guard !state.withLock({ $0.stopping }) else { return }
        guard let stateReport = read else {
            if !payload.isEmpty { ignore(topic, "not a radio's state (docs/SITE.md, \"Payloads\")") }
            return
        }
        let newRejection: DesiredRejection? = state.withLock { s in
            s.agentStates[radio] = stateReport
            s.agentBeacons[radio] = Dictionary(stateReport.beacons.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            guard let rejected = stateReport.rejected, s.rejections[radio] != rejected else { return nil }
            s.rejections[radio] = rejected
            return rejected
        }
        if let newRejection { report(.rejected(radio: radio, newRejection)) }
        guard state.withLock({ $0.synced }) else { return }
        updateBeaconStates()
        // The agent runs a newer revision than this controller published (another client's, or
        // this controller's from before a broker forgot it), or refused ours as not newer: its
        // fleet is published again above it.
        if state.withLock({ Self.revisionFloor($0.agentStates[radio], published: $0.published[radio]) }) != nil { reconcile() }
    }

    /// The revision a radio's next desired fleet must go above, when the one this controller
    /// published would not be taken: the agent runs a newer one (nothing published, or an older
    /// one), or it refused a revision as not newer while it runs ours (the agent clears a refusal
    /// when it takes a fleet, so one still there came after ours). `nil`: ours stands.
    private static func revisionFloor(_ agent: RadioStateReport?, published: Published?) -> Int? {
        guard let agent, let running = agent.revision else { return nil }
        let ours = published?.revision ?? 0
        if running > ours { return running }
        if running == ours, agent.rejected?.field == "revision" { return running }
        return nil
    }

    /// Says once per topic that a message on it was dropped, unread.
    private func ignore(_ topic: String, _ reason: String) {
        guard state.withLock({ $0.ignoredTopics.insert(topic).inserted }) else { return }
        report(.ignored(topic: topic, reason: reason))
    }

    /// The marker sent after the Last Wills that came on `connection` is back: if that connection
    /// is still the one in use, the broker did not go away after sending them, so those hosts
    /// did. Each is said to be offline now; its beacons are taken off air and placed elsewhere
    /// once its ``failoverGrace`` is over, unless it is back by then.
    private func confirmOffline(_ connection: Int) {
        let hosts: [(String, Int)] = state.withLock { s in
            guard connection == s.connection else { return [] }
            let confirmed = s.pendingOffline.filter { $0.value == connection }.keys.sorted()
            return confirmed.map { host in
                s.pendingOffline[host] = nil
                s.leavingToken += 1
                s.leaving[host] = s.leavingToken
                return (host, s.leavingToken)
            }
        }
        guard !hosts.isEmpty else { return }
        for (host, _) in hosts { report(.hostOffline(host)) }
        if failoverGrace <= .zero {
            leave(hosts)
            return
        }
        Task { [weak self, grace = failoverGrace] in
            try? await Task.sleep(for: grace)
            guard let self else { return }
            self.serial.withLock { self.leave(hosts) }
        }
    }

    /// The failover grace of `hosts` is over: those not back since (the same wait still theirs)
    /// are offline; their beacons are off air, said before they are placed elsewhere. (Under
    /// ``serial``.)
    private func leave(_ hosts: [(String, Int)]) {
        let gone: [String] = state.withLock { s in
            guard !s.stopping else { return [] }
            return hosts.compactMap { host, token in
                guard s.leaving[host] == token else { return nil }
                s.leaving[host] = nil
                s.hostOnline[host] = false
                return host
            }
        }
        leftAfterGrace.withLock { $0 }(gone)
        guard !gone.isEmpty else { return }
        updateBeaconStates()
        reconcile()
    }

    /// The grace after reconnection `connection` is over: the hosts that were online before it
    /// and have not said so since are gone (they died while the broker was away). Their beacons
    /// are off air, said before they are placed elsewhere.
    private func expireUnconfirmed(_ connection: Int) {
        serial.lock()
        defer { serial.unlock() }
        let hosts: [String] = state.withLock { s in
            guard connection == s.connection, !s.stopping else { return [] }
            let gone = s.unconfirmed.sorted()
            s.unconfirmed = []
            for host in gone { s.hostOnline[host] = false }
            return gone
        }
        takeOffline(hosts)
    }

    /// Says that `hosts` (already marked offline) are gone, and places their beacons elsewhere.
    private func takeOffline(_ hosts: [String]) {
        guard !hosts.isEmpty else { return }
        for host in hosts { report(.hostOffline(host)) }
        updateBeaconStates()
        reconcile()
    }

    // MARK: - Placement and publishing

    /// Places the enabled beacons on the radios available (failover `nearest`: those whose host
    /// is not known to be offline; `none`: all), keeping each beacon where it is when it can,
    /// and publishes the desired fleets that changed. With `republishing` (after a sync marker
    /// came back), also those the broker does not retain as published (``State/retained``),
    /// under their current revision, for a broker that forgot them.
    /// - Returns: how many desired fleets the broker retains as published, and how many were
    ///   published again under the same revision (`republishing` only).
    @discardableResult
    private func reconcile(republishing: Bool = false) -> (unchanged: Int, republished: Int) {
        let s = state.withLock { $0 }
        guard !s.stopping else { return (0, 0) }
        let (site, placer) = configuration.withLock { ($0.site, $0.placer) }
        let available = site.radios.filter { site.failover == .none || s.hostOnline[$0.host] != false }
        let wanted = site.beacons.filter { s.enabled[SiteBeaconID.of($0)] ?? true }
        // A stop asked for meanwhile cuts the placement short, and nothing of it is published.
        let placement = placer.place(wanted, on: available, keeping: s.assignment) { self.state.withLock { $0.stopping } }
        guard !state.withLock({ $0.stopping }) else { return (0, 0) }
        var changes: [(SiteRadio.ID, DesiredFleet)] = []
        var republished: [(SiteRadio.ID, DesiredFleet)] = []
        var unchanged = 0
        let byRadio = placement.assignmentsByRadio()
        for radio in site.radios {
            let beacons = (byRadio[radio.id] ?? []).map(\.beacon)
            let entries = beacons.map(FleetWriter.flowMapping)
            let before = s.published[radio.id]
            // Revisions only move forward: above the one the agent runs, whatever this
            // controller remembers (a broker that forgot, an old save handed back).
            let floor = Self.revisionFloor(s.agentStates[radio.id], published: before)
            if before?.entries == entries, floor == nil {
                guard republishing, let before else { continue }
                if s.retained[radio.id] == before { unchanged += 1 } else {
                    republished.append((radio.id, DesiredFleet(revision: before.revision, beacons: beacons)))
                }
                continue
            }
            // A radio never published to and left empty needs no message.
            if before == nil, beacons.isEmpty, !republishing, floor == nil { continue }
            changes.append((radio.id, DesiredFleet(revision: max(before?.revision ?? 0, floor ?? 0) + 1, beacons: beacons)))
        }
        let (newlyUnplaced, placementChanged): ([SitePlacement.Unplaced], Bool) = state.withLock { st in
            st.assignment = placement.radioByBeacon
            if republishing { st.retained = [:] }
            for (radio, desired) in changes {
                st.published[radio] = Published(revision: desired.revision, entries: desired.beacons.map(FleetWriter.flowMapping))
            }
            let fresh = placement.unplaced.filter { st.unplaced[$0.id] != $0.reason }
            st.unplaced = Dictionary(placement.unplaced.map { ($0.id, $0.reason) }, uniquingKeysWith: { a, _ in a })
            let now = ReportedPlacement(assignment: st.assignment, unplaced: st.unplaced)
            defer { st.reportedPlacement = now }
            return (fresh, st.reportedPlacement != now)
        }
        if placementChanged { report(.placed(site: site, placement: placement)) }
        let (republishedPayloads, changedPayloads) = (payloads(republished), payloads(changes))
        guard !state.withLock({ $0.stopping }) else { return (0, 0) }
        for ((radio, _), payload) in zip(republished, republishedPayloads) { publisher.send(topics.desired(radio), payload, retain: true) }
        for ((radio, desired), payload) in zip(changes, changedPayloads) {
            publisher.send(topics.desired(radio), payload, retain: true)
            report(.desired(radio: radio, revision: desired.revision, beacons: desired.beacons.count))
        }
        for u in newlyUnplaced { report(.unplaced(id: u.id, name: u.beacon.name, reason: u.reason)) }
        forgetRemovedBeacons(keeping: Set(site.beacons.map(SiteBeaconID.of)))
        publishDiscovery(placement, all: republishing)
        updateBeaconStates(republishing: republishing)
        return (unchanged, republished.count)
    }

    /// The desired fleets' payloads. A change of a few beacons on many radios republishes
    /// every beacon of those radios: each beacon's entry is made once and kept while it is
    /// published (``DesiredFleet/entry(_:)`` composes YAML, the controller's largest cost of a change).
    private func payloads(_ fleets: [(SiteRadio.ID, DesiredFleet)]) -> [[UInt8]] {
        guard !fleets.isEmpty else { return [] }
        var known = state.withLock { $0.entryJSON }
        var made = 0
        var payloads: [[UInt8]] = []
        for (_, desired) in fleets {
            var entries: [JSONValue] = []
            for beacon in desired.beacons {
                let key = FleetWriter.flowMapping(beacon)
                if let entry = known[key] { entries.append(entry); continue }
                // A stop asked for meanwhile: the controller is going away, nothing is published.
                made += 1
                if made % SitePlacer.stopCheckInterval == 0, state.withLock({ $0.stopping }) { return [] }
                let entry = DesiredFleet.entry(beacon)
                known[key] = entry
                entries.append(entry)
            }
            payloads.append(DesiredFleet.payload(revision: desired.revision, entries: entries))
        }
        state.withLock { s in
            let published = Set(s.published.values.flatMap(\.entries))
            s.entryJSON = known.filter { published.contains($0.key) }
        }
        return payloads
    }

    /// Beacons an edited site no longer has: their switch and state are removed from the broker
    /// (an empty retained message), so Home Assistant drops the entity.
    private func forgetRemovedBeacons(keeping current: Set<String>) {
        let removed: [String] = state.withLock { s in
            let gone = Set(s.discoveryHost.keys).union(s.onAir.keys).union(s.enabled.keys).subtracting(current)
            for id in gone {
                s.discoveryHost[id] = nil
                s.onAir[id] = nil
                s.reported[id] = nil
                s.enabled[id] = nil
            }
            return gone.sorted()
        }
        for id in removed {
            publisher.send(topics.discoverySwitch(id), [], retain: true)
            publisher.send(topics.beaconState(id), [], retain: true)
            publisher.send(topics.beaconSwitch(id), [], retain: true)
        }
    }

    /// The marker sent after reconnection `connection` is back, so every desired fleet the broker
    /// retains has arrived: what it lacks or holds otherwise is published again, with the
    /// status and (not yet read back) the discovery configurations and beacon states. A broker
    /// that persisted gets no desired fleet; one restarted without persistence gets them all.
    private func resync(_ connection: Int) {
        let due = state.withLock { s in
            // A QoS 1 duplicate, or a marker of a connection already lost: the next one decides.
            guard s.resyncing == connection, connection == s.connection else { return false }
            s.resyncing = nil
            return true
        }
        guard due else { return }
        publisher.send(topics.controllerStatus, text: SiteTopics.online, retain: true)
        let counts = reconcile(republishing: true)
        report(.resynced(unchanged: counts.unchanged, republished: counts.republished))
    }

    private func publishDiscovery(_ placement: SitePlacement, all: Bool) {
        let site = self.site
        let due: [(SiteRadio.ID?, SitePlacement.Assignment)] = state.withLock { s in
            var out: [(SiteRadio.ID?, SitePlacement.Assignment)] = []
            for a in placement.assignments where all || s.discoveryHost[a.id] != a.radio.host {
                s.discoveryHost[a.id] = a.radio.host
                out.append((a.radio, a))
            }
            return out
        }
        if all {
            for radio in site.radios {
                var bytes: [UInt8] = []
                HomeAssistantDiscovery.radioConnectivity(topics, radio: radio.id).write(to: &bytes)
                publisher.send(topics.discoveryConnectivity(radio.id), bytes, retain: true)
            }
        }
        for (_, a) in due {
            var bytes: [UInt8] = []
            HomeAssistantDiscovery.beaconSwitch(topics, id: a.id, name: a.beacon.name, host: a.radio.host).write(to: &bytes)
            publisher.send(topics.discoverySwitch(a.id), bytes, retain: true)
        }
    }

    /// Each beacon on air or not, from its radio's state and its host's status; published
    /// (`ON`/`OFF`, retained) when that changes, and reported when that, the reason or the
    /// advertising set its agent put it on changes.
    private func updateBeaconStates(republishing: Bool = false) {
        let (order, beaconsByID) = configuration.withLock { ($0.order, $0.beaconsByID) }
        typealias Change = (id: String, radio: SiteRadio.ID?, report: BeaconReport, changed: Bool, reported: Bool)
        let changes: [Change] = state.withLock { s in
            var out: [Change] = []
            for id in order {
                let radio = s.assignment[id]
                var onAir = false
                var seat: AdvertiserSeat?
                var reason: String?
                var error = false
                if s.enabled[id] == false {
                    reason = "switched off"
                } else if let radio {
                    if s.hostOnline[radio.host] == false {
                        reason = "\(radio.host) is offline"
                    } else if let beacon = s.agentBeacons[radio]?[id] {
                        onAir = beacon.state == .onAir
                        error = beacon.state == .error
                        if onAir { seat = beacon.seat } else { reason = beacon.reason ?? beacon.state.rawValue }
                    } else {
                        reason = "waiting for \(radio)"
                    }
                } else {
                    reason = s.unplaced[id] ?? "not placed"
                }
                let report = BeaconReport(onAir: onAir, reason: reason, error: error, seat: seat)
                let changed = s.onAir[id] != onAir
                let newReport = s.reported[id] != report
                if changed || newReport || republishing {
                    s.onAir[id] = onAir
                    s.reported[id] = report
                    out.append((id, radio, report, changed, newReport))
                }
            }
            return out
        }
        for c in changes {
            if c.changed || republishing {
                publisher.send(topics.beaconState(c.id), text: c.report.onAir ? SiteTopics.on : SiteTopics.off, retain: true)
            }
            if c.reported {
                report(.beacon(id: c.id, name: beaconsByID[c.id]?.name ?? c.id, onAir: c.report.onAir, radio: c.radio,
                               reason: c.report.reason, error: c.report.error, seat: c.report.seat))
            }
        }
    }

    /// Whether each beacon is on air now, by identity.
    public var beaconsOnAir: [String: Bool] { state.withLock { $0.onAir } }
}
