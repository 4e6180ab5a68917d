// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import HCI
import Testing
@testable import VirtualController

/// A virtual controller on a manual clock, driven one command at a time.
struct Bench {
    let clock = ManualClock()
    let controller: VirtualController

    init(_ configuration: VirtualController.Configuration = .init()) {
        controller = VirtualController(configuration: configuration, clock: clock)
    }

    init(options: [String: String]) throws {
        controller = try VirtualController(options: options, clock: clock)
    }

    /// Sends a command and returns the one event it must produce, as H4 bytes.
    @discardableResult
    func reply(_ command: some HCICommand, sourceLocation: SourceLocation = #_sourceLocation) -> [UInt8] {
        let events = controller.exchange(command.h4Bytes)
        #expect(events.count == 1, "one reply per command", sourceLocation: sourceLocation)
        return events.first ?? []
    }

    /// Sends a command and returns the status of its Command Complete.
    @discardableResult
    func status(_ command: some HCICommand, sourceLocation: SourceLocation = #_sourceLocation) -> HCIStatus {
        let bytes = reply(command, sourceLocation: sourceLocation)
        // 04 0E len 01 opcode(2) status …
        #expect(bytes.count >= 7 && bytes[0] == 0x04 && bytes[1] == 0x0E, "a Command Complete", sourceLocation: sourceLocation)
        #expect(bytes.count >= 6 && UInt16(bytes[4]) | UInt16(bytes[5]) << 8 == type(of: command).opcode.rawValue,
                "for the command sent", sourceLocation: sourceLocation)
        return bytes.count >= 7 ? HCIStatus(rawValue: bytes[6]) : HCIStatus(rawValue: 0xFF)
    }

    /// Sends commands that must all succeed.
    func succeed(_ commands: any HCICommand..., sourceLocation: SourceLocation = #_sourceLocation) {
        for command in commands {
            let s = status(command, sourceLocation: sourceLocation)
            #expect(s == .success, "\(type(of: command).name) should succeed, got \(s)", sourceLocation: sourceLocation)
        }
    }

    func advance(_ amount: Duration) { clock.advance(by: amount) }
}

/// Command Complete as the spec lays it out: 04 0E len, Num_HCI_Command_Packets = 1, opcode,
/// return parameters (status first).
func commandComplete(_ opcode: UInt16, _ returnParameters: [UInt8]) -> [UInt8] {
    [0x04, 0x0E, UInt8(3 + returnParameters.count), 0x01, UInt8(opcode & 0xFF), UInt8(opcode >> 8)] + returnParameters
}

let staticAddress1 = BluetoothAddress(0xC0_11_22_33_44_01)
let staticAddress2 = BluetoothAddress(0xC0_11_22_33_44_02)

/// An iBeacon-shaped 30-byte payload (flags + Apple manufacturer data), distinct per `minor`.
func beaconData(minor: UInt8 = 1) -> [UInt8] {
    [0x02, 0x01, 0x06, 0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15]
        + [UInt8](repeating: 0xAB, count: 16) + [0x00, 0x01, 0x00, minor, 0xC5]
}

/// A legacy non-connectable set at `interval` (0.625 ms units) from its random address.
func nonConnectableSet(_ handle: UInt8, interval: AdvertisingInterval = 0x00A0, ownAddressType: LEOwnAddressType = .random)
    -> LESetExtendedAdvertisingParameters
{
    LESetExtendedAdvertisingParameters(handle: handle, eventProperties: .legacyNonConnectable, intervalMin: interval,
                                       intervalMax: interval, ownAddressType: ownAddressType, txPower: 0x7F)
}
