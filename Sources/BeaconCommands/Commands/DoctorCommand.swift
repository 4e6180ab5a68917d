// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import BeaconAdapters
import BeaconJSON
import HCI
import KnownControllers
import HCITransport

/// `beacon doctor`: what the controller can do and what on this machine stands in the way.
struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check an adapter and this machine for advertising.",
        discussion: """
            The adapter (probed without a reset): address, HCI and LMP versions, manufacturer, \
            extended advertising (from LE feature bit 12), the number of advertising sets, the \
            maximum advertising data length and the TX power range. The host: kernel Bluetooth \
            support (AF_BLUETOOTH), bluetoothd, rfkill, and this process's CAP_NET_RAW and \
            CAP_NET_ADMIN, the kernel release. For a kernel adapter (-i hci0): the management API \
            too (its version, the advertising instances and flags) and which backend advertise \
            would use and why (the management API when bluetoothd is running, the raw socket \
            otherwise). Then advice in words, with the exact setcap line for the least \
            privilege. Exit status 1 when the adapter cannot be used.

            A controller the catalogue of real controllers knows (from its manufacturer, version \
            and LMP subversion) is named, with its known limits and how beacon copes with them; \
            --known-controllers lists the catalogue (docs/CONTROLLERS.md) without examining an \
            adapter, and -i virtual:model=NAME imitates one of its models.

            Examples:
              beacon doctor -i hci0 --json
              beacon doctor -i virtual:model=csr8510-clone
              beacon doctor --known-controllers
            """
    )

    @OptionGroup var controller: ControllerOptions

    @Flag(help: "Print the report as one JSON object.")
    var json = false

    @Flag(help: "List the real controllers beacon knows (their reports and limits, each from a public source) instead of examining an adapter; with --json, the catalogue the Bumble harness reads.")
    var knownControllers = false

    mutating func validate() throws {
        if knownControllers, controller.adapter != nil {
            throw ValidationError("--known-controllers examines no adapter: leave out -i \(controller.adapter!)")
        }
    }

    mutating func run() async throws {
        if knownControllers {
            if json {
                LineOutput.out(ControllerModelText.catalogueJSON(ControllerModel.catalogue))
            } else {
                for line in ControllerModelText.table(ControllerModel.catalogue) { LineOutput.out(line) }
            }
            return
        }
        var reports: [AdapterExamination] = []
        let host = HostDiagnosis.examine()
        switch AdapterChoice.resolve(controller) {
        case .failure(let unavailable):
            reports.append(AdapterExamination(name: controller.adapter ?? "(the first kernel adapter)", error: .notChosen(unavailable.error, advice: unavailable.advice), isKernelRaw: false))
        case .success(let specs):
            let snoop = try AdapterChoice.snoop(controller).get()
            for spec in specs {
                reports.append(await AdapterExamination.examine(spec, host: host, commandTimeout: AdapterChoice.commandTimeout, btsnoop: snoop))
            }
        }
        let advice = HostAdvice.advice(reports, host).map(Self.text)
        if json {
            LineOutput.out(Self.json(reports, host, advice).text)
        } else {
            for line in Self.text(reports, host, advice) { LineOutput.out(line) }
        }
        if reports.contains(where: { $0.error != nil }) { throw ExitStatus.runtimeFailure }
    }

    static func versionText(_ v: HCIVersion?) -> String {
        guard let v else { return "unknown" }
        return v.description
    }

    static func adapterLines(_ r: AdapterExamination) -> [(String, String)] {
        guard let caps = r.capabilities else { return [("transport", r.transport), ("error", r.error.map(CommandLineTerms.text(describing:)) ?? "unknown")] }
        if let api = caps.managementAPI { return managementLines(r, api) }
        var rows: [(String, String)] = [
            ("transport", r.transport),
            ("address", caps.address.map { "\($0) (public)" } ?? "unknown"),
            ("HCI version", versionText(caps.hciVersion)),
            ("LMP version", versionText(caps.lmpVersion)),
            ("manufacturer", caps.manufacturer.map(CompanyNames.describe) ?? "unknown"),
            ("LMP subversion", caps.lmpSubversion.map(ControllerModelText.hex) ?? "unknown"),
            ("model", caps.model.map { "\($0.title) (\($0.id) in the catalogue)" } ?? "not in the catalogue (beacon doctor --known-controllers)"),
        ]
        if let model = caps.model {
            rows += ControllerModelText.limits(model).map { ("known limit", $0) }
        }
        rows.append(("extended advertising", extendedText(caps)))
        if caps.hasExtendedAdvertising {
            rows.append(("advertising sets", String(caps.advertisingSets)))
            rows.append(("max advertising data", "\(caps.maximumDataLength) bytes"))
            rows.append(("TX power range", caps.txPowerRange.map { "\($0.lowerBound) to \($0.upperBound) dBm" } ?? "not reported"))
        } else {
            rows.append(("advertising sets", "none: one legacy advertiser (beacons take turns)"))
            rows.append(("max advertising data", "31 bytes (legacy)"))
            rows.append(("TX power", r.legacyTxPower.map { "\($0) dBm (fixed, legacy advertising channel)" } ?? "not reported"))
        }
        if let api = r.management {
            rows += managementRows(api).map { ("mgmt: " + $0.0, $0.1) }
        } else if let e = r.managementError {
            rows.append(("management API", "unavailable: \(CommandLineTerms.text(describing: e))"))
        }
        if let backend = r.backend, let why = backend.reason {
            rows.append(("advertise uses", CommandLineTerms.text(why)))
        }
        return rows
    }

    /// A `mgmt:` adapter as the kernel's management API describes it (no HCI read-outs there).
    static func managementLines(_ r: AdapterExamination, _ api: ManagementAPIInfo) -> [(String, String)] {
        [("transport", r.transport), ("Bluetooth version", versionText(r.capabilities?.hciVersion))] + managementRows(api)
    }

    /// The management API's version, commands, instances and flags.
    static func managementRows(_ api: ManagementAPIInfo) -> [(String, String)] {
        let taken = api.takenInstances.isEmpty ? "" : " (other programs hold \(api.takenInstances.map(String.init).joined(separator: ", ")))"
        return [
            ("management API", api.version),
            ("advertising commands", api.extendedCommands
                ? "Add Extended Advertising Parameters/Data (each beacon's interval and TX power)"
                : "Add Advertising only (management API before 1.19): the kernel's 1.28 s interval"),
            ("instances", "\(api.freeInstances.count) free of \(api.maxInstances)\(taken)" + usableText(api)),
            ("supported flags", api.supportedFlags.names.joined(separator: " ")),
        ]
    }

    /// Feature bit 12, and whether the controller accepts the extended commands right now.
    static func extendedText(_ caps: ControllerCapabilities) -> String {
        guard caps.leFeatures.contains(.leExtendedAdvertising) else { return "no (from LE feature bit 12)" }
        if caps.hasExtendedAdvertising { return "yes (from LE feature bit 12)" }
        return "yes (from LE feature bit 12), but refused until the next reset: legacy advertising commands were used since the last one"
    }

    static func hostLines(_ h: HostDiagnosis) -> [(String, String)] {
        let socket: String = switch h.bluetoothSocket {
        case true?: "yes"
        case false?: "no: this kernel has no Bluetooth support"
        case nil: "unknown (\(h.socketError.map(CommandLineTerms.text(describing:)) ?? "the check failed"))"
        }
        let daemon = h.bluetoothd.isEmpty ? "not running" : "running (pid \(h.bluetoothd.map(String.init).joined(separator: ", ")))"
        let rfkill = h.rfkill.isEmpty ? "no Bluetooth rfkill switch"
            : h.rfkill.map { "\($0.name): " + ($0.hard ? "hard blocked" : $0.soft ? "soft blocked" : "not blocked") }.joined(separator: "; ")
        func yes(_ b: Bool?) -> String { b.map { $0 ? "yes" : "no" } ?? "unknown" }
        let caps = "CAP_NET_RAW \(yes(h.hasNetRaw)), CAP_NET_ADMIN \(yes(h.hasNetAdmin))" + (h.isRoot ? " (root)" : "")
        return [("kernel", h.kernelRelease ?? "unknown"), ("AF_BLUETOOTH", socket), ("bluetoothd", daemon), ("rfkill", rfkill), ("capabilities", caps)]
    }

    /// One piece of advice in words, naming this tool's commands and options.
    static func text(_ advice: HostAdvice) -> String {
        switch advice {
        case .noKernelBluetooth(let error):
            "This kernel has no Bluetooth support, so no kernel adapter (hci0, user:hci0) can work here. \(CommandLineTerms.text(error))"
        case .unusable(let adapter, let error):
            "\(adapter) could not be used: \(CommandLineTerms.text(error))"
        case .everyInstanceTaken(let adapter, let maxInstances):
            "\(adapter): every advertising instance (\(maxInstances)) is taken by other programs, so beacon has none; remove some (btmgmt rm-adv N) or use another adapter."
        case .lockedToLegacy(let adapter):
            "\(adapter) is locked to legacy advertising until it is reset (Core Vol 4 Part E §3.1.1): reset it (beacon stop --reset -i \(adapter), or sudo hciconfig hciN reset) to use its advertising sets."
        case .noExtendedAdvertising(let adapter):
            "\(adapter) has no extended advertising: one beacon is on air at a time, and several take turns (see beacon advertise --plan)."
        case .rawSocketNextToBluetoothd(let adapter, let id):
            "\(adapter): the raw socket next to a running bluetoothd: the kernel can switch beacon's advertising off (a power cycle, its own pauses), and beacon's watchdog restores it within a second; plain -i hci\(id) would use the management API instead."
        case .managementAPIUnavailable(let adapter, let error):
            "\(adapter): beacon advertise would use the management API (bluetoothd is running), but it is unavailable: \(CommandLineTerms.text(error))"
        case .managementAPINextToBluetoothd(let adapter):
            "\(adapter): beacon advertise uses the kernel's management API next to bluetoothd: its beacons are kernel instances that bluetoothd and other programs' advertising leave alone, and a watchdog re-adds them if bluetoothd restarts. -i raw:\(adapter) forces the raw socket instead (bluetoothd and the kernel can then switch its advertising off; the watchdog restores it within a second)."
        case .privilege(let privilege):
            privilegeText(privilege)
        case .hardBlocked:
            "A Bluetooth radio is hard blocked: a hardware switch or a firmware setting turns it off; rfkill cannot unblock it."
        case .softBlocked:
            "A Bluetooth radio is soft blocked: run 'rfkill unblock bluetooth'."
        case .nothingToFix:
            "Nothing to fix: beacon can advertise here."
        }
    }

    /// The least privilege for the backend advertise would use, as one exact setcap line.
    static func privilegeText(_ privilege: HostAdvice.Privilege) -> String {
        let have = privilege.hasCapability ? "this process has it" : "this process lacks it"
        if privilege.usesManagementAPI {
            return "The management API needs CAP_NET_ADMIN only (\(have)); rather than run beacon as root, grant it once with: \(HostDiagnosis.setcapManagement). The raw socket (-i raw:hci0, or hci0 without bluetoothd) needs CAP_NET_RAW: \(HostDiagnosis.setcapRaw); both at once: \(HostDiagnosis.setcapCommand)"
        }
        return "The raw HCI socket needs CAP_NET_RAW (\(have); CAP_NET_ADMIN too only to bring a down adapter up); rather than run beacon as root, grant it once with: \(HostDiagnosis.setcapRaw). With bluetoothd running beacon uses the management API, which needs CAP_NET_ADMIN: \(HostDiagnosis.setcapManagement); both at once: \(HostDiagnosis.setcapCommand)"
    }

    static func text(_ reports: [AdapterExamination], _ h: HostDiagnosis, _ advice: [String]) -> [String] {
        func block(_ title: String, _ rows: [(String, String)]) -> [String] {
            let width = rows.map(\.0.count).max() ?? 0
            return [title] + rows.map { "  " + $0.0 + String(repeating: " ", count: width - $0.0.count + 2) + $0.1 }
        }
        var lines: [String] = []
        for r in reports { lines += block("adapter \(r.name)", adapterLines(r)) }
        lines += block("host", hostLines(h))
        lines.append("advice")
        lines += advice.map { "  - " + $0 }
        return lines
    }

    static func json(_ reports: [AdapterExamination], _ h: HostDiagnosis, _ advice: [String]) -> JSONValue {
        let adapters: [JSONValue] = reports.map { r in
            var members: [(String, JSONValue)] = [("adapter", .string(r.name)), ("transport", .string(r.transport)), ("error", .string(r.error.map(CommandLineTerms.text(describing:))))]
            if let api = r.capabilities?.managementAPI {
                members.append(("management_api", managementJSON(api)))
                members.append(("hci_version", .string(r.capabilities!.hciVersion.name ?? r.capabilities!.hciVersion.description)))
            } else if let caps = r.capabilities {
                if let api = r.management { members.append(("management_api", managementJSON(api))) }
                if let e = r.managementError { members.append(("management_api_error", .string(CommandLineTerms.text(describing: e)))) }
                if let b = r.backend {
                    members.append(("advertise_backend", .object([("adapter", .string(b.spec.description)), ("reason", .string(b.reason.map(CommandLineTerms.text)))])))
                }
                members += [
                    ("address", .string(caps.address?.description)),
                    ("hci_version", .string(caps.hciVersion.name ?? caps.hciVersion.description)),
                    ("lmp_version", .string(caps.lmpVersion.map { $0.name ?? $0.description })),
                    ("manufacturer", .int(caps.manufacturer)),
                    ("manufacturer_name", .string(caps.manufacturer.flatMap { CompanyNames.known[$0] })),
                    ("lmp_subversion", .int(caps.lmpSubversion)),
                    ("model", .string(caps.model?.id)),
                    ("model_limits", .array(caps.model.map(ControllerModelText.limits)?.map { .string($0) } ?? [])),
                    ("extended_advertising", .bool(caps.leFeatures.contains(.leExtendedAdvertising))),
                    ("extended_advertising_usable", .bool(caps.hasExtendedAdvertising)),
                    ("le_features", .string("0x" + String(caps.leFeatures.rawValue, radix: 16, uppercase: true))),
                    ("advertising_sets", .int(caps.advertisingSets)),
                    ("maximum_data_length", .int(caps.maximumDataLength)),
                    ("tx_power_min", .int(caps.txPowerRange?.lowerBound)),
                    ("tx_power_max", .int(caps.txPowerRange?.upperBound)),
                    ("legacy_tx_power", .int(r.legacyTxPower)),
                ]
            }
            return .object(members)
        }
        let host: JSONValue = .object([
            ("af_bluetooth", h.bluetoothSocket.map { .bool($0) } ?? .null),
            ("bluetoothd_pids", .array(h.bluetoothd.map { .int($0) })),
            ("rfkill", .array(h.rfkill.map { .object([("name", .string($0.name)), ("soft", .bool($0.soft)), ("hard", .bool($0.hard))]) })),
            ("cap_net_raw", h.hasNetRaw.map { .bool($0) } ?? .null),
            ("cap_net_admin", h.hasNetAdmin.map { .bool($0) } ?? .null),
            ("root", .bool(h.isRoot)),
            ("kernel_release", .string(h.kernelRelease)),
        ])
        return .object([("adapters", .array(adapters)), ("host", host), ("advice", .array(advice.map { .string($0) }))])
    }

    /// What the measurement before a run found, when it limits the instances beacon uses.
    static func usableText(_ api: ManagementAPIInfo) -> String {
        if !api.controllerRunsInstances { return "; the kernel rotates them in software (2 s each), so beacon uses one" }
        if let usable = api.usableInstances, usable < api.freeInstances.count { return "; the controller holds \(usable) of them at once" }
        return ""
    }

    static func managementJSON(_ api: ManagementAPIInfo) -> JSONValue {
        .object([
            ("version", .string(api.version)),
            ("extended_commands", .bool(api.extendedCommands)),
            ("max_instances", .int(api.maxInstances)),
            ("taken_instances", .array(api.takenInstances.map { .int(Int($0)) })),
            ("free_instances", .int(api.freeInstances.count)),
            ("usable_instances", .int(api.usableInstances)),
            ("planned_instances", .int(api.plannedInstances)),
            ("supported_flags", .array(api.supportedFlags.names.map { .string($0) })),
        ])
    }
}
