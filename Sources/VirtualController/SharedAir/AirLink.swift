// SPDX-License-Identifier: GPL-2.0-or-later
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
/// One background loop per link, every 10 ms at most: takes the datagrams waiting on its socket
/// and hands each transmission to the controller (which reports it only while scanning), then
/// sends the advertising events logged since the last round to every other socket in the
/// directory (listed again every 250 ms). The controller itself stays as deterministic as ever:
/// only the link reads the clock.
public final class AirLink: Sendable {
    public let air: SharedAir
    public let controller: VirtualController
    /// This link's socket in the directory.
    public let socketPath: String
    private let receiverPoint: Mutex<AirPoint>
    /// Where the advertising data this process sends comes from: data bytes → position.
    private let positions = Mutex<[[UInt8]: AirPoint]>([:])
    private let stopped = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    private static let counter = Atomic<Int>(0)

    /// Joins `controller` to `air` (creating the directory if needed) and starts the loop.
    public init(controller: VirtualController, air: SharedAir, receiver: AirPoint = AirPoint(x: 0, y: 0)) throws(SharedAirError) {
        try air.prepare()
        let n = Self.counter.add(1, ordering: .relaxed).newValue
        let path = "\(air.directory)/\(getpid())-\(n).sock"
        let socket = try AirSocket(binding: path)
        self.air = air
        self.controller = controller
        self.socketPath = path
        self.receiverPoint = Mutex(receiver)
        let queue = DispatchQueue(label: "beacon.air.\(n)")
        queue.async { [self] in
            loop(socket)
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

    /// Stops the loop and removes the socket. Idempotent.
    public func close() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        finished.wait()
    }

    deinit { close() }

    private func loop(_ socket: AirSocket) {
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        var sequence = controller.airLogEnd
        var peers: [String] = []
        var listed = ContinuousClock.now - .seconds(1)
        while !stopped.load(ordering: .acquiring) {
            let receiver = self.receiver
            for datagram in socket.receiveAll(waitingUpTo: 10, buffer: &buffer) {
                guard let transmissions = AirDatagram.decode(datagram[...]) else { continue }
                for t in transmissions {
                    controller.hear(t, rssi: AirPathLoss.rssi(data: t.data, txPower: t.txPower, from: t.position, to: receiver))
                }
            }
            let now = ContinuousClock.now
            if now - listed >= .milliseconds(250) {
                peers = air.peers(except: socketPath)
                listed = now
            }
            guard !peers.isEmpty else {
                sequence = controller.airLogEnd
                continue
            }
            let entries = controller.airLog(since: sequence)
            guard let last = entries.last else { continue }
            sequence = last.sequence + 1
            let known = positions.withLock { $0 }
            let datagrams = AirDatagram.encode(entries.map { AirTransmission($0, position: known[$0.data]) })
            var gone: Set<String> = []
            for peer in peers {
                for datagram in datagrams where !socket.send(datagram, to: peer) {
                    gone.insert(peer)
                    unlink(peer)  // nobody listens: a process that ended without removing it
                    break
                }
            }
            if !gone.isEmpty { peers.removeAll { gone.contains($0) } }
        }
    }
}
