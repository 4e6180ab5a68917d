// SPDX-License-Identifier: GPL-2.0-or-later
import HCI
import KnownControllers
import HCITransport
import Mgmt

/// Asks a controller what it can do. Sends only commands that are neither legacy nor extended
/// advertising commands, plus the extended read-outs when feature bit 12 says they exist, so
/// probing never commits the controller to one advertising mode (Core Vol 4 Part E §3.1.1).
public enum ControllerProbe {
    /// How long an optional read-out (LE Read Transmit Power) is waited for. Some firmware never
    /// answers it, and the full command timeout would be lost at every start; a controller that
    /// has it answers in milliseconds (its measured command time is at most a few), so this is
    /// ample, and one that misses it only leaves the power range unknown.
    public static let optionalReadOutTimeout: Duration = .milliseconds(250)

    /// Probes `hci`; with `reset` (our own controller: user channel, TCP, UART, virtual) it first
    /// sends HCI Reset so the legacy/extended choice starts fresh.
    public static func probe(_ hci: HCIController, reset: Bool) async throws(HCIControllerError) -> ControllerCapabilities {
        if reset { try await hci.send(HCIReset()) }
        // Every read-out's round trip (Reset's, which may take the controller long, aside): a
        // controller answers one command at a time in about a millisecond over USB, more over a
        // UART, and a rotation turn sends several.
        var roundTrips: [Duration] = []
        var sent = ContinuousClock.now
        func answered() { roundTrips.append(ContinuousClock.now - sent); sent = .now }
        let version = try await hci.send(HCIReadLocalVersionInformation())
        answered()
        let features = try await hci.send(LEReadLocalSupportedFeatures()).features
        answered()
        let address = try? await hci.send(HCIReadBDADDR()).address
        answered()
        // Three more of the cheapest read-out, so that the median is not set by one hiccup of a
        // busy host.
        for _ in 0..<3 {
            _ = try? await hci.send(HCIReadLocalVersionInformation())
            answered()
        }
        var caps = ControllerCapabilities(
            adapter: AdapterName(hci.adapterName), hciVersion: version.hciVersion, lmpVersion: version.lmpVersion,
            manufacturer: version.manufacturer, address: address, leFeatures: features,
            advertisingSets: 0, maximumDataLength: 31)
        caps.commandTime = roundTrips.sorted()[roundTrips.count / 2]
        caps.lmpSubversion = version.lmpSubversion
        caps.model = ControllerModel.recognise(manufacturer: version.manufacturer, hciVersion: version.hciVersion,
                                               lmpSubversion: version.lmpSubversion)
        if features.contains(.leExtendedAdvertising) {
            do throws(HCIControllerError) {
                caps.advertisingSets = Int(try await hci.send(LEReadNumberOfSupportedAdvertisingSets()).numberOfSets)
            } catch where !reset && error.status == .commandDisallowed {
                // §3.1.1: legacy advertising commands were used since the last reset (a killed
                // legacy run, another program), so every extended command, these read-outs
                // included, is refused until the next reset: only legacy advertising works now.
                hci.info = caps.hciInfo
                return caps
            }
            // Some controllers (BlueZ's btvirt among them) lack this read-out although they have
            // extended advertising; an iBeacon needs only 30 bytes of legacy PDU data, so assume
            // the legacy 31 rather than give up.
            do throws(HCIControllerError) {
                caps.maximumDataLength = Int(try await hci.send(LEReadMaximumAdvertisingDataLength()).maximumLength)
            } catch where error.status == .unknownCommand {
                caps.maximumDataLength = 31
            }
            // LE Read Transmit Power is optional (Bluetooth 5.0+); a controller without it says
            // 0x01, and some firmware never answers it (``optionalReadOutTimeout``).
            if let power = try? await hci.send(LEReadTransmitPower(), timeout: max(Self.optionalReadOutTimeout, (caps.commandTime ?? .zero) * 50)) {
                caps.txPowerRange = power.minimum...max(power.minimum, power.maximum)
            }
        }
        hci.info = caps.hciInfo
        return caps
    }

    /// The commands of ``tryExtendedAdvertising(_:_:)``, in order: set 0 at 100 ms from the
    /// public address, a Flags structure as its data, and its removal (never enabled).
    package static var extendedAdvertisingTrial: (parameters: LESetExtendedAdvertisingParameters, data: LESetExtendedAdvertisingData, removal: LERemoveAdvertisingSet) {
        let interval = AdvertisingInterval(milliseconds: 100)
        return (LESetExtendedAdvertisingParameters(handle: 0, intervalMin: interval, intervalMax: interval, ownAddressType: .public),
                LESetExtendedAdvertisingData(handle: 0, data: [0x02, 0x01, 0x06]), LERemoveAdvertisingSet(handle: 0))
    }

    /// Tries extended advertising on a controller we own (one ``probe(_:reset:)`` reset) that
    /// lists it: the parameters, the data and the removal of one set, nothing enabled, so nothing
    /// goes on air. Some firmware lists LE Extended Advertising (feature bit 12) and then answers
    /// these commands Unknown HCI Command (Intel AX211 firmware 202-5.26, bluez issue 2270;
    /// MT7921K on 7.1.5): such a controller is reset, and the capabilities returned have no sets,
    /// so it is planned for legacy advertising, and ``ControllerCapabilities/backendReason`` says
    /// why. Other refusals and failures are left for the run to meet and report.
    public static func tryExtendedAdvertising(_ hci: HCIController, _ caps: ControllerCapabilities) async throws(HCIControllerError) -> ControllerCapabilities {
        guard caps.hasExtendedAdvertising else { return caps }
        let trial = extendedAdvertisingTrial
        var step = LESetExtendedAdvertisingParameters.name
        do throws(HCIControllerError) {
            _ = try await hci.send(trial.parameters)
            step = LESetExtendedAdvertisingData.name
            try await hci.send(trial.data)
            step = LERemoveAdvertisingSet.name
            try await hci.send(trial.removal)
            return caps
        } catch where error.status == .unknownCommand {
            // The set the parameters made, if any, goes with the reset (as does the command
            // family: legacy commands are allowed again).
            try await hci.send(HCIReset())
            var legacy = caps
            legacy.advertisingSets = 0
            let why: TermedText = "the controller lists LE Extended Advertising but its firmware answers \(step) with Unknown HCI Command (0x01): reset, and legacy advertising used (one advertiser; beacons take turns)"
            legacy.backendReason = caps.backendReason.map { $0 + "; " + why } ?? why
            hci.info = legacy.hciInfo
            return legacy
        } catch {
            // Any other refusal, or a controller that stops answering, is the run's to meet and
            // report with the command it refuses in the run (its preamble clears the set tried).
            return caps
        }
    }

    /// Probes a `mgmt:` adapter through the kernel's management API: its version (which commands
    /// exist), Read Controller Information (the controller's Bluetooth version: the 20 ms floor
    /// for non-connectable advertising from 5.0 on, 100 ms before) and Read Advertising Features
    /// (instances: the planner's "sets" are the free ones). A kernel that does not answer Read
    /// Controller Information gets the strict pre-5.0 rule, so no interval the controller could
    /// refuse is planned.
    public static func probe(management mgmt: MgmtController) async throws(MgmtControllerError) -> ControllerCapabilities {
        let version = try await mgmt.send(ReadManagementVersionInformation(), index: MgmtPacketHeader.nonController)
        let controller = try? await mgmt.send(ReadControllerInformation())
        let features = try await mgmt.send(ReadAdvertisingFeatures())
        let info = ManagementAPIInfo(
            version: version.text, extendedCommands: version.hasExtendedAdvertisingCommands, maxInstances: Int(features.maxInstances),
            takenInstances: features.instances, supportedFlags: features.supportedFlags)
        var caps = ControllerCapabilities(adapter: AdapterName(mgmt.adapterName), hciVersion: controller?.bluetoothVersion ?? .v4_2,
                                          manufacturer: controller?.manufacturer, address: controller?.address, leFeatures: [],
                                          advertisingSets: info.plannedInstances, maximumDataLength: Int(features.maxAdvertisingDataLength))
        caps.managementAPI = info
        return caps
    }

    /// How many of the free instances the controller really holds at once. Max_Instances is the
    /// kernel's count, and the controller's sets can run out first (the kernel may hold one
    /// itself): Add Extended Advertising Parameters then fails with No Resources (the kernel
    /// sets the parameters on the controller at once). So, before a run, each free instance gets
    /// parameters (no data: nothing goes on air) until one is refused, and every one added is
    /// removed again. Returns `caps` with the measured count; unchanged without the extended
    /// commands or when the kernel rotates the instances itself (only one is used then).
    public static func measureUsableInstances(_ mgmt: MgmtController, _ caps: ControllerCapabilities) async -> ControllerCapabilities {
        guard var info = caps.managementAPI, info.extendedCommands, info.controllerRunsInstances, info.freeInstances.count > 1 else { return caps }
        var added: [UInt8] = []
        var full = false
        for instance in info.freeInstances {
            let refusal = await refusal(of: AddExtendedAdvertisingParameters(instance: instance, flags: [], minInterval: 0x00A0, maxInterval: 0x00A0, txPower: 0), on: mgmt)
            if let refusal {
                // Only No Resources says the controller is full; any other refusal (LE off, a
                // rejected adapter) says nothing about its capacity, and the run will explain it.
                full = refusal.status == .noResources
                break
            }
            added.append(instance)
        }
        for instance in added { _ = try? await mgmt.send(RemoveAdvertising(instance: instance)) }
        guard full else { return caps }
        info.usableInstances = added.count
        var measured = caps
        measured.managementAPI = info
        measured.advertisingSets = info.plannedInstances
        return measured
    }

    /// The legacy advertising channel TX power. Only for controllers driven in legacy mode: this
    /// is a legacy advertising command, so it would lock an extended-capable controller out of
    /// extended advertising until the next reset.
    public static func legacyTxPower(_ hci: HCIController) async -> Int8? {
        try? await hci.send(LEReadAdvertisingPhysicalChannelTxPower()).txPowerLevel
    }

    /// Sends `command`; its error, if any.
    private static func refusal<C: MgmtCommand>(of command: C, on mgmt: MgmtController) async -> MgmtControllerError? {
        do throws(MgmtControllerError) {
            try await mgmt.send(command)
            return nil
        } catch {
            return error
        }
    }
}
