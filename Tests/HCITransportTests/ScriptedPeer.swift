// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import HCI
import HCITransport
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A scripted fake controller on a real loopback TCP socket (unit tests only; the integration
/// tests use Bumble). For each command it receives it writes whatever `reply` returns.
final class ScriptedPeer: @unchecked Sendable {
    let listener: LoopbackListener
    var port: UInt16 { listener.port }
    private(set) var received: [HCICommandPacket] = []
    private let lock = NSLock()

    init(reply: @escaping @Sendable (HCICommandPacket) -> [UInt8]?) throws {
        listener = try LoopbackListener()
        let listener = self.listener
        Thread { [self] in
            let fd = listener.accept()
            defer { close(fd) }
            var decoder = H4StreamDecoder()
            var buffer = [UInt8](repeating: 0, count: 512)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                guard n > 0, let packets = try? decoder.feed(buffer.prefix(n)) else { return }
                for p in packets {
                    guard let command = try? p.commandPacket() else { continue }
                    lock.withLock { received.append(command) }
                    guard let out = reply(command) else { continue }
                    if out.isEmpty { return }  // an empty reply means: hang up
                    _ = out.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                }
            }
        }.start()
    }

    var commands: [HCICommandPacket] { lock.withLock { received } }
}

/// The H4 bytes of a Command Complete for `opcode` with `status` and return parameters.
func commandComplete(_ opcode: HCIOpcode, status: UInt8 = 0, credits: UInt8 = 1, _ rest: [UInt8] = []) -> [UInt8] {
    HCIEventPacket(code: 0x0E, parameters: [credits, UInt8(opcode.rawValue & 0xFF), UInt8(opcode.rawValue >> 8), status] + rest).h4Bytes
}
