// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconSystem
import Testing
import Foundation
import HCI
import HCITransport
#if canImport(Glibc)
import Glibc
#endif

/// The UART transport against a pseudo-terminal: the kernel's tty layer with real termios, the
/// other end played by a scripted controller (a dongle's firmware, in life).
@Suite struct SerialTransportTests {
    /// A pty pair: `path` is the device beacon opens; `master` is the controller's end.
    struct PTY {
        let master: Int32
        let path: String
        init() throws {
            // posix_openpt/grantpt/unlockpt/ptsname by hand (Glibc's module hides them): open the
            // multiplexer, unlock the slave (TIOCSPTLCK) and ask its number (TIOCGPTN).
            let m = open("/dev/ptmx", O_RDWR | O_NOCTTY)
            guard m >= 0 else { throw Errno(rawValue: errno) }
            var unlock: Int32 = 0
            var number: UInt32 = 0
            guard ioctl(m, 0x4004_5431, &unlock) == 0, ioctl(m, 0x8004_5430, &number) == 0 else {
                let e = errno
                close(m)
                throw Errno(rawValue: e)
            }
            master = m
            path = "/dev/pts/\(number)"
        }
    }

    @Test func commandAndReplyCrossARealTTY() async throws {
        let pty = try PTY()
        defer { close(pty.master) }
        let master = pty.master
        // The controller: answer every command with Command Complete, in two writes, to exercise
        // reassembly across reads.
        Thread {
            var decoder = H4StreamDecoder()
            var buffer = [UInt8](repeating: 0, count: 256)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
                guard n > 0, let packets = try? decoder.feed(buffer.prefix(n)) else { return }
                for p in packets {
                    guard let c = try? p.commandPacket() else { continue }
                    let reply = commandComplete(c.opcode)
                    _ = reply.prefix(3).withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
                    usleep(20_000)
                    _ = reply.dropFirst(3).withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
                }
            }
        }.start()
        let transport = try SerialTransport.open(path: pty.path, baud: 115_200, flowControl: false)
        #expect(transport.adapterName == "serial:\(pty.path)@115200")
        // Opened without waiting for carrier (O_NONBLOCK), then blocking again with CLOCAL set,
        // as the transport's reads expect.
        #expect(fcntl(transport.fd, F_GETFL) & O_NONBLOCK == 0)
        var settings = termios()
        #expect(tcgetattr(transport.fd, &settings) == 0 && settings.c_cflag & tcflag_t(CLOCAL) != 0)
        let hci = HCIController(transport: transport)
        try await hci.send(HCIReset())
        try await hci.send(LESetAdvertisingEnable(false))
        hci.close()
    }

    @Test func rawModeKeepsEveryByte() throws {
        // Bytes a cooked tty would eat or translate (XON/XOFF, CR, NL, Ctrl-C, Ctrl-D) go through.
        let pty = try PTY()
        defer { close(pty.master) }
        let transport = try SerialTransport.open(path: pty.path, baud: 1_000_000, flowControl: true)
        let tricky: [UInt8] = [0x04, 0x0E, 0x0D, 0x0A, 0x11, 0x13, 0x03, 0x04, 0x7F, 0x00]
        _ = tricky.withUnsafeBytes { write(pty.master, $0.baseAddress, $0.count) }
        var got: [UInt8] = []
        while got.count < tricky.count, let chunk = try transport.receive(timeout: .seconds(1)) { got += chunk }
        #expect(got == tricky)
        transport.close()
    }

    @Test func missingDeviceAndBadBaudAreExplained() {
        let missing = #expect(throws: TransportError.self) { _ = try SerialTransport.open(path: "/dev/ttyNOPE9", baud: 115_200, flowControl: false) }
        #expect(missing?.description.contains("No such device file") == true)
        let baud = #expect(throws: TransportError.self) { _ = try SerialTransport.open(path: "/dev/null", baud: 12_345, flowControl: false) }
        #expect(baud?.description.contains("unsupported baud rate 12345") == true)
    }
}
