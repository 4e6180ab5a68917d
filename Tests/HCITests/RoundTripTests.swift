// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import HCI
import Testing

/// Seeded random values through encode → H4 stream in random chunks → decode: whatever the field
/// values, nothing is lost or reordered.
@Suite("Random round trips")
struct RoundTripTests {
    struct Source {
        var rng: SplitMix64
        mutating func byte() -> UInt8 { UInt8.random(in: .min ... .max, using: &rng) }
        mutating func int8() -> Int8 { Int8(bitPattern: byte()) }
        mutating func word() -> UInt16 { UInt16.random(in: .min ... .max, using: &rng) }
        mutating func bool() -> Bool { Bool.random(using: &rng) }
        mutating func address() -> BluetoothAddress { BluetoothAddress(UInt64.random(in: 0...0xFFFF_FFFF_FFFF, using: &rng)) }
        mutating func data(_ range: ClosedRange<Int>) -> [UInt8] { (0..<Int.random(in: range, using: &rng)).map { _ in byte() } }
    }

    static func commands(_ s: inout Source) -> [any HCICommand] {
        [
            LESetAdvertisingParameters(
                intervalMin: .init(units: UInt32(s.word())), intervalMax: .init(units: UInt32(s.word())), advertisingType: .init(rawValue: s.byte()),
                ownAddressType: .init(rawValue: s.byte()), peerAddressType: .init(rawValue: s.byte()), peerAddress: s.address(),
                channelMap: .init(rawValue: s.byte()), filterPolicy: .init(rawValue: s.byte())),
            LESetExtendedAdvertisingParameters(
                handle: s.byte(), eventProperties: .init(rawValue: s.word()),
                intervalMin: .init(units: UInt32.random(in: 0...0xFF_FFFF, using: &s.rng)), intervalMax: .init(units: UInt32.random(in: 0...0xFF_FFFF, using: &s.rng)),
                channelMap: .init(rawValue: s.byte()), ownAddressType: .init(rawValue: s.byte()), peerAddressType: .init(rawValue: s.byte()),
                peerAddress: s.address(), filterPolicy: .init(rawValue: s.byte()), txPower: s.int8(), primaryPHY: .init(rawValue: s.byte()),
                secondaryMaxSkip: s.byte(), secondaryPHY: .init(rawValue: s.byte()), sid: s.byte(), scanRequestNotifications: s.bool()),
            LESetAdvertisingData(AdvertisingPayload(s.data(0...31))!),
            LESetExtendedAdvertisingData(handle: s.byte(), operation: .init(rawValue: s.byte()), avoidFragmentation: s.bool(), data: s.data(0...251)),
            LESetExtendedAdvertisingEnable(s.bool(), sets: (0..<Int.random(in: 0...63, using: &s.rng)).map { _ in
                .init(handle: s.byte(), duration: s.word(), maxExtendedAdvertisingEvents: s.byte())
            }),
            LESetExtendedScanParameters(
                ownAddressType: .init(rawValue: s.byte()), filterPolicy: s.byte(),
                le1M: s.bool() ? .init(scanType: .init(rawValue: s.byte()), interval: s.word(), window: s.word()) : nil,
                leCoded: s.bool() ? .init(scanType: .init(rawValue: s.byte()), interval: s.word(), window: s.word()) : nil),
            LESetAdvertisingSetRandomAddress(handle: s.byte(), address: s.address()),
        ]
    }

    static func events(_ s: inout Source) -> [HCIEvent] {
        [
            .leAdvertisingReport(.init(reports: (0..<Int.random(in: 1...5, using: &s.rng)).map { _ in
                .init(eventType: .init(rawValue: s.byte()), addressType: .init(rawValue: s.byte()), address: s.address(),
                      data: AdvertisingPayload(s.data(0...31))!, rssi: s.int8())
            })),
            .leExtendedAdvertisingReport(.init(reports: [
                .init(eventType: .init(rawValue: s.word()), addressType: .init(rawValue: s.byte()), address: s.address(),
                      primaryPHY: .init(rawValue: s.byte()), secondaryPHY: .init(rawValue: s.byte()), sid: s.byte(), txPower: s.int8(),
                      rssi: s.int8(), periodicAdvertisingInterval: s.word(), directAddressType: .init(rawValue: s.byte()),
                      directAddress: s.address(), data: s.data(0...229)),
            ])),
            .leAdvertisingSetTerminated(.init(status: .init(rawValue: s.byte()), handle: s.byte(), connectionHandle: s.word(), completedEvents: s.byte())),
            .commandComplete(.init(for: LESetExtendedAdvertisingParameters.self, status: .success,
                                   returnParameters: .init(selectedTxPower: s.int8()), numHCICommandPackets: s.byte())),
            .commandStatus(.init(status: .init(rawValue: s.byte()), numHCICommandPackets: s.byte(), opcode: .init(rawValue: s.word()))),
            .hardwareError(.init(hardwareCode: s.byte())),
        ]
    }

    @Test(arguments: [7, 8, 9, 10, 11, 12, 13, 14] as [UInt64])
    func commandsAndEventsSurviveTheStream(seed: UInt64) throws {
        var source = Source(rng: SplitMix64(seed: seed))
        let commands = Self.commands(&source)
        let events = Self.events(&source)
        let stream = commands.flatMap(\.h4Bytes) + events.flatMap { $0.packet.h4Bytes }

        var decoder = H4StreamDecoder()
        var packets: [H4Packet] = []
        var index = 0
        while index < stream.count {
            let end = min(stream.count, index + Int.random(in: 1...300, using: &source.rng))
            packets += try decoder.feed(stream[index..<end])
            index = end
        }
        #expect(packets.count == commands.count + events.count)

        for (command, packet) in zip(commands, packets) {
            let decoded = try #require(try packet.commandPacket().flatMap { try HCICommandRegistry.decode($0) })
            #expect(AnyHashable(decoded) == AnyHashable(command))
        }
        for (event, packet) in zip(events, packets.dropFirst(commands.count)) {
            let decoded = try HCIEvent(packet: try #require(try packet.eventPacket()))
            #expect(decoded == event)
        }
    }
}
