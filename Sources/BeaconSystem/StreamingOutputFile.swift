// SPDX-License-Identifier: GPL-2.0-or-later
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// An output appended to while a run goes on (`--air-log`, `--btsnoop`): a regular file, opened
/// by its own name (`O_NOFOLLOW`, never through a symbolic link), created if missing (mode
/// 0666 less the umask, like a shell's `>`) or truncated (keeping its mode and owner: it is the
/// same file). It is written in place rather than replaced at the end, so a run that is killed
/// still leaves everything up to then.
///
/// Opening never blocks and never touches what it refuses: a FIFO, device, socket or directory
/// is refused before it is opened (and again after, by `fstat`, in case it changed in between);
/// so is one of the command's inputs. Writes go to a regular file, so they never wait for a
/// reader. The first write that fails (a full disk, an I/O error, a file size limit) is reported
/// once through `onFailure` and the file is written no more; the run decides what that means.
public final class StreamingOutputFile: Sendable {
    public let path: String
    private let system: any SystemCalls
    private let onFailure: @Sendable (OutputFileError) -> Void
    private struct State {
        var fd: Int32
        var failure: OutputFileError?
    }
    private let state: Mutex<State>

    /// Opens `path` as described above; `inputs` are files the command reads, which must not be
    /// overwritten (compared by device and inode after opening, before truncating).
    public init(path: String, inputs: [String] = [], system: any SystemCalls = LiveSystemCalls(),
                onFailure: @escaping @Sendable (OutputFileError) -> Void = { _ in }) throws(OutputFileError) {
        let target = try OutputTarget(path, system: system)
        let fd: Int32
        switch system.open(target.name, flags: O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, mode: 0o666, relativeTo: target.folder) {
        case .success(let opened): fd = opened
        case .failure(let error):
            // Something appeared at the path after the check: say what it is.
            if case .failure(let why) = OutputTarget.kind(target.name, in: target.folder, path: path, system: system) { throw why }
            throw .cannotOpen(path: path, errno: error)
        }
        do throws(OutputFileError) {
            let info: stat
            switch system.status(of: fd) {
            case .success(let opened): info = opened
            case .failure(let error): throw .cannotOpen(path: path, errno: error)
            }
            if let kind = OutputTarget.unsupportedKind(info.st_mode) { throw .notARegularFile(path: path, kind: kind) }
            try OutputTarget.checkNotAnInput(info, path: path, inputs: inputs, system: system)
            if case .failure(let error) = system.truncate(fd, to: 0) { throw .cannotOpen(path: path, errno: error) }
        } catch {
            system.close(fd)
            throw error
        }
        self.path = path
        self.system = system
        self.onFailure = onFailure
        state = Mutex(State(fd: fd))
    }

    deinit { state.withLock { system.close($0.fd) } }

    /// The first write failure, if any (then nothing more was written).
    public var failure: OutputFileError? { state.withLock { $0.failure } }

    /// Appends `bytes` whole; after a failure, nothing (the failure was reported once).
    public func write(_ bytes: [UInt8]) {
        let failure: OutputFileError? = state.withLock { state in
            guard state.failure == nil, !bytes.isEmpty else { return nil }
            guard let error = bytes.withUnsafeBytes({ system.writeAll(state.fd, from: $0) }) else { return nil }
            state.failure = .writeFailed(path: path, errno: error)
            return state.failure
        }
        if let failure { onFailure(failure) }
    }
}
