// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import HCI
import Mgmt
import Synchronization

/// A session with the kernel's management API for one adapter: sends a command, awaits the
/// Command Complete/Status for that opcode and adapter index with a timeout, and delivers every
/// other event (Advertising Added/Removed, Index Added/Removed, …) as an async stream.
///
/// One command at a time: the kernel answers in order, but a reply is matched by opcode and
/// index, and the control socket also carries other programs' notifications. A dedicated
/// thread reads the socket (blocking reads must not sit on Swift's cooperative pool) and enforces
/// the deadline, so every wait ends within its timeout plus one poll slice (~50 ms).
public final class MgmtController: Sendable {
    public let transport: any HCITransport
    /// The adapter's index (0 for hci0).
    public let index: UInt16
    public var adapterName: String { transport.adapterName }
    public let commandTimeout: Duration
    /// Events that are not replies to our commands.
    public let events: AsyncStream<MgmtEvent>

    private let eventSink: AsyncStream<MgmtEvent>.Continuation
    private let state: Mutex<State>

    struct Pending {
        var opcode: MgmtOpcode
        var index: UInt16
        var name: String
        var deadline: ContinuousClock.Instant
        var timeout: Duration
        var continuation: CheckedContinuation<MgmtCommandCompleteEvent, any Error>
    }

    struct State: ~Copyable {
        var busy = false
        var waiters: [CheckedContinuation<Void, Never>] = []
        var pending: Pending?
        var failure: MgmtControllerError?
    }

    public init(transport: any HCITransport, index: UInt16, commandTimeout: Duration = .seconds(2)) {
        self.transport = transport
        self.index = index
        self.commandTimeout = commandTimeout
        (events, eventSink) = AsyncStream.makeStream(of: MgmtEvent.self, bufferingPolicy: .bufferingNewest(1024))
        state = Mutex(State())
        let thread = Thread { [self] in readLoop() }
        thread.name = "beacon mgmt reader \(transport.adapterName)"
        thread.start()
    }

    deinit { transport.close() }

    /// Sends `command` for this adapter (or `<non-controller>` when `index` says so) and returns
    /// its typed return parameters, or throws the reason.
    @discardableResult
    public func send<C: MgmtCommand>(_ command: C, index: UInt16? = nil, timeout: Duration? = nil) async throws(MgmtControllerError) -> C.ReturnParameters {
        do throws(HCIValidationError) { try command.validate() } catch { throw .invalid(error, command: C.name) }
        let complete = try await exchange(command.packet(index: index ?? self.index), name: C.name, timeout: timeout ?? commandTimeout)
        guard complete.status.isSuccess else {
            throw .failed(command: C.name, opcode: C.opcode, status: complete.status, adapter: adapterName)
        }
        do throws(HCIDecodingError) { return try complete.result(for: C.self) } catch {
            throw .badReply(error, command: C.name, adapter: adapterName)
        }
    }

    /// Closes the socket; waiting and later commands fail with `.closed`.
    public func close() {
        fail(with: .closed(adapter: adapterName))
        transport.close()
    }

    // MARK: - Exchange

    private func exchange(_ packet: MgmtPacket, name: String, timeout: Duration) async throws(MgmtControllerError) -> MgmtCommandCompleteEvent {
        await acquire()
        defer { release() }
        let opcode = MgmtOpcode(rawValue: packet.header.code)
        do {
            return try await withCheckedThrowingContinuation { (c: CheckedContinuation<MgmtCommandCompleteEvent, any Error>) in
                let failure: MgmtControllerError? = state.withLock { s in
                    if let f = s.failure { return f }
                    s.pending = Pending(opcode: opcode, index: packet.header.index, name: name, deadline: .now + timeout, timeout: timeout, continuation: c)
                    return nil
                }
                if let failure { c.resume(throwing: failure); return }
                do throws(TransportError) { try transport.send(packet.bytes) } catch {
                    if let p = state.withLock({ s -> Pending? in defer { s.pending = nil }; return s.pending }) {
                        p.continuation.resume(throwing: MgmtControllerError.sendFailed(error, command: name))
                    }
                }
            }
        } catch let e as MgmtControllerError {
            throw e
        } catch {
            throw .closed(adapter: adapterName)
        }
    }

    /// One command at a time. A waiter is bounded by the commands ahead of it, each bounded by
    /// its own timeout.
    private func acquire() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let now = state.withLock { s -> Bool in
                if !s.busy { s.busy = true; return true }
                s.waiters.append(c)
                return false
            }
            if now { c.resume() }
        }
    }

    private func release() {
        let next = state.withLock { s -> CheckedContinuation<Void, Never>? in
            if s.waiters.isEmpty { s.busy = false; return nil }
            return s.waiters.removeFirst()  // busy stays true: handed over
        }
        next?.resume()
    }

    private func fail(with error: MgmtControllerError) {
        let pending = state.withLock { s -> Pending? in
            if s.failure == nil { s.failure = error }
            defer { s.pending = nil }
            return s.pending
        }
        pending?.continuation.resume(throwing: error)
    }

    // MARK: - Reader thread

    private func readLoop() {
        defer { eventSink.finish() }
        while true {
            expireDeadline()
            let bytes: [UInt8]?
            do throws(TransportError) { bytes = try transport.receive(timeout: .milliseconds(50)) } catch {
                fail(with: state.withLock { $0.failure } ?? .transport(error))
                return
            }
            // The kernel delivers one whole packet per read; one it cannot have sent is skipped.
            guard let bytes, let event = try? MgmtEvent(bytes: bytes) else { continue }
            switch event {
            case let .commandComplete(complete, index):
                if deliver(opcode: complete.opcode, index: index, { $0.resume(returning: complete) }) { continue }
            case let .commandStatus(status, index):
                // Command Status is the final answer only on failure; success means "pending".
                let failed = MgmtCommandCompleteEvent(opcode: status.opcode, status: status.status)
                if !status.status.isSuccess, deliver(opcode: status.opcode, index: index, { $0.resume(returning: failed) }) { continue }
            default:
                break
            }
            eventSink.yield(event)
        }
    }

    /// Resumes the pending command if the reply is for its opcode and adapter.
    private func deliver(opcode: MgmtOpcode, index: UInt16, _ resume: (CheckedContinuation<MgmtCommandCompleteEvent, any Error>) -> Void) -> Bool {
        let pending = state.withLock { s -> Pending? in
            guard let p = s.pending, p.opcode == opcode, p.index == index else { return nil }
            s.pending = nil
            return p
        }
        guard let pending else { return false }
        resume(pending.continuation)
        return true
    }

    private func expireDeadline() {
        let now = ContinuousClock.now
        let expired = state.withLock { s -> Pending? in
            guard let p = s.pending, p.deadline <= now else { return nil }
            s.pending = nil
            return p
        }
        guard let p = expired else { return }
        let (sec, atto) = p.timeout.components
        p.continuation.resume(throwing: MgmtControllerError.timeout(command: p.name, opcode: p.opcode, adapter: adapterName, milliseconds: Int(sec * 1000 + atto / 1_000_000_000_000_000)))
    }
}
