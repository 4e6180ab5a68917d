// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconSystem

/// The kernel's HCI sockets through BlueZ: the shared raw channel (`hci0`) and the exclusive user
/// channel (`user:hci0`).
public enum KernelTransport {
    /// Opens adapter `id` on the raw channel, bringing it up first when it is down (and we may).
    /// The raw channel shares the adapter with bluetoothd; only the events beacon waits for are
    /// let through (Command Complete/Status, Hardware Error, LE Meta).
    public static func openRaw(id: UInt16, bringUp: Bool = true, system: any SystemCalls = LiveSystemCalls()) throws(TransportError) -> FileDescriptorTransport {
        let name = "hci\(id)"
        try checkExists(id: id, name: name, bringUp: bringUp)
        switch system.openHCISocket(device: id, channel: BlueZ.channelRaw, filterEvents: true) {
        case .success(let fd): return FileDescriptorTransport(fd: fd, adapterName: name, system: system)
        case .failure(let e): throw .system(e, adapter: name)
        }
    }

    /// Opens adapter `id` on the user channel: exclusive, no kernel stack in between. The adapter
    /// must be down (EBUSY otherwise); when it is up we take it down first, if allowed.
    public static func openUserChannel(id: UInt16, system: any SystemCalls = LiveSystemCalls()) throws(TransportError) -> FileDescriptorTransport {
        let name = "user:hci\(id)"
        try checkExists(id: id, name: name, bringUp: false)
        if case .success(let adapters) = BlueZ.adapters(), adapters.first(where: { $0.id == id })?.isUp == true {
            _ = BlueZ.down(id)  // if this fails, bind reports EBUSY with advice
        }
        // Right after HCIDEVDOWN the kernel may still be finishing the power-off work and answer
        // EBUSY for a moment: retry briefly before reporting the adapter as busy.
        var attempt = 0
        while true {
            switch system.openHCISocket(device: id, channel: BlueZ.channelUser, filterEvents: false) {
            case .success(let fd): return FileDescriptorTransport(fd: fd, adapterName: name, system: system)
            case .failure(let e) where e.errno == .resourceBusy && attempt < 10:
                attempt += 1
                system.sleep(for: .milliseconds(100))
            case .failure(let e): throw .system(e, adapter: name)
            }
        }
    }

    /// Opens the kernel's management API (`mgmt:hci0`): a socket on the HCI control channel,
    /// bound to no adapter (commands name the adapter in their header). It shares the adapter with
    /// bluetoothd and the kernel's own advertising; the adapter must exist, and is brought up
    /// first when it is down (and we may).
    public static func openControl(id: UInt16, bringUp: Bool = true, system: any SystemCalls = LiveSystemCalls()) throws(TransportError) -> FileDescriptorTransport {
        let name = "mgmt:hci\(id)"
        try checkExists(id: id, name: name, bringUp: bringUp)
        switch system.openHCISocket(device: BlueZ.deviceNone, channel: BlueZ.channelControl, filterEvents: false) {
        case .success(let fd): return FileDescriptorTransport(fd: fd, adapterName: name, system: system)
        case .failure(let e): throw .system(e, adapter: name)
        }
    }

    /// Every adapter the kernel has (for `beacon adapters`, `-i all`, and error messages).
    public static func adapters() throws(TransportError) -> [KernelAdapter] {
        switch BlueZ.adapters() {
        case .success(let list): return list
        case .failure(let e): throw .system(e, adapter: "Bluetooth adapters")
        }
    }

    private static func checkExists(id: UInt16, name: String, bringUp: Bool) throws(TransportError) {
        let list: [KernelAdapter]
        switch BlueZ.adapters() {
        case .success(let l): list = l
        case .failure(let e): throw .system(e, adapter: name)
        }
        guard let adapter = list.first(where: { $0.id == id }) else {
            throw .noSuchAdapter(name, existing: list.map { "hci\($0.id)" })
        }
        if bringUp, !adapter.isUp, case .failure(let e) = BlueZ.up(id) {
            throw .system(e, adapter: name)
        }
    }
}
