// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconSystem
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The seam's self-pipe, its signal-safe write, and datagrams over UNIX sockets.
@Suite struct SystemCallsSignalAndDatagramTests {
    let system = LiveSystemCalls()

    @Test func theSignalSafeWriteLandsInTheNonBlockingPipeAndKeepsErrno() throws {
        let ends = try system.makeNonBlockingPipe().get()
        defer { system.close(ends.read); system.close(ends.write) }
        #expect(try system.statusFlags(of: ends.write).get() & O_NONBLOCK != 0)
        #expect(try system.statusFlags(of: ends.read).get() & O_NONBLOCK != 0)
        errno = ERANGE
        SignalSafe.write(ends.write, 15)
        #expect(errno == ERANGE)
        var byte: [UInt8] = [0, 0]
        #expect(try byte.withUnsafeMutableBytes { system.read(ends.read, into: $0) }.get() == 1)
        #expect(byte[0] == 15)
        // Empty and non-blocking: EAGAIN at once, never a wait.
        #expect(byte.withUnsafeMutableBytes { system.read(ends.read, into: $0) } == .failure(.wouldBlock))
    }

    @Test func aDatagramSentToABoundSocketIsReceivedWhole() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("seam-\(UUID().uuidString)").path
        try #require(mkdir(directory, 0o700) == 0)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = directory + "/listener.sock"
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.enumerated() { raw[i] = byte }
        }
        let type = SocketType.datagram | SocketType.closeOnExec
        let listener = try system.openSocket(domain: AF_UNIX, type: type | SocketType.nonBlocking, protocol: 0).get()
        defer { system.close(listener) }
        try withUnsafeBytes(of: &address) { try system.bind(listener, to: $0).get() }
        let sender = try system.openSocket(domain: AF_UNIX, type: type, protocol: 0).get()
        defer { system.close(sender) }
        let datagram: [UInt8] = [1, 2, 3, 250]
        let sent = try datagram.withUnsafeBytes { bytes in
            try withUnsafeBytes(of: &address) { try system.send(sender, bytes, to: $0, flags: Int32(MSG_DONTWAIT)).get() }
        }
        #expect(sent == 4)
        #expect(try system.pollReadable(listener, milliseconds: 5000).get())
        var buffer = [UInt8](repeating: 0, count: 16)
        let n = try buffer.withUnsafeMutableBytes { try system.receive(listener, into: $0, flags: Int32(MSG_DONTWAIT)).get() }
        #expect(Array(buffer[..<n]) == datagram)
        #expect(buffer.withUnsafeMutableBytes { system.receive(listener, into: $0, flags: Int32(MSG_DONTWAIT)) } == .failure(.wouldBlock))
        // Nobody bound at a path: the typed error the shared air takes for a listener gone.
        try #require(unlink(path) == 0)
        let gone = datagram.withUnsafeBytes { bytes in
            withUnsafeBytes(of: &address) { system.send(sender, bytes, to: $0, flags: Int32(MSG_DONTWAIT)) }
        }
        #expect(gone == .failure(.noSuchFile))
    }
}
