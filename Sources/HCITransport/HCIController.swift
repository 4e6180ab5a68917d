// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import Foundation
import HCI
import Logging
import Synchronization

/// A session with one controller: sends commands and awaits their Command Complete/Status with a
/// timeout, honours Num_HCI_Command_Packets (Core Vol 4 Part E §4.4: several commands in flight
/// when the controller allows it, see ``sendAll(_:timeout:)``; a reply goes to the oldest command
/// in flight with its opcode), and delivers every other event as an async stream. Optionally
/// writes every packet, both directions, to a btsnoop file.
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

    /// A command on the wire, waiting for its reply.
    struct Pending {
        var id: UInt64
        var opcode: HCIOpcode
        var name: String
        var deadline: ContinuousClock.Instant
        var timeout: Duration
        var box: ReplyBox
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
        /// Commands we may send now (Num_HCI_Command_Packets, less what went out since); 1 at start.
        var credits = 1
        /// Commands sent and not yet answered, oldest first: a reply goes to the oldest with its opcode.
        var pending: [Pending] = []
        var nextPending: UInt64 = 0
        /// Callers waiting for a free command slot, first come first served.
        var waiters: [SlotWaiter] = []
        var nextWaiter: UInt64 = 0
        var failure: HCIControllerError?
        /// LE Advertising Set Terminated events so far, per advertising handle.
        var terminations: [UInt8: Int] = [:]
        var terminationObservers: [@Sendable (LEAdvertisingSetTerminatedEvent) -> Void] = []
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
        let box = try await submit(opcode: C.opcode, name: C.name, h4: command.h4Bytes, timeout: timeout ?? commandTimeout)
        return try result(of: command, await box.value())
    }

    /// Sends `commands` in order without waiting for each reply before sending the next, as far
    /// as the controller's free command slots (Num_HCI_Command_Packets) allow, and returns their
    /// replies in order. Only for commands that do not depend on each other (one command for each
    /// of several advertising sets): a controller may carry out commands in flight in any order.
    ///
    /// Every command is checked first (nothing is sent if one is invalid). After a failure no
    /// further command is sent; the first failure, in command order, is thrown once every
    /// command sent has its reply (or has timed out).
    public func sendAll(_ commands: [any HCICommand], timeout: Duration? = nil) async throws(HCIControllerError) -> [HCICommandCompleteEvent] {
        let info = self.info
        for command in commands {
            do throws(HCIValidationError) { try command.validate(for: info) } catch { throw .invalid(error, command: type(of: command).name) }
        }
        var boxes: [(any HCICommand, ReplyBox)] = []
        var notSent: HCIControllerError?
        for command in commands {
            // Checked once the slot is ours, so a reply that failed while we waited for the slot stops the batch.
            let anyFailed = { [boxes] in boxes.contains { $0.1.failed } }
            do throws(HCIControllerError) {
                guard let box = try await submit(command, timeout: timeout ?? commandTimeout, unless: anyFailed) else { break }
                boxes.append((command, box))
            } catch {
                notSent = error
                break
            }
        }
        var failure: HCIControllerError?
        var replies: [HCICommandCompleteEvent] = []
        for (command, box) in boxes {
            do throws(HCIControllerError) {
                replies.append(try completion(of: command, await box.value()))
            } catch {
                if failure == nil { failure = error }
            }
        }
        if let failure = failure ?? notSent { throw failure }
        return replies
    }

    /// Sends raw command bytes (opcode, length, parameters) and returns the raw reply; for tools
    /// that replay captures or probe unknown commands.
    public func sendRaw(_ packet: HCICommandPacket, timeout: Duration? = nil) async throws(HCIControllerError) -> HCICommandCompleteEvent {
        let name = "command \(packet.opcode)"
        let box = try await submit(opcode: packet.opcode, name: name, h4: H4Packet(packet).h4Bytes, timeout: timeout ?? commandTimeout)
        switch try await box.value() {
        case .status(let s):
            throw .command(.failed(command: name, opcode: packet.opcode, status: s.status), adapter: adapterName)
        case .complete(let c): return c
        }
    }

    /// How many times each advertising set has stopped by itself (LE Advertising Set Terminated,
    /// Core Vol 4 Part E §7.7.65.18), counted on the reader thread as the event arrives: an event
    /// the controller sent before a command's reply is counted before that reply is delivered.
    public var advertisingSetTerminations: [UInt8: Int] { state.withLock { $0.terminations } }

    /// Calls `observer` (on the reader thread, briefly) for every LE Advertising Set Terminated
    /// event, after it is counted; the event also goes to ``events``.
    public func onAdvertisingSetTerminated(_ observer: @escaping @Sendable (LEAdvertisingSetTerminatedEvent) -> Void) {
        state.withLock { $0.terminationObservers.append(observer) }
    }

    /// Closes the transport; pending and later commands fail with `.closed`.
    public func close() {
        fail(with: .closed(adapter: adapterName))
        transport.close()
    }

    // MARK: - Exchange

    private func result<C: HCICommand>(of command: C, _ reply: Reply) throws(HCIControllerError) -> C.ReturnParameters {
        switch reply {
        case .status(let s):
            throw .command(.failed(command: C.name, opcode: C.opcode, status: s.status), adapter: adapterName)
        case .complete(let c):
            do throws(HCICommandError) { return try c.result(for: C.self) } catch { throw .command(error, adapter: adapterName) }
        }
    }

    /// The Command Complete of `command`, once its status and return parameters are checked.
    private func completion<C: HCICommand>(of command: C, _ reply: Reply) throws(HCIControllerError) -> HCICommandCompleteEvent {
        _ = try result(of: command, reply)
        guard case .complete(let c) = reply else { preconditionFailure("result(of:) throws for a Command Status") }
        return c
    }

    private func submit<C: HCICommand>(_ command: C, timeout: Duration, unless abandon: () -> Bool) async throws(HCIControllerError) -> ReplyBox? {
        try await submit(opcode: C.opcode, name: C.name, h4: command.h4Bytes, timeout: timeout, unless: abandon)
    }

    private func submit(opcode: HCIOpcode, name: String, h4: [UInt8], timeout: Duration) async throws(HCIControllerError) -> ReplyBox {
        try await submit(opcode: opcode, name: name, h4: h4, timeout: timeout, unless: { false })!
    }

    /// Waits for a free command slot, puts the command on the wire and returns where its reply
    /// will arrive; nil, with the slot given back, if `abandon` says so once the slot is ours.
    /// Commands from one caller go out in the order it submits them.
    private func submit(opcode: HCIOpcode, name: String, h4: [UInt8], timeout: Duration, unless abandon: () -> Bool) async throws(HCIControllerError) -> ReplyBox? {
        do {
            try await acquireSlot(timeout: timeout, name: name, opcode: opcode)
        } catch let e as HCIControllerError {
            throw e
        } catch {
            throw .closed(adapter: adapterName)
        }
        if abandon() {
            state.withLock { $0.credits += 1 }
            creditsChanged()
            return nil
        }
        let box = ReplyBox()
        let registered: Result<UInt64, HCIControllerError> = state.withLock { s in
            if let f = s.failure { return .failure(f) }
            s.nextPending += 1
            s.pending.append(Pending(id: s.nextPending, opcode: opcode, name: name, deadline: .now + timeout, timeout: timeout, box: box))
            return .success(s.nextPending)
        }
        let id: UInt64
        switch registered {
        case .failure(let f): throw f
        case .success(let i): id = i
        }
        snoop?.record(h4, direction: .sent)
        Self.logger.trace("sent \(name): \(Hex.string(h4))")
        do throws(TransportError) { try transport.send(h4) } catch {
            // The command never reached the controller, so its slot is free again (a raw socket
            // refuses writes while the adapter is down: the watchdog's retries must not use up
            // the credits).
            let mine = state.withLock { s -> Pending? in
                guard let i = s.pending.firstIndex(where: { $0.id == id }) else { return nil }
                s.credits += 1
                return s.pending.remove(at: i)
            }
            mine?.box.resolve(.failure(.transport(error)))
            if mine != nil { creditsChanged() }
        }
        return box
    }

    /// Takes a free command slot (first come, first served), waiting for one if the controller has none.
    private func acquireSlot(timeout: Duration, name: String, opcode: HCIOpcode) async throws {
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, any Error>) in
            let result: Result<Bool, HCIControllerError> = state.withLock { s in
                if let f = s.failure { return .failure(f) }
                if s.waiters.isEmpty && s.credits > 0 {
                    s.credits -= 1
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

    /// Hands free slots to waiters, oldest first.
    private func creditsChanged() {
        let ready: [SlotWaiter] = state.withLock { s in
            var ready: [SlotWaiter] = []
            while s.credits > 0, !s.waiters.isEmpty {
                s.credits -= 1
                ready.append(s.waiters.removeFirst())
            }
            return ready
        }
        for w in ready { w.continuation.resume() }
    }

    private func fail(with error: HCIControllerError) {
        let (pending, waiters): ([Pending], [SlotWaiter]) = state.withLock { s in
            if s.failure == nil { s.failure = error }
            defer { s.pending = []; s.waiters = [] }
            return (s.pending, s.waiters)
        }
        for p in pending { p.box.resolve(.failure(error)) }
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
                let lost = state.withLock { s -> [Pending] in
                    defer { s.pending = [] }
                    // Their replies were lost in the garbage and will not come: assume the slots
                    // are free again (as after a timeout), so the next command is not starved.
                    if !s.pending.isEmpty { s.credits = max(s.credits, 1) }
                    return s.pending
                }
                if !lost.isEmpty {
                    for p in lost { p.box.resolve(.failure(HCIControllerError.garbage(error, adapter: adapterName))) }
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
        case .leAdvertisingSetTerminated(let t):
            let observers = state.withLock { s in
                s.terminations[t.handle, default: 0] += 1
                return s.terminationObservers
            }
            for o in observers { o(t) }
            eventSink.yield(event)
        default:
            eventSink.yield(event)
        }
    }

    /// Resumes the oldest pending command with `opcode`, if any; updates the credits either way.
    private func deliver(_ reply: Reply, opcode: HCIOpcode, credits: UInt8) -> Bool {
        let pending: Pending? = state.withLock { s in
            let mine = s.pending.firstIndex { $0.opcode == opcode }.map { s.pending.remove(at: $0) }
            s.credits = Self.credits(reported: credits, inFlight: s.pending.count)
            return mine
        }
        // The reply first, then the credit: a batch waiting for the slot then sees the failure
        // (``ReplyBox/failed``) before it could send its next command.
        pending?.box.resolve(.success(reply))
        creditsChanged()
        return pending != nil
    }

    /// Num_HCI_Command_Packets counts what the controller could take when it sent the event;
    /// commands still in flight may have been sent after that, so they are counted against it.
    /// Never more than the controller said, and with nothing in flight exactly what it said, so
    /// credits always come back.
    static func credits(reported: UInt8, inFlight: Int) -> Int {
        max(0, Int(reported) - inFlight)
    }

    private func setCredits(_ credits: UInt8) {
        state.withLock { s in s.credits = Self.credits(reported: credits, inFlight: s.pending.count) }
        creditsChanged()
    }

    private func expireDeadlines() {
        let now = ContinuousClock.now
        let (expired, starved): ([Pending], [SlotWaiter]) = state.withLock { s in
            let expired = s.pending.filter { $0.deadline <= now }
            if !expired.isEmpty {
                s.pending.removeAll { $0.deadline <= now }
                // The controller never answered, so it never gave the slot back: assume one, so
                // the next command is not stuck behind a reply that will not come.
                s.credits = max(s.credits, 1)
            }
            // Waiters starved of a slot (a controller that reports zero credits and never more).
            let starved = s.waiters.filter { $0.deadline <= now }
            s.waiters.removeAll { $0.deadline <= now }
            return (expired, starved)
        }
        for p in expired {
            p.box.resolve(.failure(timeoutError(name: p.name, opcode: p.opcode, timeout: p.timeout)))
        }
        for w in starved {
            w.continuation.resume(throwing: timeoutError(name: w.name, opcode: w.opcode, timeout: w.timeout))
        }
        if !expired.isEmpty { creditsChanged() }
    }

    private func timeoutError(name: String, opcode: HCIOpcode, timeout: Duration) -> HCIControllerError {
        let (sec, atto) = timeout.components
        return .timeout(command: name, opcode: opcode, adapter: adapterName, milliseconds: Int(sec * 1000 + atto / 1_000_000_000_000_000))
    }
}

/// Where one command's reply arrives: set once by the reader thread (or a failure), awaited once
/// by the caller, whichever comes first.
final class ReplyBox: Sendable {
    typealias Outcome = Result<HCIController.Reply, HCIControllerError>

    private enum Slot {
        case empty
        case waiting(CheckedContinuation<Outcome, Never>)
        case done(Outcome)
    }

    private let slot = Mutex(Slot.empty)

    /// Whether the reply is in and is a failure (so a batch sends nothing more).
    var failed: Bool {
        slot.withLock { s in
            switch s {
            case .done(.failure), .done(.success(.status)): true
            case .done(.success(.complete(let c))): c.status.map { !$0.isSuccess } ?? false
            default: false
            }
        }
    }

    func resolve(_ outcome: Outcome) {
        let waiter: CheckedContinuation<Outcome, Never>? = slot.withLock { s in
            switch s {
            case .empty:
                s = .done(outcome)
                return nil
            case .waiting(let c):
                s = .done(outcome)
                return c
            case .done:
                return nil  // a second answer (a late reply after a timeout) is dropped
            }
        }
        waiter?.resume(returning: outcome)
    }

    func value() async throws(HCIControllerError) -> HCIController.Reply {
        let outcome = await withCheckedContinuation { (c: CheckedContinuation<Outcome, Never>) in
            let now: Outcome? = slot.withLock { s in
                if case .done(let r) = s { return r }
                s = .waiting(c)
                return nil
            }
            if let now { c.resume(returning: now) }
        }
        return try outcome.get()
    }
}
