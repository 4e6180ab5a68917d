// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconSystem
import BeaconCodec
import HCI
import HCITransport
#if canImport(Glibc)
import Glibc  // constants and types only (AF_UNIX, sockaddr_un, O_*); the calls go through SystemCalls
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

    /// `$BEACON_AIR`, else `$XDG_RUNTIME_DIR/beacon-air`, else `/tmp/beacon-air-<euid>`; `nil` when
    /// `BEACON_AIR=off`. Whichever is chosen gets the same checks (see ``open(system:)``).
    public static func fromEnvironment(_ environment: [String: String], effectiveUserID: uid_t = LiveSystemCalls().effectiveUserID) -> SharedAir? {
        if let given = environment[environmentVariable], !given.isEmpty {
            return given == "off" ? nil : SharedAir(directory: given)
        }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty { return SharedAir(directory: runtime + "/beacon-air") }
        return SharedAir(directory: "/tmp/beacon-air-\(effectiveUserID)")
    }

    public var description: String { directory }

    /// Creates the directory (mode 0700) if needed and opens it, checked as tmux and ssh-agent
    /// check theirs: opened with `O_NOFOLLOW` (a symbolic link is refused, never followed) and
    /// `fstat`ed through the descriptor (so what is checked is what is used): a directory, owned
    /// by the effective user, with no permission bits for the group or others. Anything else is
    /// refused with a message that says how to fix it; nothing in it is touched.
    public func open(system: any SystemCalls = LiveSystemCalls()) throws(SharedAirError) -> SharedAirDirectory {
        if case .failure(let error) = system.makeDirectory(directory, mode: 0o700), error.rawValue != EEXIST {
            throw .directory(directory, reason: "\(error)")
        }
        let fd: Int32
        switch system.open(directory, flags: O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, mode: 0, relativeTo: AT_FDCWD) {
        case .success(let opened): fd = opened
        case .failure(let error):
            if case .success(let info) = system.status(directory, relativeTo: AT_FDCWD, followingLinks: false) {
                if info.st_mode & S_IFMT == S_IFLNK {
                    let target = system.linkTarget(directory).map { " (to \($0))" } ?? ""
                    throw .unsafe(directory, problem: "it is a symbolic link\(target), which is never followed", fix: "remove it (rm \(directory))")
                }
                if info.st_mode & S_IFMT != S_IFDIR {
                    throw .unsafe(directory, problem: "it is not a directory", fix: "remove it (rm \(directory))")
                }
            }
            throw .directory(directory, reason: "\(error)")
        }
        do throws(SharedAirError) {
            let info: stat
            switch system.status(of: fd) {
            case .success(let opened): info = opened
            case .failure(let error): throw .directory(directory, reason: "\(error)")
            }
            let me = system.effectiveUserID
            guard info.st_uid == me else {
                throw .unsafe(directory, problem: "it belongs to user \(info.st_uid), not to this user (\(me))", fix: "remove it (rm -r \(directory))")
            }
            let mode = info.st_mode & 0o7777
            guard mode & 0o077 == 0 else {
                throw .unsafe(directory, problem: "its mode is \(String(mode, radix: 8)): other users could reach or rename the sockets in it", fix: "chmod 700 \(directory)")
            }
        } catch {
            system.close(fd)
            throw error
        }
        return SharedAirDirectory(path: directory, fd: fd, system: system)
    }
}

/// The shared air's directory, checked and held open by ``SharedAir/open(system:)``. The sockets
/// in it are listed and removed through that descriptor (`fstatat`/`unlinkat`), so what is
/// removed is in the directory that was checked; and only sockets of this user's are ever
/// removed, never regular files or anything else.
public final class SharedAirDirectory: Sendable {
    public let path: String
    let fd: Int32
    let system: any SystemCalls

    init(path: String, fd: Int32, system: any SystemCalls) {
        self.path = path
        self.fd = fd
        self.system = system
    }

    deinit { system.close(fd) }

    /// Whether the path still names the directory that was checked (same device and inode): a
    /// socket is bound by path, so this is asked just before binding.
    var isStillAtItsPath: Bool {
        guard case .success(let now) = system.status(path, relativeTo: AT_FDCWD, followingLinks: false),
              case .success(let checked) = system.status(of: fd) else { return false }
        return now.st_dev == checked.st_dev && now.st_ino == checked.st_ino
    }

    /// The full path of `name` in the directory.
    func path(of name: String) -> String { path + "/" + name }

    /// Whether `name` is a socket owned by this user (seen without following a link).
    func isOurSocket(_ name: String) -> Bool {
        guard case .success(let info) = system.status(name, relativeTo: fd, followingLinks: false) else { return false }
        return info.st_mode & S_IFMT == S_IFSOCK && info.st_uid == system.effectiveUserID
    }

    /// The names of this user's sockets (`*.sock`) other than `own`.
    public func peers(except own: String) -> [String] {
        guard case .success(let names) = system.directoryEntries(fd) else { return [] }
        return names.filter { $0.hasSuffix(".sock") && $0 != own && isOurSocket($0) }.sorted()
    }

    /// Removes `name` if it is one of this user's sockets (a leftover nobody listens on); leaves
    /// anything else where it is. Whether it was removed.
    @discardableResult
    public func removeSocket(_ name: String) -> Bool {
        guard isOurSocket(name) else { return false }
        return (try? system.unlink(name, relativeTo: fd).get()) != nil
    }
}

/// Why a controller could not join the shared air.
public enum SharedAirError: Error, Hashable, Sendable, CustomStringConvertible, TermedTextConvertible {
    case directory(String, reason: String)
    /// The directory is there but not safely this user's: `problem` says why, `fix` what to do.
    case unsafe(String, problem: String, fix: String)
    case socket(String, reason: String)

    /// ``termedText`` in words.
    public var description: String { termedText.description }

    /// The failure and what to do (the virtual adapter as a `FrontEndTerm`, named by the front end).
    public var termedText: TermedText {
        let advice: TermedText = "set \(SharedAir.environmentVariable)=DIR to use another directory, or \(SharedAir.environmentVariable)=off to keep \(FrontEndTerm.adapter("virtual")) to this process"
        switch self {
        case let .unsafe(path, problem, fix):
            return "virtual air: refusing the directory \(path.escapingControlCharacters): \(problem); \(fix), or set \(SharedAir.environmentVariable) to a directory of your own (mode 0700), or \(SharedAir.environmentVariable)=off to keep \(FrontEndTerm.adapter("virtual")) to this process"
        case let .directory(path, reason): return "virtual air: cannot use the directory \(path) (\(reason)); \(advice)"
        case let .socket(path, reason): return "virtual air: cannot open the socket \(path) (\(reason)); \(advice)"
        }
    }
}

/// One bound, non-blocking UNIX datagram socket.
final class AirSocket: Sendable {
    let fd: Int32
    let path: String?
    /// Where it is bound (nil: unbound), so it can be removed from there when closed.
    private let binding: (name: String, directory: SharedAirDirectory)?
    private let system: any SystemCalls

    /// The longest path `sockaddr_un` holds (with its terminating NUL).
    static let maximumPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// A socket bound as `name` in `directory` (to hear), or unbound when `binding` is nil (only
    /// to send); its calls go through `system`.
    init(binding: (name: String, directory: SharedAirDirectory)?, system: any SystemCalls) throws(SharedAirError) {
        let path = binding.map { $0.directory.path(of: $0.name) }
        let name = path ?? "(unbound)"
        if let path, path.utf8.count > Self.maximumPathLength {
            throw .socket(path, reason: "the path is longer than \(Self.maximumPathLength) bytes")
        }
        if let binding, !binding.directory.isStillAtItsPath {
            throw .socket(name, reason: "\(binding.directory.path) is no longer the directory that was checked")
        }
        let fd: Int32
        switch system.openSocket(domain: AF_UNIX, type: SocketType.datagram | SocketType.nonBlocking | SocketType.closeOnExec, protocol: 0) {
        case .success(let opened): fd = opened
        case .failure(let error): throw .socket(name, reason: "\(error)")
        }
        if let binding, let path {
            // Our own name: a leftover socket of a process that had our pid (never anything else).
            binding.directory.removeSocket(binding.name)
            if case .failure(let error) = Self.withAddress(path, { system.bind(fd, to: $0) }) {
                system.close(fd)
                throw .socket(path, reason: "\(error)")
            }
        }
        self.fd = fd
        self.path = path
        self.binding = binding
        self.system = system
    }

    deinit {
        system.close(fd)
        if let binding { binding.directory.removeSocket(binding.name) }
    }

    /// `body` given the bytes of a `sockaddr_un` naming `path`.
    static func withAddress<R>(_ path: String, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.prefix(maximumPathLength).enumerated() { raw[i] = byte }
        }
        return withUnsafeBytes(of: &address) { body($0) }
    }

    /// Sends one datagram; false when nobody listens at `path` any more (the caller removes it).
    /// A full receive queue drops the datagram, as a busy radio loses packets.
    func send(_ datagram: [UInt8], to path: String) -> Bool {
        let sent = datagram.withUnsafeBytes { bytes in
            Self.withAddress(path) { system.send(fd, bytes, to: $0, flags: Int32(MSG_DONTWAIT)) }
        }
        switch sent {
        case .success: return true
        case .failure(let error): return error != .connectionRefused && error != .noSuchFile
        }
    }

    /// Waits up to `milliseconds` for a datagram, then returns every one waiting.
    func receiveAll(waitingUpTo milliseconds: Int32, buffer: inout [UInt8]) -> [[UInt8]] {
        guard case .success(true) = system.pollReadable(fd, milliseconds: milliseconds) else { return [] }
        var out: [[UInt8]] = []
        while true {
            let received = buffer.withUnsafeMutableBytes { system.receive(fd, into: $0, flags: Int32(MSG_DONTWAIT)) }
            guard case .success(let n) = received, n > 0 else { break }
            out.append(Array(buffer[..<n]))
            if out.count >= 256 { break }  // let the sender side of the loop run too
        }
        return out
    }
}
