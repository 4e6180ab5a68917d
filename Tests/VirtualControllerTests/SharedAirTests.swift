// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
#if canImport(Glibc)
import BeaconRadio
import Glibc
#endif
import HCI
import Testing
@testable import VirtualController

/// The shared air's pieces in one process: the datagram format, the path-loss model, and how a
/// heard transmission becomes (or does not become) an advertising report.
@Suite struct SharedAirUnitTests {
    static let transmission = AirTransmission(pdu: .advNonconnInd, address: staticAddress1, addressType: .random,
                                              data: beaconData(minor: 7), txPower: -4, position: Point(x: 1.5, y: -2, z: 0.25))

    @Test func datagramsRoundTripAndRejectDamage() throws {
        let other = AirTransmission(pdu: .advExtInd, address: staticAddress2, addressType: .public, data: [UInt8](repeating: 9, count: 300),
                                    txPower: 10, position: nil, radiatedPowerAt1m: -47.5)
        let datagrams = AirDatagram.encode([Self.transmission, other])
        #expect(datagrams.count == 1)
        #expect(AirDatagram.decode(datagrams[0][...]) == [Self.transmission, other])
        // Cut short, one byte too many, or another magic: dropped whole.
        #expect(AirDatagram.decode(datagrams[0].dropLast()) == nil)
        #expect(AirDatagram.decode((datagrams[0] + [0])[...]) == nil)
        #expect(AirDatagram.decode((Array("XAIR".utf8) + datagrams[0].dropFirst(4))[...]) == nil)
        // Many transmissions split into datagrams of bounded size, none lost.
        let many = [AirTransmission](repeating: Self.transmission, count: 1000)
        let split = AirDatagram.encode(many)
        #expect(split.count > 1 && split.allSatisfy { $0.count < 2 * AirDatagram.targetSize })
        #expect(split.flatMap { AirDatagram.decode($0[...]) ?? [] } == many)
    }

    @Test func pathLossFromMeasuredPower() {
        let data = beaconData()  // measured power 0xC5 = −59
        let origin = Point(x: 0, y: 0)
        #expect(AirPathLoss.rssi(data: data, txPower: 0, from: Point(x: 1, y: 0), to: origin) == -59)
        #expect(AirPathLoss.rssi(data: data, txPower: 0, from: Point(x: 10, y: 0), to: origin) == -79)
        #expect(AirPathLoss.rssi(data: data, txPower: 0, from: Point(x: 0, y: 0, z: 2), to: origin) == -65)
        // No position: as if 1 m away. Not an iBeacon: TX power − 41 dB at 1 m.
        #expect(AirPathLoss.rssi(data: data, txPower: 0, from: nil, to: origin) == -59)
        #expect(AirPathLoss.rssi(data: [0x02, 0x01, 0x06], txPower: 4, from: Point(x: 1, y: 0), to: origin) == -37)
        #expect(Point(parsing: "1,2") == Point(x: 1, y: 2))
        #expect(Point(parsing: "1, 2, 3") == Point(x: 1, y: 2, z: 3))
        for bad in ["1", "1,2,3,4", "a,b", "1,inf", ""] { #expect(Point(parsing: bad) == nil, "\(bad)") }
    }

    /// Each format's own power at 1 m, whatever the radio's transmit power: an AltBeacon's
    /// reference RSSI, an Eddystone frame's power at 0 m less 41 dB; a TLM frame has none.
    @Test func pathLossFromEveryFormatsOwnPower() throws {
        let uuid = try #require(BeaconUUID("25795A1D-C318-47F0-A49D-7A2D1D58C79E"))
        let beacons: [AnyBeacon] = [
            .iBeacon(IBeacon(uuid: uuid, major: 1, minor: 2, measuredPower: -59)),
            .altBeacon(AltBeacon(id: AltBeaconID(prefix: uuid, suffix: 7), referenceRSSI: -59)),
            .eddystoneUID(EddystoneUID(namespace: try #require(EddystoneNamespace("8B0CA750E7A74E14BD99")), instance: EddystoneInstance(1), txPower: -18)),
            .eddystoneURL(try EddystoneURL(url: "https://example.com", txPower: -18)),
        ]
        for beacon in beacons {
            let data = Array(beacon.advertisingData())
            #expect(AnyBeacon.powerAt1m(advertisingData: data) == -59, "\(beacon)")
            #expect(AirPathLoss.rssi(data: data, txPower: 0, from: Point(x: 2, y: 0), to: Point(x: 0, y: 0)) == -65, "\(beacon)")
        }
        let tlm = Array(AnyBeacon.eddystoneTLM(EddystoneTLM(batteryMillivolts: 3000, temperature: 0, advertisingCount: 0, uptimeTenths: 0)).advertisingData())
        #expect(AnyBeacon.powerAt1m(advertisingData: tlm) == nil)
        #expect(AirPathLoss.rssi(data: tlm, txPower: 4, from: nil, to: Point(x: 0, y: 0)) == -37)
    }

    /// What an advertiser radiates: its claim at the TX power of the event that first carried
    /// it, then following the TX power; a new claim recalibrates; frames without one (TLM) at
    /// the last claim's power; `calibration_error` on top.
    @Test func radiatedPowerFollowsTheTXPowerNotTheClaim() throws {
        let uid = Array(AnyBeacon.eddystoneUID(EddystoneUID(namespace: try #require(EddystoneNamespace("8B0CA750E7A74E14BD99")),
                                                            instance: EddystoneInstance(1), txPower: -18)).advertisingData())
        let tlm = Array(AnyBeacon.eddystoneTLM(EddystoneTLM(batteryMillivolts: 3000, temperature: 0, advertisingCount: 0, uptimeTenths: 0)).advertisingData())
        var emission = AirEmission()
        // Never claimed: TX power less the first metre's 41 dB.
        #expect(emission.radiatedPowerAt1m(data: tlm, txPower: 0) == -41)
        #expect(emission.radiatedPowerAt1m(data: uid, txPower: 0) == -59)
        #expect(emission.radiatedPowerAt1m(data: tlm, txPower: 0) == -59, "TLM at the UID frame's power")
        #expect(emission.radiatedPowerAt1m(data: uid, txPower: -20) == -79, "the same claim, 20 dB less radiated")
        #expect(emission.radiatedPowerAt1m(data: tlm, txPower: -20) == -79)
        // A new claim (a reconfigured beacon, a walk's step) is true at the TX power it comes with.
        let louder = Array(AnyBeacon.iBeacon(IBeacon(uuid: try #require(BeaconUUID("25795A1D-C318-47F0-A49D-7A2D1D58C79E")), major: 1, minor: 2,
                                                     measuredPower: -50)).advertisingData())
        #expect(emission.radiatedPowerAt1m(data: louder, txPower: -20) == -50)
        emission.calibrationError = -6
        #expect(emission.radiatedPowerAt1m(data: louder, txPower: -20) == -56)
        // Heard through the air: the radiated power, not the data's claim.
        var reception = AirReception(channel: .clean)
        let sent = AirTransmission(pdu: .advNonconnInd, address: staticAddress1, addressType: .random, data: beaconData(), txPower: 0,
                                   position: Point(x: 2, y: 0), radiatedPowerAt1m: -70)
        #expect(reception.take(sent, at: Point(x: 0, y: 0)).map(\.1) == [-76])
    }

    @Test func heardOnlyWhileScanningInTheFamilyTheHostChose() throws {
        let legacy = Bench()
        legacy.controller.hear(Self.transmission, rssi: -70)
        #expect(legacy.controller.takeEvent() == nil, "not scanning: nothing")
        legacy.succeed(HCISetEventMask(.default.union(.leMeta)), LESetEventMask(.default.union(.advertisingReport)),
                       LESetScanParameters(), LESetScanEnable(true))
        legacy.controller.hear(Self.transmission, rssi: -70)
        let report = try LEAdvertisingReportEvent(packet: try HCIEventPacket(bytes: try #require(legacy.controller.takeEvent()).dropFirst()))
        #expect(report.reports.map(\.rssi) == [-70])
        #expect(report.reports.first?.eventType == .advNonconnInd)
        #expect(report.reports.first.map { Array($0.data) } == beaconData(minor: 7))
        // A legacy scanner never hears extended PDUs.
        var extended = Self.transmission
        extended.pdu = .advExtInd
        legacy.controller.hear(extended, rssi: -70)
        #expect(legacy.controller.takeEvent() == nil)

        let ext = Bench()
        ext.succeed(HCISetEventMask(.default.union(.leMeta)), LESetEventMask(.default.union(.extendedAdvertisingReport)),
                    LESetExtendedScanParameters(le1M: .init(interval: 0x10, window: 0x10)), LESetExtendedScanEnable(true))
        ext.controller.hear(Self.transmission, rssi: -61)
        let extReport = try LEExtendedAdvertisingReportEvent(packet: try HCIEventPacket(bytes: try #require(ext.controller.takeEvent()).dropFirst()))
        #expect(extReport.reports.first?.eventType == [.legacyPDU])
        #expect(extReport.reports.first?.rssi == -61)
        #expect(extReport.reports.first?.data == beaconData(minor: 7))
        ext.succeed(LESetExtendedScanEnable(false))
        ext.controller.hear(Self.transmission, rssi: -61)
        #expect(ext.controller.takeEvent() == nil, "scanning off: nothing")
    }
}

/// Two controllers joined to one private air directory, in real time: what one advertises, the
/// other reports while it scans, with the RSSI of the distance between the placed advertiser and
/// the receiver. The only wait is for the report itself (a hang detector bounds it).
@Suite struct AirLinkTests {
    /// The first report `scanner` makes (nil when none comes within the hang detector's bound).
    static func firstReport(_ scanner: VirtualController) async throws -> LEAdvertisingReportEvent.Report? {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if let event = scanner.takeEvent(), let packet = try? HCIEventPacket(bytes: event.dropFirst()),
               let report = (try? LEAdvertisingReportEvent(packet: packet))?.reports.first {
                return report
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        return nil
    }

    /// `advertiser` sends the minor-5 beacon, `scanner` scans.
    static func startAdvertisingAndScanning(_ advertiser: VirtualController, _ scanner: VirtualController) {
        for command in [HCISetEventMask(.default.union(.leMeta)).h4Bytes, LESetEventMask(.default.union(.advertisingReport)).h4Bytes,
                        LESetScanParameters().h4Bytes, LESetScanEnable(true).h4Bytes] {
            _ = scanner.exchange(command)
        }
        for command in [LESetAdvertisingParameters(intervalMin: 0x00A0, intervalMax: 0x00A0, advertisingType: .nonConnectableUndirected).h4Bytes,
                        LESetAdvertisingData(AdvertisingPayload(beaconData(minor: 5))!).h4Bytes, LESetAdvertisingEnable(true).h4Bytes] {
            _ = advertiser.exchange(command)
        }
    }

    @Test func aScanningControllerHearsAnotherOnTheSharedAir() async throws {
        let directory = "/tmp/beacon-air-test-\(UInt32.random(in: 0...UInt32.max))"
        let air = SharedAir(directory: directory)
        let advertiser = VirtualController(), scanner = VirtualController()
        let sending = try AirLink(controller: advertiser, air: air)
        let hearing = try AirLink(controller: scanner, air: air, receiver: Point(x: 3, y: 4))
        defer {
            sending.close()
            hearing.close()
            rmdir(directory)
        }
        sending.place(address: advertiser.configuration.publicAddress, at: Point(x: 0, y: 0))
        Self.startAdvertisingAndScanning(advertiser, scanner)
        let heard = try #require(try await Self.firstReport(scanner), "no report within the hang detector's bound")
        #expect(Array(heard.data) == beaconData(minor: 5))
        #expect(heard.address == advertiser.configuration.publicAddress)
        // 5 m from the advertiser: −59 − 20·log10(5) = −72.98 → −73.
        #expect(heard.rssi == -73)
    }

    @Test func aReceiverThatFollowsTheWalkerHearsFromWhereTheWalkerIs() async throws {
        let directory = "/tmp/beacon-air-test-\(UInt32.random(in: 0...UInt32.max))"
        let air = SharedAir(directory: directory)
        let advertiser = VirtualController(), scanner = VirtualController()
        let sending = try AirLink(controller: advertiser, air: air)
        // Stands at the origin, next to the advertiser, until the walker is heard.
        let hearing = try AirLink(controller: scanner, air: air)
        hearing.followsWalker = true
        defer {
            sending.close()
            hearing.close()
            rmdir(directory)
        }
        sending.place(address: advertiser.configuration.publicAddress, at: Point(x: 0, y: 0))
        sending.announceWalker(at: Point(x: 3, y: 4))
        Self.startAdvertisingAndScanning(advertiser, scanner)
        // Every report once the walker is heard comes from the walker's place, 5 m away.
        #expect(try await Self.report(scanner, rssi: -73), "the receiver moved to the walker")
        #expect(hearing.receiver == Point(x: 3, y: 4))
        // Walks on: 1 m away now.
        sending.announceWalker(at: Point(x: 0, y: 1))
        #expect(try await Self.report(scanner, rssi: -59), "the receiver moved with the walker")
        #expect(hearing.receiver == Point(x: 0, y: 1))
    }

    /// Whether `scanner` reports at `rssi` within the hang detector's bound.
    static func report(_ scanner: VirtualController, rssi: Int8) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if let event = scanner.takeEvent(), let packet = try? HCIEventPacket(bytes: event.dropFirst()),
               let report = (try? LEAdvertisingReportEvent(packet: packet))?.reports.first {
                if report.rssi == rssi { return true }
            } else {
                try await Task.sleep(for: .milliseconds(5))
            }
        }
        return false
    }

    @Test func walkerDatagramsRoundTripAndMalformedOnesAreDropped() {
        let point = Point(x: -0.5, y: 1.25, z: 2)
        #expect(AirWalkerDatagram.decode(AirWalkerDatagram.encode(point)[...]) == point)
        #expect(AirWalkerDatagram.decode(AirWalkerDatagram.encode(point).dropLast()) == nil)
        var nan = AirWalkerDatagram.encode(point)
        nan.replaceSubrange(5..<13, with: Array(repeating: 0xFF, count: 8))
        #expect(AirWalkerDatagram.decode(nan[...]) == nil)
        #expect(AirDatagram.decode(AirWalkerDatagram.encode(point)[...]) == nil, "not mistaken for advertising events")
    }
}
