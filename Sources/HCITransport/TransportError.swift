// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconSystem
import HCI

/// Why a transport could not be opened or used, with advice a user can act on.
public enum TransportError: Error, Hashable, Sendable, CustomStringConvertible, TermedTextConvertible {
    /// A system call failed.
    case system(SystemCallError, adapter: String)
    /// The peer closed the connection (TCP), the device went away (UART, kernel).
    case closed(adapter: String)
    /// `-i` names nothing we know how to open.
    case invalidAdapter(String, reason: String)
    /// No such kernel adapter; lists the ones that exist.
    case noSuchAdapter(String, existing: [String])
    /// A TCP connection did not complete in time.
    case connectTimeout(adapter: String, seconds: Double)
    /// `-i` names one controller twice (`hci0,0`, `user:hci0,hci0`, one `tcp:` address twice):
    /// it would be opened twice and given beacons twice.
    case sameController(first: String, second: String, controller: String)

    /// ``termedText`` in words.
    public var description: String { termedText.description }

    /// The failure and what to do (other adapters and commands as `FrontEndTerm`s, named by the
    /// front end that presents it).
    public var termedText: TermedText {
        switch self {
        case let .system(e, adapter):
            return "\(adapter): \(e.call) failed: \(e.errno) (errno \(e.errno.rawValue)). \(Self.advice(for: e, adapter: adapter))"
        case let .closed(adapter):
            return "\(adapter): the controller closed the connection"
        case let .invalidAdapter(text, reason):
            return "invalid adapter '\(text)': \(reason). Use hci0 (or 0), user:hci0, mgmt:hci0, tcp:HOST:PORT, serial:/dev/ttyACM0[@BAUD], virtual, or a comma-separated list"
        case let .noSuchAdapter(name, existing):
            let list = existing.isEmpty ? "this machine has no Bluetooth adapters" : "adapters here: " + existing.joined(separator: ", ")
            return "\(name): no such adapter (\(list))"
        case let .sameController(first, second, controller):
            let both = first == second ? "'\(first)' twice" : "'\(first)' and '\(second)'"
            return "the same controller is named twice: \(both) both reach \(controller); name each controller once"
        case let .connectTimeout(adapter, seconds):
            return "\(adapter): no connection within \(seconds) s (is the controller listening?)"
        }
    }

    /// Plain-words guidance for the system errors users meet with Bluetooth sockets.
    static func advice(for e: SystemCallError, adapter: String) -> TermedText {
        // The management API needs only CAP_NET_ADMIN (the kernel marks a control socket
        // trusted with it); the raw socket needs CAP_NET_RAW as well.
        let managementAPI = adapter.hasPrefix("mgmt:")
        // hciconfig and friends know the kernel name (hci0), not our user:hci0 spelling.
        let adapter = adapter.hasPrefix("user:") || managementAPI ? String(adapter.dropFirst(5)) : adapter
        // Bringing an adapter up runs the driver's setup: its errors are the firmware's and the
        // address's (net/bluetooth/hci_core.c, hci_dev_open_sync; drivers/bluetooth/btrtl.c,
        // btbcm.c, btintel.c), not a device file's.
        let bringingUp = e.call.hasPrefix("ioctl(HCIDEVUP")
        switch e.errno {
        case .noSuchFile where bringingUp:
            return "The adapter's driver found no firmware for it, so the kernel leaves it down: see 'sudo dmesg | grep -i -e bluetooth -e firmware' for the file it wanted, and install the package that carries it (Debian: firmware-realtek for Realtek rtl_bt/, firmware-iwlwifi for Intel ibt-*, firmware-brcm80211 for Broadcom/Cypress .hcd; Raspberry Pi OS: bluez-firmware), then unplug and replug it or reboot."
        case .addressNotAvailable where bringingUp:
            return "The controller has no public address (a Zephyr hci_usb board, a chip whose address was never programmed), and the kernel brings such a controller up only once it has an address: start bluetoothd (it gives an LE-only controller a static random address), or set one (sudo btmgmt --index \(adapter) static-addr C0:…), or open it as \(FrontEndTerm.adapter("user:\(adapter)")), which does not need the kernel's setup."
        case .resourceBusy where bringingUp:
            return "The adapter is still being set up (its driver loading firmware, or bluetoothd powering it): wait a moment and run again; if it stays busy, see 'sudo dmesg | grep -i bluetooth'."
        case .notPermitted where managementAPI, .permissionDenied where managementAPI:
            return "The kernel's management API needs CAP_NET_ADMIN: run as root, or grant it once with: sudo setcap cap_net_admin+eip \"$(readlink -f \"$(command -v beacon)\")\" (setcap needs the file itself, not a symlink)"
        case .addressFamilyNotSupported:
            return "This kernel has no Bluetooth support (AF_BLUETOOTH is missing): load the bluetooth module (modprobe bluetooth), use a kernel built with CONFIG_BT, or use \(FrontEndTerm.adapter("tcp:HOST:PORT")) / \(FrontEndTerm.adapter("virtual"))."
        case .notPermitted, .permissionDenied:
            return "Raw HCI access needs CAP_NET_RAW and CAP_NET_ADMIN: run as root, or grant them once with: sudo setcap cap_net_raw,cap_net_admin+eip \"$(readlink -f \"$(command -v beacon)\")\" (setcap needs the file itself, not a symlink)"
        case .noSuchDevice:
            return "No such adapter: run \(FrontEndTerm.listAdapters) to see which exist."
        case .networkDown:
            return "The adapter is down: bring it up with 'sudo hciconfig \(adapter) up' or 'bluetoothctl power on'."
        case .resourceBusy:
            return "The adapter is busy: the user channel needs it down and unused by bluetoothd (sudo systemctl stop bluetooth; sudo hciconfig \(adapter) down), or another program holds it."
        case .radioKilled:
            return "The radio is blocked by rfkill: run 'rfkill unblock bluetooth'."
        case .connectionRefused:
            return "Nothing is listening there: start the controller (for example Bumble's controller) first."
        case .noSuchFile:
            return "No such device file: check the serial port path (ls /dev/ttyACM* /dev/ttyUSB*)."
        default:
            return ""
        }
    }
}
