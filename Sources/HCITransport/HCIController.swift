// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import Foundation
import HCI
import Logging
import Synchronization

/// A session with one controller: sends commands and awaits their Command Complete/Status with a
/// timeout, honours Num_HCI_Command_Packets (Core Vol 4 Part E §4.4), and delivers every other
/// event as an async stream. Optionally writes every packet, both directions, to a btsnoop file.
///
/// A dedicated thread reads the transport (blocking reads must not sit on Swift's cooperative
/// pool); it also enforces the deadlines, so every wait ends within its timeout plus ~50 ms.
public final class HCIController: Sendable {
    public let transport: any HCITransport
    public var adapterName: String { transport.adapterName }
    /// How long a command may wait for its reply (default 2 s).
    public let commandTimeout: Duration
    /// Events that are not replies to our commands (advertising reports, set terminated, …).
    public let events: AsyncStream<HCIEvent>
    /// What validation knows about the controller; set after probing it.
    public var info: HCIControllerInfo {
        get { state.withLock { $0.info } }
        set { state.withLock { $0.info = newValue } }
    }

    private let snoop: BTSnoopWriter?
    /// Every packet at `trace` level (`beacon -vvv`), next to the btsnoop file.
    static let logger = Logger(label: "beacon.hci")
    private let eventSink: AsyncStream<HCIEvent>.Continuation
    private let state: Mutex<State>
    private let readerDone = Atomic<Bool>(false)

    enum Reply: Sendable {
        case complete(HCICommandCompleteEvent)
        case status(HCICommandStatusEvent)
    }

    struct Pending {
        var opcode: HCIOpcode
        var name: String
        var deadline: ContinuousClock.Instant
        var timeout: Duration
        var continuation: CheckedContinuation<Reply, any Error>
    }

    struct SlotWaiter {
        var id: UInt64
        var name: String
        var opcode: HCIOpcode
        var deadline: ContinuousClock.Instant
        var timeout: Duration
        var continuation: CheckedContinuation<Void, any Error>
    }

    struct State: ~Copyable {
        var info = HCIControllerInfo.unknown
        /// Commands the controller will accept now (Num_HCI_Command_Packets); 1 at start.
        var credits = 1
        var busy = false
        var pending: Pending?
        var waiters: [SlotWaiter] = []
        var nextWaiter: UInt64 = 0
        var failure: HCIControllerError?
    }

    public init(transport: any HCITransport, commandTimeout: Duration = .seconds(2), btsnoop: BTSnoopWriter? = nil) {
        self.transport = transport
        self.commandTimeout = commandTimeout
        self.snoop = btsnoop
        (events, eventSink) = AsyncStream.makeStream(of: HCIEvent.self, bufferingPolicy: .bufferingNewest(4096))
        state = Mutex(State())
        let thread = Thread { [self] in readLoop() }
        thread.name = "beacon HCI reader \(transport.adapterName)"
        thread.start()
    }

    deinit { transport.close() }

    /// Sends `command` and returns its typed return parameters, or throws with the reason
    /// (status explained, timeout naming the command and adapter, transport failure).
    @discardableResult
    public func send<C: HCICommand>(_ command: C, timeout: Duration? = nil) async throws(HCIControllerError) -> C.ReturnParameters {
        let info = self.info
        do throws(HCIValidationError) { try command.validate(for: info) } catch { throw .invalid(error, command: C.name) }
        let reply = try await exchange(opcode: C.opcode, name: C.name, h4: command.h4Bytes, timeout: timeout ?? commandTimeout)
        switch reply {
        case .status(let s):
            throw .command(.failed(command: C.name, opcode: C.opcode, status: s.status), adapter: adapterName)
        case .complete(let c):
            do throws(HCICommandError) { return try c.result(for: C.self) } catch { throw .command(error, adapter: adapterName) }
        }
    }

    /// Sends raw command bytes (opcode, length, parameters) and returns the raw reply; for tools
    /// that replay captures or probe unknown commands.
    public func sendRaw(_ packet: HCICommandPacket, timeout: Duration? = nil) async throws(HCIControllerError) -> HCICommandCompleteEvent {
        let reply = try await exchange(opcode: packet.opcode, name: "command \(packet.opcode)", h4: H4Packet(packet).h4Bytes, timeout: timeout ?? commandTimeout)
        switch reply {
        case .status(let s):
            throw .command(.failed(command: "command \(packet.opcode)", opcode: packet.opcode, status: s.status), adapter: adapterName)
        case .complete(let c): return c
        }
    }

    /// Closes the transport; pending and later commands fail with `.closed`.
    public func close() {
        fail(with: .closed(adapter: adapterName))
        transport.close()
    }

    // MARK: - Exchange

    private func exchange(opcode: HCIOpcode, name: String, h4: [UInt8], timeout: Duration) async throws(HCIControllerError) -> Reply {
        do {
            try await acquireSlot(timeout: timeout, name: name, opcode: opcode)
            defer { releaseSlot() }
            return try await withCheckedThrowingContinuation { (c: CheckedContinuation<Reply, any Error>) in
                let failure: HCIControllerError? = state.withLock { s in
                    if let f = s.failure { return f }
                    s.credits -= 1
                    s.pending = Pending(opcode: opcode, name: name, deadline: .now + timeout, timeout: timeout, continuation: c)
                    return nil
                }
                if let failure { c.resume(throwing: failure); return }
                snoop?.record(h4, direction: .sent)
                Self.logger.trace("sent \(name): \(Hex.string(h4))")
                do throws(TransportError) { try transport.send(h4) } catch {
                    // The command never reached the controller, so its slot is still free (a
                    // raw socket refuses writes while the adapter is down: the watchdog's
                    // retries must not use up the credits).
                    if let p = state.withLock({ s -> Pending? in defer { s.pending = nil }; s.credits += 1; return s.pending }) {
                        p.continuation.resume(throwing: HCIControllerError.transport(error))
                    }
                }
            }
        } catch let e as HCIControllerError {
            throw e
        } catch {
            throw .closed(adapter: adapterName)
        }
    }

    /// One command at a time, and only when the controller has a free command slot.
    private func acquireSlot(timeout: Duration, name: String, opcode: HCIOpcode) async throws {
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, any Error>) in
            let result: Result<Bool, HCIControllerError> = state.withLock { s in
                if let f = s.failure { return .failure(f) }
                if !s.busy && s.credits > 0 {
                    s.busy = true
                    return .success(true)
                }
                s.nextWaiter += 1
                s.waiters.append(SlotWaiter(id: s.nextWaiter, name: name, opcode: opcode, deadline: .now + timeout, timeout: timeout, continuation: c))
                return .success(false)
            }
            switch result {
            case .failure(let f): c.resume(throwing: f)
            case .success(true): c.resume()
            case .success(false): break
            }
        }
    }

    private func releaseSlot() {
        let next: SlotWaiter? = state.withLock { s in
            if s.credits > 0, !s.waiters.isEmpty { return s.waiters.removeFirst() }  // busy stays true: handed over
            s.busy = false
            return nil
        }
        next?.continuation.resume()
    }

    /// A controller that reports no free slots gets them back in a later event; hand the slot on then.
    private func creditsChanged() {
        let next: SlotWaiter? = state.withLock { s in
            guard !s.busy, s.credits > 0, !s.waiters.isEmpty else { return nil }
            s.busy = true
            return s.waiters.removeFirst()
        }
        next?.continuation.resume()
    }

    private func fail(with error: HCIControllerError) {
        let (pending, waiters): (Pending?, [SlotWaiter]) = state.withLock { s in
            if s.failure == nil { s.failure = error }
            defer { s.pending = nil; s.waiters = [] }
            return (s.pending, s.waiters)
        }
        pending?.continuation.resume(throwing: error)
        for w in waiters { w.continuation.resume(throwing: error) }
    }

    // MARK: - Reader thread

    private func readLoop() {
        var decoder = H4StreamDecoder()
        defer {
            readerDone.store(true, ordering: .releasing)
            eventSink.finish()
        }
        while true {
            expireDeadlines()
            let chunk: [UInt8]?
            do throws(TransportError) { chunk = try transport.receive(timeout: .milliseconds(50)) } catch {
                fail(with: state.withLock { $0.failure } ?? .transport(error))
                return
            }
            guard let chunk else { continue }
            // append + next rather than feed: no array of packets per read (see BENCHMARKS.md).
            do throws(H4DecodingError) {
                try decoder.append(chunk)
                while let packet = try decoder.next() {
                    snoop?.record(packet.h4Bytes, direction: .received)
                    Self.logger.trace("received: \(Hex.string(packet.h4Bytes))")
                    handle(packet)
                }
            } catch {
                // Garbage: the stream is out of step and cannot be trusted; fail what waits, start over.
                decoder.reset()
                let pending = state.withLock { s -> Pending? in
                    defer { s.pending = nil }
                    // Its reply was lost in the garbage and will not come: assume the slot is
                    // free again (as after a timeout), so the next command is not starved.
                    if s.pending != nil { s.credits = max(s.credits, 1) }
                    return s.pending
                }
                if let pending {
                    pending.continuation.resume(throwing: HCIControllerError.garbage(error, adapter: adapterName))
                    creditsChanged()
                }
            }
        }
    }

    private func handle(_ packet: H4Packet) {
        guard let raw = try? packet.eventPacket(), let event = try? HCIEvent(packet: raw) else { return }
        switch event {
        case .commandComplete(let c):
            if deliver(.complete(c), opcode: c.opcode, credits: c.numHCICommandPackets) { return }
            eventSink.yield(event)
        case .commandStatus(let s):
            // A successful Command Status for a command that completes with Command Complete only
            // means "pending"; keep waiting for the Complete.
            if !s.status.isSuccess, deliver(.status(s), opcode: s.opcode, credits: s.numHCICommandPackets) { return }
            setCredits(s.numHCICommandPackets)
            eventSink.yield(event)
        default:
            eventSink.yield(event)
        }
    }

    /// Resumes the pending command if `opcode` is its; updates the credits either way.
    private func deliver(_ reply: Reply, opcode: HCIOpcode, credits: UInt8) -> Bool {
        let pending: Pending? = state.withLock { s in
            s.credits = Int(credits)
            guard let p = s.pending, p.opcode == opcode else { return nil }
            s.pending = nil
            return p
        }
        creditsChanged()
        guard let pending else { return false }
        pending.continuation.resume(returning: reply)
        return true
    }

    private func setCredits(_ credits: UInt8) {
        state.withLock { $0.credits = Int(credits) }
        creditsChanged()
    }

    private func expireDeadlines() {
        let now = ContinuousClock.now
        let (expired, starved): (Pending?, [SlotWaiter]) = state.withLock { s in
            var p: Pending? = nil
            if let pending = s.pending, pending.deadline <= now {
                s.pending = nil
                // The controller never answered, so it never gave the slot back: assume one, so
                // the next command is not stuck behind a reply that will not come.
                s.credits = max(s.credits, 1)
                p = pending
            }
            // Waiters starved of a slot (a controller that reports zero credits and never more).
            let starved = s.waiters.filter { $0.deadline <= now }
            s.waiters.removeAll { $0.deadline <= now }
            return (p, starved)
        }
        if let p = expired {
            p.continuation.resume(throwing: timeoutError(name: p.name, opcode: p.opcode, timeout: p.timeout))
        }
        for w in starved {
            w.continuation.resume(throwing: timeoutError(name: w.name, opcode: w.opcode, timeout: w.timeout))
        }
        if expired != nil { creditsChanged() }
    }

    private func timeoutError(name: String, opcode: HCIOpcode, timeout: Duration) -> HCIControllerError {
        let (sec, atto) = timeout.components
        return .timeout(command: name, opcode: opcode, adapter: adapterName, milliseconds: Int(sec * 1000 + atto / 1_000_000_000_000_000))
    }
}
