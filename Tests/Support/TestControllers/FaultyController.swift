// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import HCI
import Synchronization
import TestSupport
import VirtualController
#if canImport(Glibc)
import Glibc
#endif

/// A misbehaving controller on a real loopback TCP socket (`-i tcp:127.0.0.1:PORT`), for the
/// failure paths: a correct controller (the built-in virtual one, with the spec's rules) that
/// misbehaves in one scripted way at one scripted command.
///
/// The rule picks the n-th command with an opcode (and, optionally, a first parameter byte: the
/// Enable of LE Set (Extended) Advertising Enable), so a test can aim at the setup or at the
/// teardown: the preamble's and the teardown's LE Set Extended Advertising Enable are the 1st and
/// 2nd disable (first byte 0x00), the setup's is the 1st enable.
public final class FaultyController: Sendable {
    /// What goes wrong.
    public enum Fault: Sendable, CustomStringConvertible {
        /// No reply, to this command and every later one (a hung controller).
        case silence
        /// Bytes that are not H4 instead of the reply; later commands are answered again.
        case garbage
        /// A Command Complete for another opcode instead of the reply.
        case replyToAnotherOpcode
        /// The connection is closed instead of replying (an unplugged adapter).
        case disconnect
        /// Command Complete with this error status.
        case status(UInt8)
        /// The reply says Num_HCI_Command_Packets 0 and no credit ever comes back.
        case noCredits
        /// The reply, then a Hardware Error event with this code.
        case hardwareError(UInt8)

        public var description: String {
            switch self {
            case .silence: "silence"
            case .garbage: "garbage"
            case .replyToAnotherOpcode: "a reply to another opcode"
            case .disconnect: "disconnect"
            case .status(let s): "status 0x\(String(s, radix: 16))"
            case .noCredits: "no command credits"
            case .hardwareError(let c): "Hardware Error 0x\(String(c, radix: 16))"
            }
        }
    }

    /// Where the fault strikes.
    public struct Rule: Sendable, CustomStringConvertible {
        public var opcode: UInt16
        /// 1 = the first command with this opcode (and first byte).
        public var occurrence: Int
        /// Only commands whose first parameter byte is this count.
        public var firstByte: UInt8?
        public var fault: Fault

        public init(opcode: UInt16, occurrence: Int = 1, firstByte: UInt8? = nil, fault: Fault) {
            self.opcode = opcode
            self.occurrence = occurrence
            self.firstByte = firstByte
            self.fault = fault
        }

        public var description: String {
            "\(fault) at command 0x\(String(opcode, radix: 16)) #\(occurrence)" + (firstByte.map { " (first byte \($0))" } ?? "")
        }
    }

    public let controller: VirtualController
    public let port: UInt16
    public var adapter: String { "tcp:127.0.0.1:\(port)" }
    private let counts = Mutex<[String: Int]>([:])
    private let struck = Atomic<Bool>(false)
    private let commandCount = Atomic<Int>(0)

    /// How many commands arrived so far.
    public var receivedCommands: Int { commandCount.load(ordering: .acquiring) }

    /// Whether the rule has struck.
    public var hasStruck: Bool { struck.load(ordering: .acquiring) }

    /// How long each reply takes (a slow controller, e.g. over USB or a busy UART).
    public let replyDelay: Duration

    public init(_ rule: Rule?, options: [String: String] = [:], replyDelay: Duration = .zero) throws {
        controller = try VirtualController(options: options)
        self.replyDelay = replyDelay
        let listener = try LoopbackListener()
        port = listener.port
        let thread = Thread { [self] in serve(listener, rule: rule) }
        thread.name = "FaultyController \(port)"
        thread.start()
    }

    private func serve(_ listener: LoopbackListener, rule: Rule?) {
        let fd = listener.accept()
        defer { close(fd) }
        var decoder = H4StreamDecoder()
        var buffer = [UInt8](repeating: 0, count: 1024)
        var silent = false
        var starved = false
        func send(_ bytes: [UInt8]) { _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } }
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0, let packets = try? decoder.feed(buffer.prefix(n)) else { return }
            for packet in packets {
                guard let command = try? packet.commandPacket() else { continue }
                commandCount.add(1, ordering: .releasing)
                if silent || starved { continue }
                let first = command.parameters.first
                var fault: Fault?
                if let rule, rule.opcode == command.opcode.rawValue, rule.firstByte == nil || rule.firstByte == first {
                    let key = "\(rule.opcode)/\(rule.firstByte.map(String.init) ?? "*")"
                    let seen = counts.withLock { $0[key, default: 0] += 1; return $0[key]! }
                    if seen == rule.occurrence { fault = rule.fault; struck.store(true, ordering: .releasing) }
                }
                if replyDelay > .zero { Thread.sleep(forTimeInterval: Double(replyDelay.components.attoseconds) / 1e18 + Double(replyDelay.components.seconds)) }
                let replies = controller.exchange(H4Packet(command).h4Bytes)
                switch fault {
                case nil: replies.forEach(send)
                case .silence: silent = true
                case .garbage: send([0xFF, 0x13, 0x37, 0x00, 0xEE])
                case .replyToAnotherOpcode:
                    let other = command.opcode.rawValue &+ 1
                    send(HCIEventPacket(code: 0x0E, parameters: [1, UInt8(other & 0xFF), UInt8(other >> 8), 0]).h4Bytes)
                case .disconnect: return
                case .status(let status):
                    let op = command.opcode.rawValue
                    send(HCIEventPacket(code: 0x0E, parameters: [1, UInt8(op & 0xFF), UInt8(op >> 8), status]).h4Bytes)
                case .noCredits:
                    for var r in replies {
                        if r.count > 3, r[0] == 0x04, r[1] == 0x0E || r[1] == 0x0F { r[r[1] == 0x0E ? 3 : 4] = 0 }
                        send(r)
                    }
                    starved = true
                case .hardwareError(let code):
                    replies.forEach(send)
                    send(HCIEventPacket(code: 0x10, parameters: [code]).h4Bytes)
                }
            }
        }
    }
}
