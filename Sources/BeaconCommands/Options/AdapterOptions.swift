// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import HCITransport
import VirtualController

/// `--adapter hciN`: which Bluetooth controller a command talks about (shared by every command
/// that prints or drives HCI).
struct AdapterOptions: ParsableArguments {
    @Option(name: [.customShort("i"), .long], help: ArgumentHelp("The Bluetooth adapter, as BlueZ names it.", valueName: "hciN"))
    var adapter = "hci0"

    /// The adapter's index (`hci3` → 3).
    var index: Int? { adapter.hasPrefix("hci") ? Int(adapter.dropFirst(3)) : nil }

    func validate() throws {
        guard let index, index >= 0, index <= 0xFFFE else {
            throw ValidationError("--adapter must be an adapter name such as hci0 (got '\(adapter)')")
        }
    }
}

/// `-i ADAPTER` and `--btsnoop FILE` for the commands that drive a controller (advertise, cycle,
/// stop, doctor): which controllers, and where to record every packet exchanged with them.
struct ControllerOptions: ParsableArguments {
    @Option(
        name: [.customShort("i"), .long],
        help: ArgumentHelp(
            "The controller: hci0 (or 0: advertise and stop use the kernel management API when bluetoothd is running, the raw socket otherwise), raw:hci0 (the raw socket), user:hci0 (exclusive), mgmt:hci0 (the kernel management API), tcp:HOST:PORT, serial:/dev/ttyACM0[@BAUD][,nortscts], virtual[:sets=N,version=4.2,legacy,…], a list such as hci0,hci1, or all (default: the first kernel adapter).",
            valueName: "adapter"))
    var adapter: String?

    @Option(help: ArgumentHelp(
        "Write every HCI packet, both directions, to this btsnoop file (Wireshark opens it). It must not be one of the command's input files (or a serial controller's device), and must be a regular file (not a FIFO, device or symbolic link). If writing fails during the run (a full disk), an error names the file once, the run goes on without the capture and exits with status 1.",
        valueName: "file"))
    var btsnoop: String?

    /// The adapters `-i` names (`all` not yet expanded); `nil` when `-i` was not given.
    var specs: [AdapterSpec]? {
        guard let adapter else { return nil }
        return try? AdapterSpec.list(adapter)
    }

    /// The adapter name `hcitool -i` should use when printing commands: the kernel adapter `-i`
    /// names, or hci0 for anything else.
    var hcitoolAdapter: String {
        switch specs?.first {
        case .kernel(let id)?, .raw(let id)?: return "hci\(id)"
        default: return "hci0"
        }
    }

    func validate() throws {
        guard let adapter else { return }
        let specs: [AdapterSpec]
        do { specs = try AdapterSpec.list(adapter) } catch { throw ValidationError("-i: \(error)") }
        // Bad virtual controller options are a usage error too, caught before anything runs.
        for case .virtual(let options) in specs {
            do { _ = try VirtualController.Configuration(options: options) } catch { throw ValidationError("-i: \(error)") }
        }
    }
}

/// `-i ADAPTER` and `--btsnoop FILE` for the commands that listen on one controller (scan,
/// locate --live): ``ControllerOptions`` without lists or `all`, which they refuse.
struct ListeningControllerOptions: ParsableArguments {
    @Option(
        name: [.customShort("i"), .long],
        help: ArgumentHelp(
            "The one controller to listen on: hci0 (or 0), user:hci0, tcp:HOST:PORT, serial:/dev/ttyACM0[@BAUD][,nortscts], or virtual[:…] (the shared virtual air; default: the first kernel adapter).",
            valueName: "adapter"))
    var adapter: String?

    @Option(help: ArgumentHelp(
        "Write every HCI packet, both directions, to this btsnoop file (Wireshark opens it). It must not be one of the command's input files (or a serial controller's device), and must be a regular file (not a FIFO, device or symbolic link); a write that fails is reported once and the exit status is 1.",
        valueName: "file"))
    var btsnoop: String?

    /// The same choice as ``ControllerOptions``, for ``AdapterChoice``.
    var controller: ControllerOptions {
        var options = ControllerOptions()
        options.adapter = adapter
        options.btsnoop = btsnoop
        return options
    }

    func validate() throws {
        try controller.validate()
        if let specs = controller.specs, specs.count != 1 || specs == [.allKernel] {
            throw ValidationError("-i: one controller only (got '\(adapter ?? "")')")
        }
    }
}
