// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A ``VirtualController`` on the ``SharedAir``: in real time, what it advertises reaches the
/// other controllers there, and what they advertise reaches its scanner, with RSSI from
/// ``AirPathLoss`` between the advertiser's position and ``receiver``.
///
/// One background loop per link, every 10 ms at most: while the controller scans, its socket is in
/// the directory and the datagrams waiting there go to the controller as heard transmissions;
/// then the advertising events logged since the last round go to every other socket in the
/// directory (listed again every 250 ms). Controllers that only advertise have no socket there,
/// so they never send to each other. The controller itself stays as deterministic as ever:
/// only the link reads the clock.
public final class AirLink: Sendable {
    public let air: SharedAir
    public let controller: VirtualController
    /// This link's socket in the directory, while the controller scans.
    public let socketPath: String
    /// What the air does to packets on their way to this receiver (``AirChannel/clean``: nothing).
    public let channel: AirChannel
    private let receiverPoint: Mutex<AirPoint>
    /// Where the advertising data this process sends comes from: data bytes → position.
    private let positions = Mutex<[[UInt8]: AirPoint]>([:])
    private let stopped = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    private static let counter = Atomic<Int>(0)

    /// Joins `controller` to `air` (creating the directory if needed) and starts the loop.
    public init(controller: VirtualController, air: SharedAir, receiver: AirPoint = AirPoint(x: 0, y: 0),
                channel: AirChannel = .clean) throws(SharedAirError) {
        try air.prepare()
        let n = Self.counter.add(1, ordering: .relaxed).newValue
        let path = "\(air.directory)/\(getpid())-\(n).sock"
        let sender = try AirSocket(binding: nil)
        self.air = air
        self.controller = controller
        self.socketPath = path
        self.channel = channel
        self.receiverPoint = Mutex(receiver)
        let queue = DispatchQueue(label: "beacon.air.\(n)")
        queue.async { [self] in
            loop(sender)
            finished.signal()
        }
    }

    /// Where this controller's receiver is.
    public var receiver: AirPoint {
        get { receiverPoint.withLock { $0 } }
        set { receiverPoint.withLock { $0 = newValue } }
    }

    /// Says where the advertiser sending `data` (the advertising data bytes) is; later calls for
    /// the same data replace the position.
    public func place(data: [UInt8], at point: AirPoint) {
        positions.withLock { $0[data] = point }
    }

    /// Stops the loop and removes the socket; call it once done (the loop keeps the link alive
    /// until then). Idempotent.
    public func close() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        finished.wait()
    }

    private func loop(_ sender: AirSocket) {
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        var listener: AirSocket? = nil
        var outbound = Outbound(sequence: controller.airLogEnd)
        var reception = Reception(channel: channel)
        while !stopped.load(ordering: .acquiring) {
            let scanning = controller.isScanning
            if scanning != (listener != nil) {
                // A failure to bind leaves this scanner deaf for one round; it tries again.
                listener = scanning ? try? AirSocket(binding: socketPath) : nil
            }
            if let listener {
                let receiver = self.receiver
                for datagram in listener.receiveAll(waitingUpTo: 10, buffer: &buffer) {
                    guard let transmissions = AirDatagram.decode(datagram[...]) else { continue }
                    for t in transmissions {
                        if let rssi = reception.rssi(of: t, at: receiver) { controller.hear(t, rssi: rssi) }
                    }
                }
            } else {
                _ = poll(nil, 0, 10)
            }
            send(&outbound, with: sender)
        }
    }

    /// The receiving side's draws and the recent load on air (for collisions).
    private struct Reception {
        var receiver: AirReceiver
        /// When the events of the last second arrived.
        var arrivals: [ContinuousClock.Instant] = []

        init(channel: AirChannel) { receiver = AirReceiver(channel: channel) }

        /// The RSSI `t` is heard with at `point`, or nil when the channel lost it.
        mutating func rssi(of t: AirTransmission, at point: AirPoint) -> Int8? {
            let channel = receiver.channel
            guard !channel.isClean else { return AirPathLoss.rssi(data: t.data, txPower: t.txPower, from: t.position, to: point) }
            let now = ContinuousClock.now
            arrivals.removeAll { now - $0 >= .seconds(1) }
            let others = Double(arrivals.count)
            arrivals.append(now)
            let mean = AirPathLoss.meanRSSI(data: t.data, txPower: t.txPower, from: t.position, to: point, exponent: channel.exponent)
            let heard = receiver.receive(mean: mean, otherEventsPerSecond: others,
                                         airtime: AirChannel.airtime(dataLength: min(t.data.count, 31)))
            return (try? heard.get()).map(AirPathLoss.clamp)
        }
    }

    /// What the sending side remembers between rounds.
    private struct Outbound {
        var sequence: UInt64
        var peers: [String] = []
        var listed = ContinuousClock.now - .seconds(1)
    }

    /// Sends the advertising events logged since the last round to every scanner in the directory.
    private func send(_ state: inout Outbound, with sender: AirSocket) {
        let now = ContinuousClock.now
        if now - state.listed >= .milliseconds(250) {
            state.peers = air.peers(except: socketPath)
            state.listed = now
        }
        guard !state.peers.isEmpty else {
            state.sequence = controller.airLogEnd
            return
        }
        let entries = controller.airLog(since: state.sequence)
        guard let last = entries.last else { return }
        state.sequence = last.sequence + 1
        let known = positions.withLock { $0 }
        let datagrams = AirDatagram.encode(entries.map { AirTransmission($0, position: known[$0.data]) })
        for peer in state.peers {
            for datagram in datagrams where !sender.send(datagram, to: peer) {
                unlink(peer)  // nobody listens there: a process that ended without removing it
                state.peers.removeAll { $0 == peer }
                break
            }
        }
    }
}
