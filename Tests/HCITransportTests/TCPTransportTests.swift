// SPDX-License-Identifier: GPL-2.0-or-later
import Testing
import Foundation
import HCITransport
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The TCP transport against listeners on loopback: real sockets, no mocks.
@Suite struct TCPTransportTests {
    @Test func connectionRefusedSaysNothingIsListening() throws {
        // A port held bound but never listening: refused for certain. A listener closed again
        // would free its port for any other process (or a connect to itself) before the test.
        let held = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(held >= 0)
        defer { close(held) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(held, $0, length) == 0 && getsockname(held, $0, &length) == 0 }
        }
        try #require(bound)
        let port = UInt16(bigEndian: address.sin_port)
        let error = #expect(throws: TransportError.self) {
            _ = try TCPTransport.connect(host: "127.0.0.1", port: port)
        }
        #expect(error?.description.contains("Nothing is listening") == true)
    }

    @Test func silentPeerTimesOutWithoutHanging() throws {
        let listener = try LoopbackListener()
        let transport = try TCPTransport.connect(host: "127.0.0.1", port: listener.port)
        let peer = listener.accept()
        defer { close(peer) }
        let start = ContinuousClock.now
        #expect(try transport.receive(timeout: .milliseconds(300)) == nil)
        #expect(ContinuousClock.now - start < .seconds(10)) // a hang detector, not a speed test (speeds are in BENCHMARKS.md)
    }

    @Test func bytesArriveAndPeerCloseIsAnError() throws {
        let listener = try LoopbackListener()
        let transport = try TCPTransport.connect(host: "127.0.0.1", port: listener.port)
        let peer = listener.accept()
        let bytes: [UInt8] = [0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]
        _ = bytes.withUnsafeBytes { write(peer, $0.baseAddress, $0.count) }
        var got: [UInt8] = []
        while got.count < bytes.count, let chunk = try transport.receive(timeout: .seconds(2)) { got += chunk }
        #expect(got == bytes)
        try transport.send([0x01, 0x03, 0x0C, 0x00])
        var sent = [UInt8](repeating: 0, count: 4)
        #expect(sent.withUnsafeMutableBytes { read(peer, $0.baseAddress, 4) } == 4)
        #expect(sent == [0x01, 0x03, 0x0C, 0x00])
        close(peer)
        #expect(throws: TransportError.closed(adapter: "tcp:127.0.0.1:\(listener.port)")) {
            _ = try transport.receive(timeout: .seconds(2))
        }
    }

    @Test func closeFromAnotherThreadEndsAReceive() async throws {
        let listener = try LoopbackListener()
        let transport = try TCPTransport.connect(host: "127.0.0.1", port: listener.port)
        let peer = listener.accept()
        defer { close(peer) }
        // A plain thread, not a task: the receive below blocks this test's cooperative thread, and
        // with every other suite running in parallel a task could wait for a free one.
        Thread { usleep(100_000); transport.close() }.start()
        let start = ContinuousClock.now
        #expect(throws: TransportError.self) { _ = try transport.receive(timeout: .seconds(60)) }
        // Well before the receive's own timeout: the close ended it, however busy the machine.
        #expect(ContinuousClock.now - start < .seconds(30))
    }

    /// close() must not free the descriptor's number while a reader thread may still be in its
    /// last poll or read on it: the next socket the process opens would get that number and the
    /// old reader would steal its bytes (seen as a lost reply, once in hundreds of connections
    /// on a loaded machine). The number is released only when the transport goes away.
    @Test func closeKeepsTheDescriptorUntilTheTransportIsGone() throws {
        let listener = try LoopbackListener()
        var transport: FileDescriptorTransport? = try TCPTransport.connect(host: "127.0.0.1", port: listener.port)
        let peer = listener.accept()
        defer { close(peer) }
        let fd = transport!.fd
        transport!.close()
        #expect(fcntl(fd, F_GETFD) != -1, "still allocated after close()")
        #expect(throws: TransportError.closed(adapter: transport!.adapterName)) { _ = try transport!.receive(timeout: .seconds(1)) }
        // The peer sees the shutdown at once: its read ends.
        var byte: UInt8 = 0
        #expect(read(peer, &byte, 1) == 0)
        transport = nil
        #expect(fcntl(fd, F_GETFD) == -1 && errno == EBADF, "released with the transport")
    }
}
