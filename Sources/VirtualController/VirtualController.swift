// SPDX-License-Identifier: GPL-2.0-or-later
import HCI
import Synchronization

/// A Bluetooth LE controller in memory that answers HCI commands exactly as the Core
/// specification says, strictly: where the specification tells a controller to refuse
/// something, this one does, with the specified error code. It is the strict counterpart to
/// permissive emulators, for tests that must see refusals (and for trying `beacon` anywhere).
///
/// It keeps an air log: one entry per advertising event it would transmit (PDU type, address,
/// data, set), computed from an injectable clock. Thread-safe: commands, reads of the log and
/// event polling may come from any thread.
///
/// ```swift
/// let controller = VirtualController()
/// controller.submit(HCIReset().h4Bytes)
/// let reply = controller.takeEvent()  // 04 0E 04 01 03 0C 00
/// ```
public final class VirtualController: Sendable {
    public let configuration: Configuration
    let clock: any VirtualClock
    let core: Mutex<ControllerCore>
    /// See ``whenEventQueued(_:)``.
    let eventQueued = Mutex<(@Sendable () -> Void)?>(nil)

    public init(configuration: Configuration = Configuration(), clock: any VirtualClock = SystemVirtualClock()) {
        precondition((1...0xF0).contains(configuration.advertisingSets), "1…240 advertising sets (Core Vol 4 Part E §7.8.58)")
        precondition((31...1650).contains(configuration.maximumAdvertisingDataLength), "31…1650 bytes (Core Vol 4 Part E §7.8.57)")
        self.configuration = configuration
        self.clock = clock
        core = Mutex(ControllerCore(configuration: configuration))
    }

    /// A controller configured by `-i virtual:…` options.
    public convenience init(options: [String: String], clock: any VirtualClock = SystemVirtualClock()) throws(VirtualControllerConfigurationError) {
        self.init(configuration: try Configuration(options: options), clock: clock)
    }

    /// Takes one H4 packet from the host (indicator first) and queues the events it causes.
    /// Only command packets are answered.
    public func submit(_ packet: [UInt8]) {
        let now = clock.now
        core.withLock { $0.receive(packet, at: now) }
    }

    /// The oldest queued H4 event packet (indicator first), or `nil` when none is waiting.
    ///
    /// The air is brought up to the clock only when a set may have stopped by itself meanwhile
    /// (its LE Advertising Set Terminated is due): the air log's readers bring it up themselves,
    /// and a host that polls for events (every 50 ms, HCIController's reader) would otherwise
    /// compute every advertiser's events that often, for nobody.
    public func takeEvent() -> [UInt8]? {
        let now = clock.now
        return core.withLock { core in
            if let due = core.nextTermination, due < now { core.advance(to: now) }
            core.releaseReplies(at: now)
            return core.outgoing.isEmpty ? nil : core.outgoing.removeFirst()
        }
    }

    /// How long from now until the controller may queue an event of its own accord (an
    /// advertising set's Duration or event limit reached, a command's reply its latency late), on its clock (zero or less: it may
    /// have, ``takeEvent()`` finds out); `nil`: none is due. A host waiting for events need not
    /// look before then, unless ``whenEventQueued(_:)`` says so.
    public var timeUntilOwnEvent: Duration? {
        let now = clock.now
        return core.withLock { core in
            let due = [core.nextTermination, core.delayedReplies.first?.due].compactMap { $0 }.min()
            return due.map { $0 - now }
        }
    }

    /// Calls `signal` whenever an event is queued from outside a command: an advertising report
    /// of something heard on the shared air (``hear(_:rssi:)``, from the air's own thread).
    /// One observer; a later call replaces it.
    public func whenEventQueued(_ signal: @escaping @Sendable () -> Void) {
        eventQueued.withLock { $0 = signal }
    }

    /// Submits one packet and returns every event waiting afterwards: for tests and tools that
    /// drive the controller directly.
    public func exchange(_ packet: [UInt8]) -> [[UInt8]] {
        let now = clock.now
        return core.withLock { core in
            core.receive(packet, at: now)
            core.releaseReplies(at: now, all: true)
            defer { core.outgoing.removeAll() }
            return core.outgoing
        }
    }

    // MARK: Air log

    /// Air log entries with `sequence` at least `sequence`, oldest first (only the newest
    /// `configuration.airLogCapacity` are kept).
    public func airLog(since sequence: UInt64 = 0) -> [AirLogEntry] {
        let now = clock.now
        return core.withLock { core in
            core.advance(to: now)
            return core.airLog.entries(since: sequence)
        }
    }

    /// The sequence number the next air log entry will get: pass it to `airLog(since:)` later to
    /// read only what happened in between.
    public var airLogEnd: UInt64 {
        let now = clock.now
        return core.withLock { core in
            core.advance(to: now)
            return core.airLog.nextSequence
        }
    }

    /// How many advertising events each advertiser sent since the controller was created
    /// (counts survive Reset and the log's capacity).
    public func advertisingEventCounts() -> [VirtualAdvertiser: Int] {
        let now = clock.now
        return core.withLock { core in
            core.advance(to: now)
            return core.airLog.counts
        }
    }

    /// The advertisers enabled right now.
    public func activeAdvertisers() -> [VirtualAdvertiser] {
        let now = clock.now
        return core.withLock { core in
            core.advance(to: now)
            var active: [VirtualAdvertiser] = core.legacy.enabled == nil ? [] : [.legacy]
            active += core.sets.keys.sorted().filter { core.sets[$0]!.isEnabled }.map { .set($0) }
            return active
        }
    }
}
