// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import HCI

/// Finds the iBeacons in a stream of HCI packets: in LE Advertising Reports and LE Extended
/// Advertising Reports (beacons heard), and in the host's own LE Set Advertising Data and LE Set
/// Extended Advertising Data commands (beacons sent); and in the legacy advertising PDUs of a
/// sniffer's Link Layer packets (see ``LinkLayerPDU``). Commands that set or choose addresses are
/// followed (see ``AdvertiserAddressBook``) so that sent beacons carry their on-air address.
///
/// Reports — nearly every packet of a scanning capture — are read in place without allocating,
/// with the HCI report types' own `forEachReport(inEventBytes:)` (HCI owns their layouts).
/// Payloads that are not valid iBeacons (under ``options``) are skipped; events that do not
/// parse are counted in ``malformedPackets``.
public struct BeaconExtractor {
    /// How legacy payloads (≤ 31 bytes) are decoded.
    public var options: BeaconDecodingOptions
    /// How extended report and extended command payloads are decoded (up to 254 bytes).
    public var extendedOptions: BeaconDecodingOptions
    /// Per controller index.
    @usableFromInline var addressBooks: [UInt16: AdvertiserAddressBook] = [:]
    /// Packets that claimed to be reports or advertising commands but did not parse.
    public var malformedPackets: Int { malformedCount }
    @usableFromInline var malformedCount = 0

    /// - Parameter options: `.strict` (the default) reads only well-formed payloads, as a phone
    ///   does; `.lenient` finds an iBeacon in odd data too (then also for extended payloads).
    public init(options: BeaconDecodingOptions = .strict) {
        self.options = options
        self.extendedOptions = options.strictness == .lenient
            ? options
            : BeaconDecodingOptions(strictness: .strict, maximumLength: max(options.maximumLength, IBeaconFormat.extendedFragmentMaximum))
    }

    /// Calls `body` with every iBeacon in `packet`.
    @inlinable
    public mutating func extract(_ packet: CapturedPacket, _ body: (CapturedBeacon) -> Void) {
        switch packet.type {
        case .hci(.event): extractFromEvent(packet, body)
        case .hci(.command): extractFromCommand(packet, body)
        case let .linkLayer(rssi): extractFromLinkLayer(packet, rssi: rssi, body)
        default: return
        }
    }

    /// ADV_IND, ADV_NONCONN_IND, ADV_SCAN_IND and SCAN_RSP as a sniffer heard them: read in place.
    @inlinable
    mutating func extractFromLinkLayer(_ packet: CapturedPacket, rssi: Int8?, _ body: (CapturedBeacon) -> Void) {
        let found: (address: BluetoothAddress, addressType: LEAddressType, data: ArraySlice<UInt8>)?
        do throws(LinkLayerPDU.Malformed) {
            found = try LinkLayerPDU.advertisingData(in: packet.bytes)
        } catch {
            malformedCount += 1
            return
        }
        guard let found else { return }
        let options = self.options
        let beacon: AnyBeacon? = found.data.withUnsafeBytes { try? AnyBeacon(decoding: $0, options: options) }
        guard let beacon else { return }
        body(CapturedBeacon(
            timestamp: packet.timestamp, source: .linkLayer, address: found.address, addressType: found.addressType,
            rssi: rssi, handle: nil, controllerIndex: packet.controllerIndex, recordNumber: packet.recordNumber, beacon: beacon))
    }

    @inlinable
    mutating func extractFromEvent(_ packet: CapturedPacket, _ body: (CapturedBeacon) -> Void) {
        let bytes = packet.bytes
        guard bytes.count >= 3 else { return }
        let code = bytes[bytes.startIndex]
        guard code == HCIEventCode.leMeta else {
            if code == HCIEventCode.commandComplete { noteCommandComplete(packet) }
            return
        }
        let options = self.options
        switch bytes[bytes.startIndex + 2] {
        case LESubeventCode.advertisingReport:
            do throws(HCIDecodingError) {
                _ = try LEAdvertisingReportEvent.forEachReport(inEventBytes: bytes) { report in
                    guard let beacon = try? AnyBeacon(decoding: report.data, options: options) else { return }
                    body(CapturedBeacon(
                        timestamp: packet.timestamp, source: .report, address: report.address, addressType: report.addressType,
                        rssi: report.measuredRSSI, handle: nil, controllerIndex: packet.controllerIndex,
                        recordNumber: packet.recordNumber, beacon: beacon))
                }
            } catch {
                malformedCount += 1
            }
        case LESubeventCode.extendedAdvertisingReport:
            let options = extendedOptions
            do throws(HCIDecodingError) {
                _ = try LEExtendedAdvertisingReportEvent.forEachReport(inEventBytes: bytes) { report in
                    let beacon: AnyBeacon? = report.data.withUnsafeBytes { try? AnyBeacon(decoding: $0, options: options) }
                    guard let beacon else { return }
                    body(CapturedBeacon(
                        timestamp: packet.timestamp, source: .extendedReport,
                        address: report.addressType == .anonymous ? nil : report.address, addressType: report.addressType,
                        rssi: report.measuredRSSI, handle: report.sid, controllerIndex: packet.controllerIndex,
                        recordNumber: packet.recordNumber, beacon: beacon))
                }
            } catch {
                malformedCount += 1
            }
        default:
            return
        }
    }

    /// Learns the public address from Read BD_ADDR's reply.
    @usableFromInline
    mutating func noteCommandComplete(_ packet: CapturedPacket) {
        guard let event = try? HCICommandCompleteEvent(packet: HCIEventPacket(bytes: packet.bytes)),
              event.opcode == HCIReadBDADDR.opcode,
              let reply = try? event.result(for: HCIReadBDADDR.self) else { return }
        addressBooks[packet.controllerIndex, default: AdvertiserAddressBook()].publicAddress = reply.address
    }

    /// Commands are few (a handful per advertising change), so they are decoded with the HCI
    /// module's command types, allocation and all.
    @usableFromInline
    mutating func extractFromCommand(_ packet: CapturedPacket, _ body: (CapturedBeacon) -> Void) {
        var reader = HCIReader(packet.bytes)
        do throws(HCIDecodingError) {
            let opcode = HCIOpcode(rawValue: try reader.readUInt16("opcode"))
            try reader.readParameterLength("parameter length")
            let index = packet.controllerIndex
            switch opcode {
            case LESetAdvertisingData.opcode:
                let command = try LESetAdvertisingData(decodingParameters: &reader)
                guard let beacon = try? AnyBeacon(decoding: command.data, options: options) else { return }
                let address = addressBooks[index]?.legacyAddress()
                body(CapturedBeacon(
                    timestamp: packet.timestamp, source: .command, address: address?.0, addressType: address?.1, rssi: nil,
                    handle: nil, controllerIndex: index, recordNumber: packet.recordNumber, beacon: beacon))
            case LESetExtendedAdvertisingData.opcode:
                let command = try LESetExtendedAdvertisingData(decodingParameters: &reader)
                guard let beacon = try? AnyBeacon(decoding: command.data, options: extendedOptions) else { return }
                let address = addressBooks[index]?.setAddress(command.handle)
                body(CapturedBeacon(
                    timestamp: packet.timestamp, source: .extendedCommand, address: address?.0, addressType: address?.1,
                    rssi: nil, handle: command.handle, controllerIndex: index, recordNumber: packet.recordNumber, beacon: beacon))
            case LESetRandomAddress.opcode:
                addressBooks[index, default: AdvertiserAddressBook()].randomAddress = try LESetRandomAddress(decodingParameters: &reader).address
            case LESetAdvertisingSetRandomAddress.opcode:
                let command = try LESetAdvertisingSetRandomAddress(decodingParameters: &reader)
                addressBooks[index, default: AdvertiserAddressBook()].setRandomAddresses[command.handle] = command.address
            case LESetAdvertisingParameters.opcode:
                let command = try LESetAdvertisingParameters(decodingParameters: &reader)
                addressBooks[index, default: AdvertiserAddressBook()].legacyOwnAddressType = command.ownAddressType
            case LESetExtendedAdvertisingParameters.opcode:
                let command = try LESetExtendedAdvertisingParameters(decodingParameters: &reader)
                addressBooks[index, default: AdvertiserAddressBook()].setOwnAddressTypes[command.handle] = command.ownAddressType
            case LERemoveAdvertisingSet.opcode:
                let handle = try LERemoveAdvertisingSet(decodingParameters: &reader).handle
                addressBooks[index]?.setRandomAddresses[handle] = nil
                addressBooks[index]?.setOwnAddressTypes[handle] = nil
            case LEClearAdvertisingSets.opcode:
                addressBooks[index]?.setRandomAddresses = [:]
                addressBooks[index]?.setOwnAddressTypes = [:]
            case HCIReset.opcode:
                // A reset forgets every random address and set (§7.3.2); the public one stays.
                let publicAddress = addressBooks[index]?.publicAddress
                var book = AdvertiserAddressBook()
                book.publicAddress = publicAddress
                addressBooks[index] = book
            default:
                return
            }
        } catch {
            malformedCount += 1
        }
    }
}
