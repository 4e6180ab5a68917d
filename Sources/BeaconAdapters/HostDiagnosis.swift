// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconSystem
import HCITransport
#if canImport(Glibc)
import Glibc
#endif

/// What `doctor` finds out about the machine, apart from the controller: kernel Bluetooth
/// support, bluetoothd, rfkill switches and this process's capabilities.
public struct HostDiagnosis: Sendable {
    /// Whether the kernel has AF_BLUETOOTH; `nil` when the check itself failed.
    public var bluetoothSocket: Bool?
    /// The error of the adapter list, with its advice, when there is one.
    public var socketError: TransportError?
    /// Process ids of running bluetoothd processes.
    public var bluetoothd: [Int]
    public var rfkill: [RFKillSwitch]
    /// CapEff of /proc/self/status; `nil` if unreadable.
    public var effectiveCapabilities: UInt64?
    public var isRoot: Bool
    /// The running kernel's release (`uname -r`), e.g. `6.1.0-18-amd64`; nil if unknown.
    public var kernelRelease: String?

    /// One Bluetooth rfkill switch (/sys/class/rfkill/rfkillN).
    public struct RFKillSwitch: Sendable {
        public var name: String
        public var soft: Bool
        public var hard: Bool

        /// A switch as its sysfs files describe it.
        public init(name: String, soft: Bool, hard: Bool) {
            self.name = name
            self.soft = soft
            self.hard = hard
        }
    }

    /// A diagnosis from facts already known (``examine(system:)`` finds them on this machine).
    public init(bluetoothSocket: Bool?, socketError: TransportError? = nil, bluetoothd: [Int], rfkill: [RFKillSwitch],
                effectiveCapabilities: UInt64?, isRoot: Bool, kernelRelease: String? = nil) {
        self.bluetoothSocket = bluetoothSocket
        self.socketError = socketError
        self.bluetoothd = bluetoothd
        self.rfkill = rfkill
        self.effectiveCapabilities = effectiveCapabilities
        self.isRoot = isRoot
        self.kernelRelease = kernelRelease
    }

    /// Capability numbers from linux/capability.h.
    public static let capNetAdmin = 12
    public static let capNetRaw = 13

    public var hasNetRaw: Bool? { effectiveCapabilities.map { $0 & (1 << UInt64(Self.capNetRaw)) != 0 } }
    public var hasNetAdmin: Bool? { effectiveCapabilities.map { $0 & (1 << UInt64(Self.capNetAdmin)) != 0 } }

    /// The machine as it is now, every look through the system-call seam.
    public static func examine(system: some SystemCalls = LiveSystemCalls()) -> HostDiagnosis {
        var socketOK: Bool? = true
        var socketError: TransportError? = nil
        do throws(TransportError) { _ = try KernelTransport.adapters() } catch {
            socketError = error
            if case .system(let e, _) = error, e.errno == .addressFamilyNotSupported { socketOK = false } else { socketOK = nil }
        }
        return HostDiagnosis(
            bluetoothSocket: socketOK, socketError: socketError, bluetoothd: processes(named: "bluetoothd", system: system),
            rfkill: rfkillSwitches(system: system), effectiveCapabilities: effectiveCapabilities(system: system),
            isRoot: system.effectiveUserID == 0, kernelRelease: system.kernelRelease)
    }

    /// Processes whose /proc/PID/comm is `name`.
    public static func processes(named name: String, system: some SystemCalls = LiveSystemCalls()) -> [Int] {
        entries(of: "/proc", system: system).compactMap(Int.init).filter { pid in
            text(of: "/proc/\(pid)/comm", system: system) == name
        }.sorted()
    }

    /// The switches whose type is `bluetooth`.
    public static func rfkillSwitches(root: String = "/sys/class/rfkill", system: some SystemCalls = LiveSystemCalls()) -> [RFKillSwitch] {
        entries(of: root, system: system).sorted().compactMap { entry in
            let dir = "\(root)/\(entry)"
            func read(_ file: String) -> String? { text(of: "\(dir)/\(file)", system: system) }
            guard read("type") == "bluetooth" else { return nil }
            return RFKillSwitch(name: read("name") ?? entry, soft: read("soft") == "1", hard: read("hard") == "1")
        }
    }

    /// The CapEff mask of this process (hex in /proc/self/status).
    public static func effectiveCapabilities(system: some SystemCalls = LiveSystemCalls()) -> UInt64? {
        guard let status = text(of: "/proc/self/status", system: system) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("CapEff:") {
            return UInt64(line.dropFirst("CapEff:".count).filter { $0 != " " && $0 != "\t" }, radix: 16)
        }
        return nil
    }

    /// The names in the directory `path` (none when it cannot be listed).
    static func entries(of path: String, system: some SystemCalls) -> [String] {
        guard case .success(let fd) = system.open(path, flags: O_RDONLY | O_DIRECTORY | O_CLOEXEC, mode: 0, relativeTo: AT_FDCWD) else { return [] }
        defer { system.close(fd) }
        return (try? system.directoryEntries(fd).get()) ?? []
    }

    /// A small /proc or /sys file's text without the spaces and line ends around it.
    static func text(of path: String, system: some SystemCalls) -> String? {
        guard case .success(let bytes) = system.readSmallFile(path, limit: 64 << 10) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\t" }
        return String(text.drop(while: blank).reversed().drop(while: blank).reversed())
    }

    /// The command that grants `capabilities` to the installed binary (setcap needs the real
    /// file, not a symlink, hence readlink -f).
    public static func setcapCommand(_ capabilities: String) -> String {
        #"sudo setcap \#(capabilities)+ep "$(readlink -f "$(command -v beacon)")""#
    }

    /// The least privilege per backend: the management API needs CAP_NET_ADMIN only (the kernel
    /// treats a control socket without it as untrusted: read-only commands); the raw socket
    /// CAP_NET_RAW to open it (and CAP_NET_ADMIN only to bring a down adapter up); the user
    /// channel CAP_NET_ADMIN.
    public static let setcapManagement = setcapCommand("cap_net_admin")
    public static let setcapRaw = setcapCommand("cap_net_raw")
    /// Both, for every backend (the raw socket with `-i raw:hci0` and the management API).
    public static let setcapCommand = setcapCommand("cap_net_raw,cap_net_admin")
}
