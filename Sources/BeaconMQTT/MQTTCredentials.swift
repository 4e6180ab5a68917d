// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconSystem
#if canImport(Glibc)
import Glibc
#endif

/// A user name and password for the broker. They come from a file only its owner can read, or
/// from the environment — never from a command line, where `ps` shows them to every user.
public struct MQTTCredentials: Sendable, Hashable {
    /// The user name.
    public var username: String
    /// The password.
    public var password: String

    /// Credentials from values already in hand.
    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }

    /// The most a credentials file may hold: it is two short lines, so anything larger is
    /// the wrong file, and reading stops there.
    static let maximumFileSize = 4096

    /// Reads `path`: the user name on the first line, the password on the second (a final
    /// newline is optional; lines may end in CRLF). The file must be a regular file owned by
    /// this process's user that neither its group nor others can read or write (mode 0600 or
    /// 0400), checked on the opened file itself (`fstat`), so a
    /// rename between the check and the read cannot swap it.
    /// - Throws: ``MQTTError/credentials(path:line:reason:)`` naming the file, the line and what is wrong.
    public static func load(fromFile path: String) throws(MQTTError) -> MQTTCredentials {
        let system = LiveSystemCalls()
        // O_NONBLOCK: a FIFO put in its place must not hang the open; it is refused below.
        let fd: Int32
        switch system.open(path, flags: O_RDONLY | O_CLOEXEC | O_NONBLOCK, mode: 0, relativeTo: AT_FDCWD) {
        case .success(let opened): fd = opened
        case .failure(let error): throw .credentials(path: path, line: nil, reason: "cannot open it: \(error)")
        }
        defer { system.close(fd) }
        let status: stat
        switch system.status(of: fd) {
        case .success(let info): status = info
        case .failure(let error): throw .credentials(path: path, line: nil, reason: "cannot stat it: \(error)")
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw .credentials(path: path, line: nil, reason: "it is not a regular file")
        }
        // Its owner must be whoever reads it, as ssh asks of a key: a file another user owns
        // (and so may rewrite) is not this user's secret, even at mode 0600 read as root.
        guard status.st_uid == system.effectiveUserID else {
            throw .credentials(path: path, line: nil,
                               reason: "it is owned by user \(status.st_uid), not by this user (\(system.effectiveUserID)); run chown \(system.effectiveUserID) \(path)")
        }
        let mode = status.st_mode & 0o7777
        guard mode & 0o077 == 0 else {
            let octal = String(mode, radix: 8)
            throw .credentials(path: path, line: nil,
                               reason: "its mode \(String(repeating: "0", count: max(0, 4 - octal.count)) + octal) lets group or others read or change the password; run chmod 600 \(path)")
        }
        guard Int(status.st_size) <= maximumFileSize else {
            throw .credentials(path: path, line: nil, reason: "it holds \(status.st_size) bytes; a credentials file is two lines of at most \(maximumFileSize) bytes")
        }
        let bytes: [UInt8]
        switch system.readAll(fd, limit: maximumFileSize) {
        case .success(let read): bytes = read
        case .failure(let error): throw .credentials(path: path, line: nil, reason: "cannot read it: \(error)")
        }
        let count = bytes.count
        guard count <= maximumFileSize else {
            throw .credentials(path: path, line: nil, reason: "it grew past \(maximumFileSize) bytes while being read")
        }
        return try parse(String(decoding: bytes, as: UTF8.self), path: path)
    }

    /// The two lines of a credentials file → credentials.
    static func parse(_ text: String, path: String) throws(MQTTError) -> MQTTCredentials {
        // "\r\n" is one Character in Swift: split on it too (a file saved on Windows).
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map { line in
            line.hasSuffix("\r") ? String(line.dropLast()) : String(line)
        }
        if lines.last == "" { lines.removeLast() }
        guard lines.count >= 1, !lines[0].isEmpty else {
            throw .credentials(path: path, line: 1, reason: "the user name is missing (line 1: user name, line 2: password)")
        }
        guard lines.count >= 2 else {
            throw .credentials(path: path, line: 2, reason: "the password is missing (line 1: user name, line 2: password)")
        }
        guard lines.count == 2 else {
            throw .credentials(path: path, line: 3, reason: "only two lines are allowed (line 1: user name, line 2: password)")
        }
        return MQTTCredentials(username: lines[0], password: lines[1])
    }

    /// The environment variable holding the user name, unless told otherwise.
    public static let usernameVariable = "BEACON_MQTT_USERNAME"
    /// The environment variable holding the password, unless told otherwise.
    public static let passwordVariable = "BEACON_MQTT_PASSWORD"

    /// Credentials from `environment` (pass `ProcessInfo.processInfo.environment`), or nil when
    /// neither variable is set.
    /// - Throws: ``MQTTError/invalidConfiguration(field:reason:)`` when only one of the two is set.
    public static func load(fromEnvironment environment: [String: String],
                            usernameVariable: String = usernameVariable,
                            passwordVariable: String = passwordVariable) throws(MQTTError) -> MQTTCredentials? {
        let username = environment[usernameVariable].flatMap { $0.isEmpty ? nil : $0 }
        let password = environment[passwordVariable]
        switch (username, password) {
        case (nil, nil): return nil
        case (let username?, let password?): return MQTTCredentials(username: username, password: password)
        case (nil, _): throw .invalidConfiguration(field: usernameVariable, reason: "is not set (or empty) although \(passwordVariable) is")
        case (_, nil): throw .invalidConfiguration(field: passwordVariable, reason: "is not set although \(usernameVariable) is")
        }
    }
}
