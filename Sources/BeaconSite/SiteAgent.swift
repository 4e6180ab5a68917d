// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconSystem
import BeaconRadio
import BeaconAdapters
import BeaconEmulator
import BeaconJSON
import BeaconMQTT
import BeaconProfiles
import HCI
import Foundation
import Synchronization

/// `beacon agent`: one host of a site. It announces its radios (retained, with a Last Will
/// `offline`), takes each radio's desired fleet from its retained topic and puts it on air through
/// a `RunningFleet` (BeaconEmulator) per radio (only the difference: beacons that stay are not touched, and a
/// payload delivered twice changes nothing), and publishes each beacon's state and the host's
/// telemetry. While the broker is away the radios keep what they carry; on every reconnection
/// the agent says again who it is and what is on air.
public final class SiteAgent: Sendable {
    /// One radio the agent drives: its name on the site, its open adapter, and where it is (on
    /// the virtual air, its beacons are heard from there).
    public struct Radio: Sendable {
        public var id: SiteRadio.ID
        public var connection: AdapterConnection
        public var position: Point?

        public init(id: SiteRadio.ID, connection: AdapterConnection, position: Point?) {
            self.id = id
            self.connection = connection
            self.position = position
        }
    }

    /// What the agent did, for its log lines and `--json` events.
    public enum Event: Sendable {
        case connected
        case disconnected(reason: String)
        case brokerRefused(reason: String)
        /// The broker refused a message (said once per kind: its topic's first two levels and the reason code);
        /// `stopping` when it was this host's own status, which the agent then stops for.
        case publishRefused(topic: String, code: Int, reason: String, stopping: Bool)
        /// A desired fleet is on air (`beacons` of them).
        case applied(radio: SiteRadio.ID, revision: Int, beacons: Int)
        /// The same revision and beacons again: nothing done.
        case unchanged(radio: SiteRadio.ID, revision: Int)
        case rejected(radio: SiteRadio.ID, DesiredRejection)
        /// The radio refused an update (the beacons before it stay on air) or failed.
        case failed(radio: SiteRadio.ID, reason: String)
    }

    public let host: String
    public let topics: SiteTopics
    public let client: MQTTClient
    public let radios: [Radio]
    /// How often telemetry is published.
    public let telemetryInterval: Duration
    /// How the radios' fleets are planned (and what their capabilities promise).
    public let planner: FleetPlanner
    private let fleets: [SiteRadio.ID: RunningFleet]
    private let report: @Sendable (Event) -> Void
    private let now: @Sendable () -> Double
    private let started: Double
    private let state = Mutex(State())
    private let publisher: OrderedPublisher
    private let naming: @Sendable (FrontEndTerm) -> String?
    /// How a desired payload is read (``DesiredFleet/read(_:topic:)``); internal, for a test to
    /// put a read that takes as long as it likes in its place.
    let readDesired = Mutex<@Sendable ([UInt8], String) -> Result<DesiredFleet, DesiredRejection>>(DesiredFleet.read)

    private struct RadioRecord {
        /// The revision on air, and what its beacons are (as profile entries: what decides
        /// whether a payload changes anything).
        var revision: Int?
        var entries: [String] = []
        var beacons: [BeaconState] = []
        var rejected: DesiredRejection?
        /// The newest desired fleet taken (on air, or being put on air): revisions only move
        /// forward from it.
        var accepted: (revision: Int, entries: [String])?
        /// The generation of the last update asked of the fleet: only its settling writes states.
        var generation = 0
        var capabilities: ControllerCapabilities?
    }

    private struct State {
        var radios: [SiteRadio.ID: RadioRecord] = [:]
        var rejectedCount = 0
        var stopping = false
        /// The broker's refusal of this host's own status, when it refused it.
        var statusRefused: String?
    }

    /// - Parameters:
    ///   - client: a client whose configuration has the Last Will `offline` on
    ///     ``SiteTopics/hostStatus(_:)`` (see ``lastWill(topics:host:)``); not yet connected.
    ///   - now: seconds since 1970 (the `since` of states).
    ///   - host: this host's name on the site (its topics, its MQTT user).
    ///   - topics: the site's topic tree.
    ///   - radios: the radios this host carries, opened.
    ///   - planner: plans each radio's fleet.
    ///   - telemetryInterval: how often telemetry is published.
    ///   - naming: the front end's names for the terms in a radio's failure (a stop, an
    ///     examination of the adapter), in the reasons the agent reports and publishes; nil for a
    ///     term: its concept in words.
    ///   - report: what the agent reports, for the front end to present.
    public init(host: String, topics: SiteTopics, client: MQTTClient, radios: [Radio], planner: FleetPlanner = FleetPlanner(),
                telemetryInterval: Duration = .seconds(30), now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 },
                naming: @escaping @Sendable (FrontEndTerm) -> String? = { _ in nil },
                report: @escaping @Sendable (Event) -> Void = { _ in }) {
        self.host = host
        self.topics = topics
        self.client = client
        self.radios = radios
        self.telemetryInterval = telemetryInterval
        self.planner = planner
        self.report = report
        self.naming = naming
        self.now = now
        self.started = now()
        var fleets: [SiteRadio.ID: RunningFleet] = [:]
        for radio in radios { fleets[radio.id] = RunningFleet(connections: [radio.connection], planner: planner) }
        self.fleets = fleets
        let refusals = RefusalSink()
        publisher = OrderedPublisher(client) { refusal in refusals.handle?(refusal) }
        state.withLock { s in for radio in radios { s.radios[radio.id] = RadioRecord() } }
        // A host whose own status the broker refuses cannot say it is online: the site would
        // show it offline (or never there) while its beacons are on air, so it stops.
        let statusTopic = topics.hostStatus(host)
        refusals.handle = { [weak self] refusal in
            guard let self else { return }
            let own = refusal.topic == statusTopic
            if own {
                let first = self.state.withLock { s in defer { s.statusRefused = s.statusRefused ?? refusal.reason }; return s.statusRefused == nil }
                guard first else { return }
            } else if !refusal.firstOfItsKind {
                return
            }
            self.report(.publishRefused(topic: refusal.topic, code: Int(refusal.code), reason: refusal.reason, stopping: own))
            if own { self.requestStop() }
        }
    }

    /// Why the agent stopped by itself: the broker refused its own status (nil otherwise). A
    /// front end exits non-zero when it is set.
    public var statusRefused: String? { state.withLock { $0.statusRefused } }

    /// The Last Will an agent's client must carry: `offline`, retained, on its host's status.
    public static func lastWill(topics: SiteTopics, host: String) -> MQTTWill {
        MQTTWill(topic: topics.hostStatus(host), payload: Array(SiteTopics.offline.utf8), qos: .atLeastOnce, retain: true)
    }

    /// Probes and starts every radio (nothing on air yet), connects to the broker and serves
    /// until ``requestStop()``; then takes the beacons off air. Returns each radio's teardown.
    /// - Throws: ``SiteAgentError`` when a radio cannot be started or the broker refuses the
    ///   first connection (its answer in words); nothing is then on air.
    public func run() async throws(SiteAgentError) -> [(radio: SiteRadio.ID, outcome: FleetOutcome)] {
        for radio in radios {
            let fleet = fleets[radio.id]!
            do throws(AdapterError) {
                let caps = try await fleet.probe()
                state.withLock { $0.radios[radio.id]?.capabilities = caps.first }
                try await fleet.start([])
            } catch {
                _ = await stopFleets()
                throw .radio(radio.id, error.termedText)
            }
            watchFleet(radio.id, fleet)
        }
        do throws(MQTTError) {
            try await client.connect()
            try await client.subscribe(topics.desiredFilter(host: host), qos: .atLeastOnce)
        } catch {
            client.disconnect()
            let outcomes = await stopFleets()
            // Stopped while waiting for the broker: a stop, not a failure.
            if state.withLock({ $0.stopping }) { return outcomes }
            throw .broker("\(error)")
        }
        let telemetry = Task { await self.publishTelemetry() }
        // Desired fleets not yet read, the newest per radio: read away from the broker's events,
        // so a stop is not held up by a big one.
        let inbox = LatestInbox<SiteRadio.ID, MQTTMessage>(label: "beacon.agent.desired") { [weak self] _, message in self?.receive(message) }
        announce()
        report(.connected)
        for await event in client.events {
            switch event {
            case .connected:
                report(.connected)
                announce()
            case .disconnected(_, let reason):
                report(.disconnected(reason: reason))
            case .refused(let error):
                report(.brokerRefused(reason: "\(error)"))
            case .message(let message):
                guard let radio = desiredRadio(message.topic) else { break }
                inbox.post(message, for: radio.id)
            case .subscribed:
                break
            }
        }
        // Whatever ended the connection for good, nothing more is applied. A desired fleet being
        // read now is not waited for: once read, it is dropped (``apply(_:on:fleet:)``).
        state.withLock { $0.stopping = true }
        inbox.finish()
        telemetry.cancel()
        await publisher.finish()
        return await stopFleets()
    }

    /// Takes the beacons off air: publishes each radio's state `off` and the host `offline`
    /// (waiting at most half a second for the broker), then disconnects, which ends ``run()``.
    public func requestStop() {
        let already = state.withLock { s in defer { s.stopping = true }; return s.stopping }
        guard !already else { return }
        for radio in radios { fleets[radio.id]?.requestStop() }
        let time = now()
        var messages: [(topic: String, payload: [UInt8])] = state.withLock { $0.radios }.map { id, record in
            let off = record.beacons.map { BeaconState(id: $0.id, name: $0.name, state: .off, reason: "the agent stopped", since: time) }
            return (topics.state(id), RadioStateReport(revision: record.revision, beacons: off, rejected: record.rejected).boundedPayload)
        }
        messages.append((topics.hostStatus(host), Array(SiteTopics.offline.utf8)))
        client.farewell(messages)
    }

    // MARK: - Desired fleets

    /// The radio whose desired fleet `topic` carries, if it is one of this host's.
    private func desiredRadio(_ topic: String) -> Radio? {
        guard let parsed = topics.parseHostTopic(topic), parsed.host == host, let adapter = parsed.adapter, parsed.kind == "desired" else { return nil }
        return radios.first { $0.id.adapter == AdapterName(adapter) }
    }

    private func receive(_ message: MQTTMessage) {
        guard !state.withLock({ $0.stopping }), let radio = desiredRadio(message.topic), let fleet = fleets[radio.id] else { return }
        let read = readDesired.withLock { $0 }(message.payload, message.topic)
        // Stopped while it was read: nothing of it is applied or published.
        guard !state.withLock({ $0.stopping }) else { return }
        switch read {
        case .failure(let rejection):
            state.withLock { s in
                s.radios[radio.id]?.rejected = rejection
                s.rejectedCount += 1
            }
            report(.rejected(radio: radio.id, rejection))
            publishState(radio.id)
        case .success(let desired):
            apply(desired, on: radio, fleet: fleet)
        }
    }

    private func apply(_ desired: DesiredFleet, on radio: Radio, fleet: RunningFleet) {
        let entries = desired.beacons.map(FleetWriter.flowMapping)
        // nil: the fleet changes; else whether the state to publish changes (a new revision, a
        // rejection lifted).
        // Revisions only move forward: an older one than this radio runs (a broker's old save
        // handed back, a stray message), or the same one with other beacons, is refused, and what
        // is on air stays (the controller answers with a newer revision).
        let refusal: DesiredRejection? = state.withLock { s in
            guard let accepted = s.radios[radio.id]?.accepted, !s.stopping else { return nil }
            let reason: String
            if desired.revision < accepted.revision {
                reason = "older than revision \(accepted.revision), which this radio runs: a change needs a newer revision"
            } else if desired.revision == accepted.revision, entries != accepted.entries {
                reason = "this radio runs revision \(accepted.revision) with other beacons: a change needs a newer revision"
            } else {
                return nil
            }
            let rejection = DesiredRejection(field: "revision", value: "\(desired.revision)", reason: reason, line: 1, column: 1, issues: 1)
            s.radios[radio.id]?.rejected = rejection
            s.rejectedCount += 1
            return rejection
        }
        if let refusal {
            report(.rejected(radio: radio.id, refusal))
            publishState(radio.id)
            return
        }
        let unchanged: Bool? = state.withLock { s in
            guard let record = s.radios[radio.id], !s.stopping else { return false }
            s.radios[radio.id]?.accepted = (desired.revision, entries)
            if record.entries == entries, record.revision != nil {
                // Delivered again (QoS 1), or the same fleet under a new revision: nothing to send.
                s.radios[radio.id]?.revision = desired.revision
                s.radios[radio.id]?.rejected = nil
                return record.revision != desired.revision || record.rejected != nil
            }
            return nil
        }
        if let stateChanged = unchanged {
            report(.unchanged(radio: radio.id, revision: desired.revision))
            // The same payload again (a QoS 1 duplicate, the controller's republishing after a
            // reconnection, which follows this agent's own announcement): the retained state
            // already says it, so nothing is published either.
            if stateChanged { publishState(radio.id) }
            return
        }
        // On the virtual air, every beacon of a radio is heard from the radio.
        if let p = radio.position, let link = radio.connection.airLink {
            for beacon in desired.beacons { link.place(address: beacon.address, at: p, calibrationError: beacon.calibrationError) }
        }
        let generation = fleet.update(desired.beacons)
        state.withLock { s in
            s.radios[radio.id]?.generation = generation
            s.radios[radio.id]?.rejected = nil
        }
        Task {
            let outcome = await fleet.settled(generation)
            self.settle(radio.id, desired: desired, entries: entries, generation: generation, outcome: outcome)
        }
    }

    private func settle(_ id: SiteRadio.ID, desired: DesiredFleet, entries: [String], generation: Int, outcome: RunningFleet.UpdateOutcome) {
        let time = now()
        // Which set (or legacy advertiser) the radio's plan gave each beacon: the plan on air.
        let seats = fleets[id]?.currentPlan.map(SiteBeaconID.seats(in:)) ?? [:]
        let event: Event? = state.withLock { s in
            guard var record = s.radios[id], record.generation == generation else { return nil }
            let before = Dictionary(record.beacons.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            func stayed(_ id: String, _ name: String, _ kind: BeaconState.Kind, _ reason: String?, seat: AdvertiserSeat? = nil) -> BeaconState {
                // In the same state since before (a seat that changed is not a new state).
                if var old = before[id], old.state == kind, old.reason == reason {
                    old.seat = seat
                    return old
                }
                return BeaconState(id: id, name: name, state: kind, reason: reason, since: time, seat: seat)
            }
            switch outcome {
            case .applied:
                record.revision = desired.revision
                record.entries = entries
                record.beacons = desired.beacons.map { stayed(SiteBeaconID.of($0), $0.name, .onAir, nil, seat: seats[SiteBeaconID.of($0)]) }
                s.radios[id] = record
                return .applied(radio: id, revision: desired.revision, beacons: desired.beacons.count)
            case .failed(let failure):
                let reason = failure.text(namedBy: naming)
                // What was on air stays on air; the new beacons are in error.
                record.beacons = desired.beacons.map { b in
                    let bid = SiteBeaconID.of(b)
                    return before[bid]?.state == .onAir ? before[bid]! : stayed(bid, b.name, .error, reason)
                }
                s.radios[id] = record
                return .failed(radio: id, reason: reason)
            case .ended:
                return nil
            }
        }
        if let event {
            report(event)
            publishState(id)
        }
    }

    /// A fleet that ends on its own (a controller failure) leaves its beacons in error.
    private func watchFleet(_ id: SiteRadio.ID, _ fleet: RunningFleet) {
        Task {
            let outcome = await fleet.outcome()
            let time = now()
            let stopping = state.withLock { s -> Bool in
                guard !s.stopping else { return true }
                let reason = outcome.failure?.text(namedBy: naming) ?? "the radio stopped"
                let failed = (s.radios[id]?.beacons ?? []).map { BeaconState(id: $0.id, name: $0.name, state: .error, reason: reason, since: time) }
                s.radios[id]?.beacons = failed
                return false
            }
            if !stopping {
                report(.failed(radio: id, reason: outcome.failure?.text(namedBy: naming) ?? "the radio stopped"))
                publishState(id)
            }
        }
    }

    private func stopFleets() async -> [(radio: SiteRadio.ID, outcome: FleetOutcome)] {
        var outcomes: [(radio: SiteRadio.ID, outcome: FleetOutcome)] = []
        for radio in radios { outcomes.append((radio.id, await fleets[radio.id]!.stop())) }
        return outcomes
    }

    // MARK: - Publishing

    /// Status `online`, the radios, and every radio's state: on the first connection and after
    /// each reconnection (a broker restarted without persistence has forgotten them all).
    private func announce() {
        send(topics.hostStatus(host), Array(SiteTopics.online.utf8), retain: true)
        let radios = state.withLock { s in self.radios.map { (adapter: $0.id.adapter, capabilities: s.radios[$0.id]?.capabilities) } }
        var bytes: [UInt8] = []
        HostAnnouncement.json(host: host, radios: radios, planner: planner).write(to: &bytes)
        send(topics.hostRadios(host), bytes, retain: true)
        for radio in self.radios { publishState(radio.id) }
    }

    private func publishState(_ id: SiteRadio.ID) {
        guard let record = state.withLock({ $0.radios[id] }) else { return }
        send(topics.state(id), RadioStateReport(revision: record.revision, beacons: record.beacons, rejected: record.rejected).boundedPayload, retain: true)
    }

    /// The host's telemetry now, with this process's resident set size.
    public var telemetry: HostTelemetry {
        let resident = ResidentSetSize.current()
        return state.withLock { s in
            let beacons = s.radios.values.flatMap(\.beacons)
            return HostTelemetry(host: host, uptime: now() - started, onAir: beacons.filter { $0.state == .onAir }.count,
                                 errors: beacons.filter { $0.state == .error }.count, rejected: s.rejectedCount,
                                 residentBytes: resident)
        }
    }

    private func publishTelemetry() async {
        while !Task.isCancelled {
            var bytes: [UInt8] = []
            telemetry.json.write(to: &bytes)
            send(topics.hostTelemetry(host), bytes, qos: .atMostOnce, retain: false)
            try? await Task.sleep(for: telemetryInterval)
        }
    }

    private func send(_ topic: String, _ payload: [UInt8], qos: MQTTQoS = .atLeastOnce, retain: Bool) {
        publisher.send(topic, payload, qos: qos, retain: retain)
    }
}

/// Why an agent did not start.
public enum SiteAgentError: Error, Sendable, CustomStringConvertible, TermedTextConvertible {
    /// A radio could not start: why, its advice's terms for the front end to name.
    case radio(SiteRadio.ID, TermedText)
    case broker(String)

    /// ``termedText`` in words.
    public var description: String { termedText.description }

    /// What failed, its advice's terms kept for the front end to name.
    public var termedText: TermedText {
        switch self {
        case .radio(let id, let reason): "\(id): \(reason)"
        case .broker(let reason): TermedText(reason)
        }
    }
}
