// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconSystem
#if canImport(Glibc)
import Glibc  // constants, termios and its cf* editors; the calls go through SystemCalls
#endif

/// H4 over a UART: HCI-UART dongles such as Zephyr's `hci_uart` sample on an nRF52.
public enum SerialTransport {
    /// Opens `path` in raw mode (8N1, no echo, no line discipline) at `baud`, with RTS/CTS
    /// hardware flow control when `flowControl` is set.
    public static func open(path: String, baud: Int, flowControl: Bool, system: any SystemCalls = LiveSystemCalls()) throws(TransportError) -> FileDescriptorTransport {
        let name = "serial:\(path)@\(baud)"
        guard let speed = speedConstant(baud) else {
            throw .invalidAdapter(name, reason: "unsupported baud rate \(baud) (use 9600…4000000, e.g. 115200 or 1000000)")
        }
        // O_NONBLOCK: a serial line without CLOCAL yet would wait in open(2) for carrier detect,
        // where no stop signal reaches the run; the descriptor is made blocking again below,
        // once CLOCAL is set.
        let fd: Int32
        switch system.open(path, flags: O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC, mode: 0, relativeTo: AT_FDCWD) {
        case .success(let opened): fd = opened
        case .failure(let e): throw .system(SystemCallError(call: "open(\(path))", errno: e), adapter: name)
        }
        // cfmakeraw and cfset*speed only edit the structure (library functions, no system call).
        var t: termios
        switch system.terminalAttributes(of: fd) {
        case .success(let attributes): t = attributes
        case .failure(let e):
            system.close(fd)
            throw .system(SystemCallError(call: "tcgetattr", errno: e), adapter: name)
        }
        cfmakeraw(&t)
        cfsetispeed(&t, speed)
        cfsetospeed(&t, speed)
        t.c_cflag |= tcflag_t(CLOCAL | CREAD)
        if flowControl { t.c_cflag |= tcflag_t(CRTSCTS) } else { t.c_cflag &= ~tcflag_t(CRTSCTS) }
        if case .failure(let e) = system.setTerminalAttributes(of: fd, to: t) {
            system.close(fd)
            throw .system(SystemCallError(call: "tcsetattr", errno: e), adapter: name)
        }
        _ = system.discardTerminalQueues(fd)
        let blocking = system.statusFlags(of: fd).flatMap { system.setStatusFlags(of: fd, to: $0 & ~O_NONBLOCK) }
        if case .failure(let e) = blocking {
            system.close(fd)
            throw .system(SystemCallError(call: "fcntl(F_SETFL)", errno: e), adapter: name)
        }
        return FileDescriptorTransport(fd: fd, adapterName: name, system: system)
    }

    static func speedConstant(_ baud: Int) -> speed_t? {
        switch baud {
        case 9600: return speed_t(B9600)
        case 19200: return speed_t(B19200)
        case 38400: return speed_t(B38400)
        case 57600: return speed_t(B57600)
        case 115200: return speed_t(B115200)
        case 230400: return speed_t(B230400)
        case 460800: return speed_t(B460800)
        case 921600: return speed_t(B921600)
        case 1000000: return speed_t(B1000000)
        case 2000000: return speed_t(B2000000)
        case 3000000: return speed_t(B3000000)
        case 4000000: return speed_t(B4000000)
        default: return nil
        }
    }
}
