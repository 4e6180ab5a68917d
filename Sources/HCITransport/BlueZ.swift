// SPDX-License-Identifier: GPL-2.0-or-later
// The only file that sees BlueZ's C types. Everything it returns is a Swift value.
import CBlueZ
import BeaconCodec
import BeaconSystem
#if canImport(Glibc)
import Glibc
#endif

/// A Bluetooth adapter the kernel knows, from HCIGETDEVLIST/HCIGETDEVINFO.
public struct KernelAdapter: Hashable, Sendable {
    public var id: UInt16
    public var name: String
    public var address: BluetoothAddress
    public var isUp: Bool
    public var isRunning: Bool
}

extension SystemCalls {
    /// A kernel raw HCI socket bound to `device` on `channel` (0 raw, 1 user, 3 control), through
    /// the seam's socket calls; with `filterEvents`, only the events beacon waits for are let
    /// through (Command Complete/Status, Hardware Error, LE Meta).
    public func openHCISocket(device: UInt16, channel: UInt16, filterEvents: Bool) -> Result<Int32, SystemCallError> {
        let fd: Int32
        switch openSocket(domain: AF_BLUETOOTH, type: BlueZ.socketType, protocol: BTPROTO_HCI) {
        case .success(let opened): fd = opened
        case .failure(let e): return .failure(SystemCallError(call: "socket(AF_BLUETOOTH)", errno: e))
        }
        if filterEvents {
            var filter = hci_filter()
            beacon_hci_event_filter(&filter)
            if case .failure(let e) = withUnsafeBytes(of: &filter, { setOption(fd, level: SOL_HCI, name: HCI_FILTER, value: $0) }) {
                close(fd)
                return .failure(SystemCallError(call: "setsockopt(HCI_FILTER)", errno: e))
            }
        }
        var address = sockaddr_hci()
        address.hci_family = sa_family_t(AF_BLUETOOTH)
        address.hci_dev = device
        address.hci_channel = channel
        if case .failure(let e) = withUnsafeBytes(of: &address, { bind(fd, to: $0) }) {
            close(fd)
            return .failure(SystemCallError(call: BlueZ.bindCallName(device: device, channel: channel), errno: e))
        }
        return .success(fd)
    }
}

/// Wrappers over libbluetooth and the kernel's HCI socket ioctls.
enum BlueZ {
    static let channelRaw: UInt16 = 0
    static let channelUser: UInt16 = 1
    /// HCI_CHANNEL_CONTROL: the kernel's management API, bound to no adapter (HCI_DEV_NONE).
    static let channelControl: UInt16 = 3
    static let deviceNone: UInt16 = 0xFFFF

    static func bindCallName(device: UInt16, channel: UInt16) -> String {
        switch channel {
        case channelUser: "bind(HCI_CHANNEL_USER)"
        case channelControl: "bind(HCI_CHANNEL_CONTROL)"
        default: "bind(hci\(device))"
        }
    }

    /// Runs `body` with an unbound control socket for the adapter ioctls (which stay in the C
    /// shim: Swift cannot import their _IOR/_IOW request numbers).
    static func withControlSocket<T>(_ body: (Int32) -> Result<T, SystemCallError>) -> Result<T, SystemCallError> {
        let system = LiveSystemCalls()
        let fd: Int32
        switch system.openSocket(domain: AF_BLUETOOTH, type: socketType, protocol: BTPROTO_HCI) {
        case .success(let opened): fd = opened
        case .failure(let e): return .failure(SystemCallError(call: "socket(AF_BLUETOOTH)", errno: e))
        }
        defer { system.close(fd) }
        return body(fd)
    }

    /// A raw HCI socket, close-on-exec.
    static let socketType = SocketType.raw | SocketType.closeOnExec

    /// Every adapter the kernel has.
    static func adapters() -> Result<[KernelAdapter], SystemCallError> {
        withControlSocket { fd in
            var ids = [UInt16](repeating: 0, count: 16)
            let n = ids.withUnsafeMutableBufferPointer { beacon_hci_device_list(fd, $0.baseAddress, Int32($0.count)) }
            guard n >= 0 else { return .failure(SystemCallError(call: "ioctl(HCIGETDEVLIST)", errno: .current)) }
            var out: [KernelAdapter] = []
            for id in ids.prefix(Int(n)) {
                switch info(fd: fd, id: id) {
                case .success(let a): out.append(a)
                case .failure(let e): return .failure(e)
                }
            }
            return .success(out)
        }
    }

    static func info(fd: Int32, id: UInt16) -> Result<KernelAdapter, SystemCallError> {
        var di = beacon_device_info()
        guard beacon_hci_device_info(fd, id, &di) == 0 else {
            return .failure(SystemCallError(call: "ioctl(HCIGETDEVINFO hci\(id))", errno: .current))
        }
        let name = withUnsafeBytes(of: di.name) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        let address = withUnsafeBytes(of: di.address) { BluetoothAddress(littleEndianBytes: $0) }
        return .success(KernelAdapter(id: di.id, name: name, address: address, isUp: di.up != 0, isRunning: di.running != 0))
    }

    /// Brings an adapter up; already up is success.
    static func up(_ id: UInt16) -> Result<Void, SystemCallError> {
        withControlSocket { fd in
            if beacon_hci_device_up(fd, id) == 0 || errno == EALREADY { return .success(()) }
            return .failure(SystemCallError(call: "ioctl(HCIDEVUP hci\(id))", errno: .current))
        }
    }

    /// Takes an adapter down (the user channel needs it down).
    static func down(_ id: UInt16) -> Result<Void, SystemCallError> {
        withControlSocket { fd in
            if beacon_hci_device_down(fd, id) == 0 { return .success(()) }
            return .failure(SystemCallError(call: "ioctl(HCIDEVDOWN hci\(id))", errno: .current))
        }
    }
}
