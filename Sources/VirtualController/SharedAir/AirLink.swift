// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconRadio
import BeaconCodec
import BeaconSystem
import Dispatch
import Synchronization

/// A ``VirtualController`` on the ``SharedAir``: in real time, what it advertises reaches the
/// other controllers there, and what they advertise reaches its scanner, with RSSI from
/// ``AirPathLoss`` between the advertiser's position and ``receiver``.
///
/// One background loop per link, every 10 ms at most: while the controller scans, its socket is in
/// the directory and the datagrams waiting there go to the controller as heard transmissions;
/// then the advertising events logged since the last round go to every other socket in the
/// directory (listed again every 250 ms). Controllers that only advertise have no socket there,
/// so they never send to each other. With no scanner on the air and this controller not
/// scanning, there is nothing to do until the next listing: the loop sleeps until then (an idle
/// agent's radio wakes 4 times a second, not 100), and notices its own scan starting then. The controller itself stays as deterministic as ever:
/// only the link reads the clock.
///
/// Each transmission carries its event's start on the machine's monotonic clock, so a receiver
/// whose channel has collisions can judge overlaps between events of different processes
/// (``AirReception``); it reports an event once ``collisionLateness`` has passed since it
/// started, time enough for every overlapping one to arrive.
public final class AirLink: Sendable {
    public let air: SharedAir
    public let controller: VirtualController
    /// This link's socket in the directory, while the controller scans.
    public let socketPath: String
    /// The directory, checked and held open (see ``SharedAir/open(system:)``).
    private let directory: SharedAirDirectory
    /// The socket's name in it.
    private let socketName: String
    /// What the air does to packets on their way to this receiver (`AirChannel.clean`, BeaconRadio: nothing).
    public let channel: AirChannel
    private let receiverPoint: Mutex<Point>
    /// Where the advertisers of this process are and what they radiate, by address: a beacon
    /// keeps its address when its data changes (a scenario's new major, a walk's new measured
    /// power, a TLM frame), so it keeps its position and its power too.
    private let emissions = Mutex<[BluetoothAddress: AirEmission]>([:])
    /// The walker's latest position (``announceWalker(at:)``), and whether the scanners have
    /// not been sent it yet.
    private let walker = Mutex<(point: Point?, fresh: Bool)>((nil, false))
    private let following = Atomic<Bool>(false)
    private let stopped = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    /// Ends the loop's idle wait at once when the link closes.
    private let wake = DispatchSemaphore(value: 0)

    private static let counter = Atomic<Int>(0)
    /// How long after an event starts a receiver with collisions judges it: the sender's round
    /// (10 ms), the receiver's (10 ms) and scheduling, with room to spare.
    public static let collisionLateness = Duration.milliseconds(100)
    /// The controller's clock plus this is the machine's monotonic clock.
    private let clockOffset: Duration

    /// Joins `controller` to `air` (creating the directory if needed) and starts the loop.
    public init(controller: VirtualController, air: SharedAir, receiver: Point = Point(x: 0, y: 0),
                channel: AirChannel = .clean) throws(SharedAirError) {
        let directory = try air.open()
        let n = Self.counter.add(1, ordering: .relaxed).newValue
        let name = "\(LiveSystemCalls().processID)-\(n).sock"
        let sender = try AirSocket(binding: nil, system: directory.system)
        self.air = air
        self.controller = controller
        self.directory = directory
        self.socketName = name
        self.socketPath = directory.path(of: name)
        self.channel = channel
        self.receiverPoint = Mutex(receiver)
        clockOffset = Self.machineTime() - controller.clock.now
        let queue = DispatchQueue(label: "beacon.air.\(n)")
        queue.async { [self] in
            loop(sender)
            finished.signal()
        }
    }

    /// Where this controller's receiver is.
    public var receiver: Point {
        get { receiverPoint.withLock { $0 } }
        set { receiverPoint.withLock { $0 = newValue } }
    }

    /// Says where the advertiser with `address` is (`nil`: heard as if 1 m away) and how far
    /// what it radiates is from what it claims, dB (`AirEmission`; a profile's
    /// `calibration_error`); later calls for the same address replace both.
    public func place(address: BluetoothAddress, at point: Point?, calibrationError: Double = 0) {
        emissions.withLock {
            $0[address, default: AirEmission()].position = point
            $0[address, default: AirEmission()].calibrationError = calibrationError.isFinite ? calibrationError : 0
        }
    }

    /// Tells the scanners on the air where the walker now is (`beacon walk`): sent before the
    /// next round of advertising events (only the latest position when several come between),
    /// and again each time the scanners are listed (every 250 ms), for scanners that join later.
    public func announceWalker(at point: Point) {
        walker.withLock { $0 = (point, true) }
    }

    /// Whether this controller's receiver stands where the walker is (``announceWalker(at:)``
    /// of another process): it moves with each announcement heard, and stays at ``receiver``
    /// until the first.
    public var followsWalker: Bool {
        get { following.load(ordering: .relaxed) }
        set { following.store(newValue, ordering: .relaxed) }
    }

    /// Stops the loop and removes the socket; call it once done (the loop keeps the link alive
    /// until then). Idempotent.
    public func close() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        wake.signal()
        finished.wait()
    }

    private func loop(_ sender: AirSocket) {
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        var listener: AirSocket? = nil
        var outbound = Outbound(sequence: controller.airLogEnd)
        var reception = AirReception(channel: channel)
        while !stopped.load(ordering: .acquiring) {
            let scanning = controller.isScanning
            if scanning != (listener != nil) {
                // A failure to bind leaves this scanner deaf for one round; it tries again.
                listener = scanning ? try? AirSocket(binding: (socketName, directory), system: directory.system) : nil
            }
            if let listener {
                var receiver = self.receiver
                for datagram in listener.receiveAll(waitingUpTo: 10, buffer: &buffer) {
                    // In arrival order: what was sent after the walker moved is heard from there.
                    if let walker = AirWalkerDatagram.decode(datagram[...]) {
                        if followsWalker {
                            receiver = walker
                            self.receiver = walker
                        }
                        continue
                    }
                    guard let transmissions = AirDatagram.decode(datagram[...]) else { continue }
                    for t in transmissions {
                        for (heard, rssi) in reception.take(t, at: receiver) { controller.hear(heard, rssi: rssi) }
                    }
                }
                for (heard, rssi) in reception.settle(before: Self.machineTime() - Self.collisionLateness) {
                    controller.hear(heard, rssi: rssi)
                }
            } else if outbound.peers.isEmpty {
                // Nobody to hear this controller, and it hears nothing: until the next listing.
                let idle = outbound.listed + Self.listingPeriod - ContinuousClock.now
                if idle > .zero { _ = wake.wait(timeout: .now() + .nanoseconds(Int(idle / .nanoseconds(1)))) }
            } else {
                LiveSystemCalls().sleep(for: .milliseconds(10))
            }
            send(&outbound, with: sender)
        }
    }

    /// The machine's monotonic clock (`CLOCK_MONOTONIC`: one origin for every process), which
    /// the shared air's event times are on.
    public static func machineTime() -> Duration {
        LiveSystemCalls().monotonicTime()
    }

    /// How often the directory is listed for the scanners on the air.
    static let listingPeriod = Duration.milliseconds(250)

    /// What the sending side remembers between rounds.
    private struct Outbound {
        var sequence: UInt64
        /// The names of the other scanners' sockets in the directory.
        var peers: [String] = []
        var listed = ContinuousClock.now - .seconds(1)
    }

    /// Sends the advertising events logged since the last round to every scanner in the directory.
    private func send(_ state: inout Outbound, with sender: AirSocket) {
        let now = ContinuousClock.now
        var listed = false
        if now - state.listed >= Self.listingPeriod {
            state.peers = directory.peers(except: socketName)
            state.listed = now
            listed = true
        }
        guard !state.peers.isEmpty else {
            state.sequence = controller.airLogEnd
            return
        }
        let walker = self.walker.withLock { w -> Point? in
            defer { w.fresh = false }
            return w.fresh || listed ? w.point : nil
        }
        let entries = controller.airLog(since: state.sequence)
        if let last = entries.last { state.sequence = last.sequence + 1 }
        let transmissions = emissions.withLock { known in
            entries.map { entry in
                let power = known[entry.address, default: AirEmission()].radiatedPowerAt1m(data: entry.data, txPower: entry.txPower)
                return AirTransmission(entry, position: known[entry.address]?.position, clockOffset: clockOffset, radiatedPowerAt1m: power)
            }
        }
        // The walker first: the events of this round were sent with the walker already there.
        let datagrams = (walker.map { [AirWalkerDatagram.encode($0)] } ?? []) + AirDatagram.encode(transmissions)
        guard !datagrams.isEmpty else { return }
        for peer in state.peers {
            for datagram in datagrams where !sender.send(datagram, to: directory.path(of: peer)) {
                // Nobody listens there: a process that ended without removing its socket.
                directory.removeSocket(peer)
                state.peers.removeAll { $0 == peer }
                break
            }
        }
    }
}
