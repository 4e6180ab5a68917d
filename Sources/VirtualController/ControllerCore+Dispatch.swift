// SPDX-License-Identifier: GPL-2.0-or-later
import HCI

extension ControllerCore {
    /// Takes one H4 packet from the host and queues the reply. Only command packets mean
    /// anything here (there are no connections for ACL or ISO data).
    mutating func receive(_ h4: [UInt8], at now: Duration) {
        advance(to: now)
        guard h4.first == H4PacketType.command.rawValue else { return }
        let packet: HCICommandPacket
        do {
            packet = try HCICommandPacket(bytes: h4[1...])
        } catch {
            // The parameter length byte disagrees with the bytes: if the opcode at least is
            // there, say which command was malformed rather than leave the host waiting.
            guard h4.count >= 3 else { return }
            let opcode = HCIOpcode(rawValue: UInt16(h4[1]) | UInt16(h4[2]) << 8)
            queue(HCICommandCompleteEvent(opcode: opcode, returnParameters: [HCIStatus.invalidCommandParameters.rawValue]).packet)
            return
        }
        // A command the firmware never answers (a quirk): the host's wait can only time out.
        if configuration.ignores(packet.opcode) { return }
        reply(handle(packet, at: now), at: now)
    }

    mutating func queue(_ event: HCIEventPacket) { outgoing.append(event.h4Bytes) }

    /// Queues a command's reply with the configured Num_HCI_Command_Packets, after the
    /// configured latency: commands are taken one after another, so a reply is due a latency
    /// after the later of its arrival and the previous reply.
    mutating func reply(_ event: HCIEventPacket, at now: Duration) {
        var bytes = event.h4Bytes
        // Command Complete: 04 0E len ncmd …; Command Status: 04 0F len status ncmd …
        if bytes.count > 3, bytes[1] == HCIEventCode.commandComplete { bytes[3] = configuration.commandPackets }
        if bytes.count > 4, bytes[1] == HCIEventCode.commandStatus { bytes[4] = configuration.commandPackets }
        guard configuration.commandLatency > .zero else { return outgoing.append(bytes) }
        let due = max(now, delayedReplies.last?.due ?? now) + configuration.commandLatency
        delayedReplies.append((due, bytes))
    }

    /// Moves the replies whose latency is over into the event queue, in order; every one with
    /// `all` (``VirtualController/exchange(_:)``, which has no clock to wait on).
    mutating func releaseReplies(at now: Duration, all: Bool = false) {
        while let first = delayedReplies.first, all || first.due <= now {
            outgoing.append(first.bytes)
            delayedReplies.removeFirst()
        }
    }

    /// The reply to one command.
    mutating func handle(_ packet: HCICommandPacket, at now: Duration) -> HCIEventPacket {
        let opcode = packet.opcode
        guard supportedOpcodes.contains(opcode.rawValue), !configuration.refuses(opcode) else { return unknownCommand(opcode) }

        // §3.1.1: once one advertising family was used since power-on or Reset, the other is
        // disallowed. Only a controller that has both families has the rule.
        if configuration.supportsExtendedAdvertising, let commandFamily = AdvertisingCommandFamily.of(opcode) {
            if let family, family != commandFamily { return Self.statusOnly(opcode, .commandDisallowed) }
            family = commandFamily
        }

        let decoded: (any HCICommand)?
        do {
            decoded = try HCICommandRegistry.decode(packet)
        } catch {
            // Wrong parameter length or a value that decides the layout (a flag that is not
            // 0/1, a length over its maximum).
            return Self.statusOnly(opcode, .invalidCommandParameters)
        }
        guard let command = decoded else { return unknownCommand(opcode) }
        return dispatch(command, at: now)
    }

    private mutating func dispatch(_ command: any HCICommand, at now: Duration) -> HCIEventPacket {
        switch command {
        // Controller & baseband, informational (§7.3, §7.4)
        case let c as HCISetEventMask: Self.complete(HCISetEventMask.self) { () throws(Refusal) in eventMask = c.mask; return .init() }
        case is HCIReset: Self.complete(HCIReset.self) { () throws(Refusal) in reset(); return .init() }
        case is HCIReadLocalVersionInformation: Self.complete(HCIReadLocalVersionInformation.self) { () throws(Refusal) in readLocalVersionInformation() }
        case is HCIReadLocalSupportedCommands:
            Self.complete(HCIReadLocalSupportedCommands.self) { () throws(Refusal) in SupportedCommands.mask(for: configuration) }
        case is HCIReadBDADDR: Self.complete(HCIReadBDADDR.self) { () throws(Refusal) in .init(address: configuration.publicAddress) }
        case let c as LESetEventMask: Self.complete(LESetEventMask.self) { () throws(Refusal) in leEventMask = c.mask; return .init() }
        case is LEReadLocalSupportedFeatures: Self.complete(LEReadLocalSupportedFeatures.self) { () throws(Refusal) in .init(features: leFeatures) }
        case is LEReadTransmitPower:
            Self.complete(LEReadTransmitPower.self) { () throws(Refusal) in
                .init(minimum: configuration.txPowerRange.lowerBound, maximum: configuration.txPowerRange.upperBound)
            }
        // Legacy advertising (§7.8.4 … §7.8.9)
        case let c as LESetRandomAddress: Self.complete(LESetRandomAddress.self) { () throws(Refusal) in try setRandomAddress(c) }
        case let c as LESetAdvertisingParameters:
            Self.complete(LESetAdvertisingParameters.self) { () throws(Refusal) in try setAdvertisingParameters(c) }
        case is LEReadAdvertisingPhysicalChannelTxPower:
            Self.complete(LEReadAdvertisingPhysicalChannelTxPower.self) { () throws(Refusal) in .init(txPowerLevel: configuration.advertisingChannelTxPower) }
        case let c as LESetAdvertisingData: Self.complete(LESetAdvertisingData.self) { () throws(Refusal) in legacy.data = Array(c.data); return .init() }
        case let c as LESetScanResponseData:
            Self.complete(LESetScanResponseData.self) { () throws(Refusal) in legacy.scanResponseData = Array(c.data); return .init() }
        case let c as LESetAdvertisingEnable: Self.complete(LESetAdvertisingEnable.self) { () throws(Refusal) in try setAdvertisingEnable(c, at: now) }
        // Scanning (§7.8.10, §7.8.11, §7.8.64, §7.8.65)
        case let c as LESetScanParameters: Self.complete(LESetScanParameters.self) { () throws(Refusal) in try setScanParameters(c) }
        case let c as LESetScanEnable: Self.complete(LESetScanEnable.self) { () throws(Refusal) in try setScanEnable(c) }
        case let c as LESetExtendedScanParameters:
            Self.complete(LESetExtendedScanParameters.self) { () throws(Refusal) in try setExtendedScanParameters(c) }
        case let c as LESetExtendedScanEnable: Self.complete(LESetExtendedScanEnable.self) { () throws(Refusal) in try setExtendedScanEnable(c) }
        // Extended advertising (§7.8.52 … §7.8.60)
        case let c as LESetAdvertisingSetRandomAddress:
            Self.complete(LESetAdvertisingSetRandomAddress.self) { () throws(Refusal) in try setAdvertisingSetRandomAddress(c) }
        case let c as LESetExtendedAdvertisingParameters:
            Self.complete(LESetExtendedAdvertisingParameters.self) { () throws(Refusal) in try setExtendedAdvertisingParameters(c) }
        case let c as LESetExtendedScanResponseData:
            Self.complete(LESetExtendedScanResponseData.self) { () throws(Refusal) in try setExtendedScanResponseData(c) }
        case let c as LESetExtendedAdvertisingData:
            Self.complete(LESetExtendedAdvertisingData.self) { () throws(Refusal) in try setExtendedAdvertisingData(c) }
        case let c as LESetExtendedAdvertisingEnable:
            Self.complete(LESetExtendedAdvertisingEnable.self) { () throws(Refusal) in try setExtendedAdvertisingEnable(c, at: now) }
        case is LEReadMaximumAdvertisingDataLength:
            Self.complete(LEReadMaximumAdvertisingDataLength.self) { () throws(Refusal) in
                .init(maximumLength: UInt16(configuration.maximumAdvertisingDataLength))
            }
        case is LEReadNumberOfSupportedAdvertisingSets:
            Self.complete(LEReadNumberOfSupportedAdvertisingSets.self) { () throws(Refusal) in .init(numberOfSets: UInt8(configuration.advertisingSets)) }
        case let c as LERemoveAdvertisingSet: Self.complete(LERemoveAdvertisingSet.self) { () throws(Refusal) in try removeAdvertisingSet(c) }
        case is LEClearAdvertisingSets: Self.complete(LEClearAdvertisingSets.self) { () throws(Refusal) in try clearAdvertisingSets() }
        default: unknownCommand(type(of: command).opcode)
        }
    }

    /// Command Complete with typed return parameters, or with the status alone when refused.
    static func complete<C: HCICommand>(_ type: C.Type, _ body: () throws(Refusal) -> C.ReturnParameters) -> HCIEventPacket {
        do {
            return HCICommandCompleteEvent(for: C.self, returnParameters: try body()).packet
        } catch {
            return HCICommandCompleteEvent(for: C.self, status: error.status).packet
        }
    }

    static func statusOnly(_ opcode: HCIOpcode, _ status: HCIStatus) -> HCIEventPacket {
        HCICommandCompleteEvent(opcode: opcode, returnParameters: [status.rawValue]).packet
    }

    /// Unknown HCI Command (0x01), by Command Complete or Command Status as configured.
    func unknownCommand(_ opcode: HCIOpcode) -> HCIEventPacket {
        switch configuration.unknownCommandReply {
        case .commandComplete: Self.statusOnly(opcode, .unknownCommand)
        case .commandStatus: HCICommandStatusEvent(status: .unknownCommand, opcode: opcode).packet
        }
    }
}
