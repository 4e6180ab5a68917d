// SPDX-License-Identifier: GPL-2.0-or-later
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The virtual air processes of one user share on one machine: a directory holding one UNIX
/// datagram socket per scanning virtual controller (`<pid>-<n>.sock`, there only while it
/// scans). A controller that advertises sends each advertising event it puts on air to every
/// socket there but its own; a scanning controller turns what reaches its socket into
/// advertising reports. Nothing else is shared: a process that
/// goes away leaves a socket nobody listens on, which the next sender removes.
public struct SharedAir: Hashable, Sendable, CustomStringConvertible {
    /// Environment variable naming the directory; `off` keeps `-i virtual` to itself.
    public static let environmentVariable = "BEACON_AIR"

    public let directory: String

    public init(directory: String) { self.directory = directory }

    /// `$BEACON_AIR`, else `$XDG_RUNTIME_DIR/beacon-air`, else `/tmp/beacon-air-<uid>`; `nil` when
    /// `BEACON_AIR=off`.
    public static func fromEnvironment(_ environment: [String: String]) -> SharedAir? {
        if let given = environment[environmentVariable], !given.isEmpty {
            return given == "off" ? nil : SharedAir(directory: given)
        }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty { return SharedAir(directory: runtime + "/beacon-air") }
        return SharedAir(directory: "/tmp/beacon-air-\(getuid())")
    }

    public var description: String { directory }

    /// Creates the directory (mode 0700) if needed and checks that it is a directory of this user.
    func prepare() throws(SharedAirError) {
        if mkdir(directory, 0o700) != 0, errno != EEXIST {
            throw .directory(directory, reason: String(cString: strerror(errno)))
        }
        var info = stat()
        guard stat(directory, &info) == 0 else { throw .directory(directory, reason: String(cString: strerror(errno))) }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw .directory(directory, reason: "not a directory") }
        guard info.st_uid == getuid() else { throw .directory(directory, reason: "owned by another user") }
    }

    /// The sockets in the directory other than `own`.
    func peers(except own: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var out: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.hasSuffix(".sock") else { continue }
            let path = directory + "/" + name
            if path != own { out.append(path) }
        }
        return out.sorted()
    }
}

/// Why a controller could not join the shared air.
public enum SharedAirError: Error, Hashable, Sendable, CustomStringConvertible {
    case directory(String, reason: String)
    case socket(String, reason: String)

    public var description: String {
        let advice = "set \(SharedAir.environmentVariable)=DIR to use another directory, or \(SharedAir.environmentVariable)=off to keep -i virtual to this process"
        switch self {
        case let .directory(path, reason): return "virtual air: cannot use the directory \(path) (\(reason)); \(advice)"
        case let .socket(path, reason): return "virtual air: cannot open the socket \(path) (\(reason)); \(advice)"
        }
    }
}

/// One bound, non-blocking UNIX datagram socket.
final class AirSocket: Sendable {
    let fd: Int32
    let path: String?

    /// The longest path `sockaddr_un` holds (with its terminating NUL).
    static let maximumPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// A socket bound at `path` (to hear), or unbound when `path` is nil (only to send).
    init(binding path: String?) throws(SharedAirError) {
        let name = path ?? "(unbound)"
        if let path, path.utf8.count > Self.maximumPathLength {
            throw .socket(path, reason: "the path is longer than \(Self.maximumPathLength) bytes")
        }
        #if canImport(Glibc)
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
        let fd = socket(AF_UNIX, SOCK_DGRAM, 0)
        #endif
        guard fd >= 0 else { throw .socket(name, reason: String(cString: strerror(errno))) }
        if let path {
            unlink(path)  // our own name: a leftover of a process that had our pid
            let bound = Self.withAddress(path) { bind(fd, $0, $1) }
            guard bound == 0 else {
                let reason = String(cString: strerror(errno))
                close(fd)
                throw .socket(path, reason: reason)
            }
        }
        self.fd = fd
        self.path = path
    }

    deinit {
        close(fd)
        if let path { unlink(path) }
    }

    static func withAddress<R>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.prefix(maximumPathLength).enumerated() { raw[i] = byte }
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    /// Sends one datagram; false when nobody listens at `path` any more (the caller removes it).
    /// A full receive queue drops the datagram, as a busy radio loses packets.
    func send(_ datagram: [UInt8], to path: String) -> Bool {
        let sent = datagram.withUnsafeBytes { bytes in
            Self.withAddress(path) { sendto(fd, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT), $0, $1) }
        }
        return sent >= 0 || (errno != ECONNREFUSED && errno != ENOENT)
    }

    /// Waits up to `milliseconds` for a datagram, then returns every one waiting.
    func receiveAll(waitingUpTo milliseconds: Int32, buffer: inout [UInt8]) -> [[UInt8]] {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, milliseconds) > 0 else { return [] }
        var out: [[UInt8]] = []
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            guard n > 0 else { break }
            out.append(Array(buffer[..<n]))
            if out.count >= 256 { break }  // let the sender side of the loop run too
        }
        return out
    }
}
