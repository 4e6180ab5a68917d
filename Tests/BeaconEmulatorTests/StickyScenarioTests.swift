// SPDX-License-Identifier: GPL-2.0-or-later
import Testing
import BeaconAdapters
import BeaconEmulator
import BeaconProfiles
import HCI
import HCITransport
import Synchronization
import VirtualController

/// A transport to the virtual controller that keeps every command packet it carries.
final class RecordingTransport: HCITransport {
    let inner: VirtualTransport
    private let sent = Mutex<[[UInt8]]>([])
    init(_ inner: VirtualTransport) { self.inner = inner }
    var adapterName: String { inner.adapterName }
    func send(_ packet: [UInt8]) throws(TransportError) {
        sent.withLock { $0.append(packet) }
        try inner.send(packet)
    }
    func receive(timeout: Duration) throws(TransportError) -> [UInt8]? { try inner.receive(timeout: timeout) }
    func close() { inner.close() }

    /// The commands sent so far: opcode and parameters (H4 indicator 0x01, opcode, length, parameters).
    var commands: [(opcode: UInt16, parameters: [UInt8])] {
        sent.withLock { $0 }.filter { $0.first == 0x01 && $0.count >= 4 }.map { (UInt16($0[1]) | UInt16($0[2]) << 8, Array($0[4...])) }
    }
}

/// A scenario played step by step on the strict virtual controller: when a beacon appears or
/// disappears, the beacons that stay on air get no command at all (no disable, no enable, no
/// new address), only the beacon that changes does.
@Suite struct StickyScenarioTests {
    /// `gate` is declared first but hidden: when it appears, a fresh plan would give it set 0
    /// and move every other beacon up one set.
    static let text = """
        fleet:
          defaults: {uuid: 8F0C4E62-3B1A-4C7E-9D52-6A1F0B2C3D4E}
          beacons:
            - {name: gate, major: 1, minor: 0}
            - {name: hall, major: 1, minor: 1}
            - {name: shop, major: 1, minor: 2}
            - {name: cafe, major: 1, minor: 3}
        hidden: [gate]
        steps:
          - {at: 1s, show: gate}
          - {at: 2s, hide: hall}
          - {at: 3s, show: hall}
        duration: 4s

        """

    /// The advertising handles a command concerns (every set of an enable; the handle of the others).
    static func handles(_ c: (opcode: UInt16, parameters: [UInt8])) -> [UInt8] {
        if c.opcode == LESetExtendedAdvertisingEnable.opcode.rawValue {
            let count = Int(c.parameters[1])
            return (0..<count).map { c.parameters[2 + 4 * $0] }
        }
        let perSet = [LESetExtendedAdvertisingParameters.opcode, LESetAdvertisingSetRandomAddress.opcode, LESetExtendedAdvertisingData.opcode,
                      LERemoveAdvertisingSet.opcode].map(\.rawValue)
        return perSet.contains(c.opcode) ? [c.parameters[0]] : []
    }

    @Test func stayingBeaconsGetNoCommandWhenOneAppearsOrLeaves() async throws {
        let timeline = ScenarioTimeline(try ScenarioLoader.parse(Self.text, file: "sticky.yaml"))
        let transport = RecordingTransport(VirtualTransport(controller: try VirtualController(options: ["sets": "16"])))
        let connection = AdapterConnection(spec: .virtual(options: [:]), hci: HCIController(transport: transport, commandTimeout: .seconds(10)))
        let fleet = RunningFleet(connections: [connection])
        let started = try await fleet.start(timeline.initialState.onAir)
        var handleOf = Dictionary(uniqueKeysWithValues: started.placements.map { ($0.beacon.name, $0.advertiser) })
        #expect(handleOf == ["hall": 0, "shop": 1, "cafe": 2])
        let moments = timeline.moments.filter { !$0.isNextPass }
        #expect(moments.count == 3)
        for moment in moments {
            let before = transport.commands.count
            #expect(await fleet.settled(fleet.update(moment.state.onAir)) == .applied)
            let plan = try #require(fleet.currentPlan)
            let now = Dictionary(uniqueKeysWithValues: plan.placements.map { ($0.beacon.name, $0.advertiser) })
            let staying = Set(now.keys).intersection(handleOf.keys)
            for name in staying { #expect(now[name] == handleOf[name], "\(name) moved at \(moment.time) s") }
            let touched = Set(transport.commands[before...].flatMap(Self.handles))
            let stayingHandles = Set(staying.map { now[$0]! })
            #expect(touched.isDisjoint(with: stayingHandles), "at \(moment.time) s the staying beacons' sets got commands: \(touched)")
            #expect(!touched.isEmpty, "at \(moment.time) s something changed, so something was sent")
            handleOf = now
        }
        #expect(handleOf == ["gate": 3, "hall": 0, "shop": 1, "cafe": 2])
        #expect(await fleet.stop().isClean)
    }
}
