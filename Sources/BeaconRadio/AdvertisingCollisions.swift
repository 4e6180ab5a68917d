// SPDX-License-Identifier: GPL-2.0-or-later

/// Collisions on the three primary advertising channels, judged event by event at one receiver.
///
/// Every legacy advertising event sends its PDU on channel 37, then 38, then 39 (Core Vol 6
/// Part B §4.4.2.1), each PDU ``AirChannel/airtime(dataLength:)`` long at 1 Mb/s, the next one
/// ``hop`` after the previous ends. The receiver listens on one channel at a time, moving to the
/// next every ``dwell`` (BlueZ's default scan interval), and hears an event through its PDU on
/// the channel it listens on when the event starts. That PDU is lost when another PDU on the same
/// channel overlaps it in time, unless it is at least ``captureMargin`` dB stronger than every
/// one that does (the capture effect): two of equal power both go, the weaker of two far apart
/// goes and the stronger stays. Every PDU on air interferes, heard or not (one below the
/// receiver's sensitivity still puts its energy on the channel).
///
/// Events arrive in any order; ``settle(before:)`` judges those that nothing not yet added can
/// touch. Deterministic: no random draws here (the timing's randomness is the advertisers'
/// advDelay, the power's the channel's shadowing and fading).
///
/// Inlinable, so a client (the positioning benchmark judges some 40,000 events a walk) gets it
/// specialised for its packet type instead of going through generic witness tables per event.
public struct AdvertisingCollisions<Packet> {
    /// The primary advertising channels in the order an event visits them.
    public static var channels: [Int] { [37, 38, 39] }
    /// The gap between one channel's PDU and the next in an event, seconds: T_IFS (150 µs, Core
    /// Vol 6 Part B §4.1.1), the least a controller leaves. The specification allows up to 10 ms;
    /// this is an assumption (docs/AIR.md).
    @inlinable public static var hop: Double { 150e-6 }
    /// How long the receiver listens on one channel before the next, seconds: BlueZ's default LE
    /// scan interval, 0x0060 × 0.625 ms = 60 ms (net/bluetooth/hci_core.c, `le_scan_interval`).
    @inlinable public static var dwell: Double { 0.060 }
    /// A PDU survives an overlapping one at least this many dB weaker: the co-channel rejection
    /// C/I a LE 1M receiver must meet, 21 dB (Core Vol 6 Part A §4.2.2, interference performance).
    @inlinable public static var captureMargin: Double { 21 }

    /// One event on air as this receiver meets it.
    public struct Event {
        public var packet: Packet
        /// When the event's first PDU (channel 37) starts, seconds.
        public var start: Double
        /// One PDU's time on air, seconds.
        public var airtime: Double
        /// The power it arrives with here, dBm.
        public var power: Double
        /// Whether it would be heard but for collisions (not below sensitivity, not lost at random).
        public var audible: Bool

        @inlinable init(packet: Packet, start: Double, airtime: Double, power: Double, audible: Bool) {
            self.packet = packet
            self.start = start
            self.airtime = airtime
            self.power = power
            self.audible = audible
        }
    }

    /// Events not judged yet, and judged ones kept as interferers, both in start order.
    @usableFromInline var pending: [Event] = []
    @usableFromInline var judged: [Event] = []
    /// Everything starting before this has been judged.
    @inlinable public var settledUntil: Double { judgedUntil }
    @usableFromInline var judgedUntil = -Double.infinity

    @inlinable public init() {}

    /// How long judged events are kept for late ones, seconds.
    @inlinable static var retention: Double { 1 }

    /// How long an event lasts on air, three PDUs and two hops (the longest legacy PDU).
    @inlinable static var longestEvent: Double { 3 * AirChannel.airtime(dataLength: 31) + 2 * hop }

    /// The channel the receiver listens on at `time`: ``channels`` in turn, one per ``dwell``
    /// (by arithmetic: this runs for every event, and ``channels`` is a new array each time).
    @inlinable public static func listeningChannel(at time: Double) -> Int {
        let turn = Int((time / dwell).rounded(.down)) % 3
        return 37 + (turn + 3) % 3
    }

    /// When the PDU an event starting at `start` sends on `channel` begins and ends (a channel
    /// other than 37, 38, 39 counts as the first).
    @inlinable public static func pdu(on channel: Int, start: Double, airtime: Double) -> ClosedRange<Double> {
        let index = Double((37...39).contains(channel) ? channel - 37 : 0)
        let begin = start + index * (airtime + hop)
        return begin...(begin + airtime)
    }

    /// Adds an event. One that starts before ``settledUntil`` (it came later than the caller's
    /// lateness bound) is judged at the next ``settle(before:)`` against what is still kept.
    @inlinable public mutating func add(_ packet: Packet, start: Double, airtime: Double, power: Double, audible: Bool) {
        let event = Event(packet: packet, start: start, airtime: airtime, power: power, audible: audible)
        let at = pending.lastIndex { $0.start <= start }.map { $0 + 1 } ?? 0
        pending.insert(event, at: at)
    }

    /// Judges every event that starts early enough that no event starting at or after `time`
    /// can overlap it, in start order: the audible ones with whether a collision took them.
    /// The caller promises that every event starting before `time` has been added.
    @inlinable public mutating func settle(before time: Double) -> [(packet: Packet, power: Double, collided: Bool)] {
        let horizon = time - Self.longestEvent
        guard horizon > judgedUntil || pending.first.map({ $0.start < judgedUntil }) == true else { return [] }
        let ready = pending.prefix { $0.start < horizon }.count
        var out: [(packet: Packet, power: Double, collided: Bool)] = []
        for index in 0..<ready where pending[index].audible {
            out.append((pending[index].packet, pending[index].power, collides(index)))
        }
        judged += pending.prefix(ready)
        pending.removeFirst(ready)
        judgedUntil = max(judgedUntil, horizon)
        // Keep judged events as interferers for a second: an event that comes later than the
        // caller promised is still judged against what it overlapped.
        let keepFrom = judgedUntil - Self.retention
        judged.removeFirst(judged.prefix { $0.start < keepFrom }.count)
        return out
    }

    /// Judges everything added so far (the end of a simulated run).
    @inlinable public mutating func settleAll() -> [(packet: Packet, power: Double, collided: Bool)] {
        settle(before: (pending.last?.start ?? judgedUntil) + 2 * Self.longestEvent)
    }

    /// Whether another PDU on the channel `pending[index]` is heard on overlaps it without being
    /// at least the capture margin weaker.
    @inlinable func collides(_ index: Int) -> Bool {
        let event = pending[index]
        let channel = Self.listeningChannel(at: event.start)
        let mine = Self.pdu(on: channel, start: event.start, airtime: event.airtime)
        let reach = Self.longestEvent
        for other in judged.reversed() {
            if other.start < event.start - reach { break }
            if interferes(other, with: event, on: channel, during: mine) { return true }
        }
        for i in stride(from: index - 1, through: 0, by: -1) {
            if pending[i].start < event.start - reach { break }
            if interferes(pending[i], with: event, on: channel, during: mine) { return true }
        }
        for i in (index + 1)..<pending.count {
            if pending[i].start > event.start + reach { break }
            if interferes(pending[i], with: event, on: channel, during: mine) { return true }
        }
        return false
    }

    @inlinable func interferes(_ other: Event, with event: Event, on channel: Int, during mine: ClosedRange<Double>) -> Bool {
        let theirs = Self.pdu(on: channel, start: other.start, airtime: other.airtime)
        let overlaps = theirs.lowerBound < mine.upperBound && mine.lowerBound < theirs.upperBound
        return overlaps && other.power > event.power - Self.captureMargin
    }
}
