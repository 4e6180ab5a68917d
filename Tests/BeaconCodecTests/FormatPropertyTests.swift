// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import PropertyBased
import Testing

/// Random beacons of every other format: encode → decode is the identity, strict and lenient,
/// padded as HCI carries it; URLs round-trip as text; random bytes never trap AnyBeacon.
@Suite struct FormatPropertyTests {
    /// Checks one beacon's round trip through every decoding entry point.
    func roundTrip(_ beacon: AnyBeacon, _ flags: BeaconFlags, sourceLocation: SourceLocation = #_sourceLocation) {
        let payload = beacon.advertisingData(flags: flags)
        #expect(payload.count == beacon.encodedSize(flags: flags), sourceLocation: sourceLocation)
        #expect(payload.count <= IBeaconFormat.legacyMaximum, sourceLocation: sourceLocation)
        #expect((try? AnyBeacon(decoding: payload)) == beacon, "\(payload)", sourceLocation: sourceLocation)
        #expect((try? AnyBeacon(decoding: Array(payload), options: .lenient)) == beacon, "\(payload)", sourceLocation: sourceLocation)
        let padded = withUnsafeBytes(of: payload.padded) { Array($0) }
        #expect((try? AnyBeacon(decoding: padded)) == beacon, "\(payload)", sourceLocation: sourceLocation)
        if let f = flags.byte { #expect(Array(payload.prefix(3)) == [0x02, 0x01, f], sourceLocation: sourceLocation) }
    }

    @Test func eddystoneUIDRoundTrips() async {
        await propertyCheck(count: 500, input: Gen.uint64(), Gen.uint16(), Gen.uint64(), Gen.int8(), Gen<BeaconFlags>.case) { high, low, instance, tx, flags in
            let uid = EddystoneUID(namespace: EddystoneNamespace(high: high, low: low), instance: EddystoneInstance(instance), txPower: tx)
            roundTrip(.eddystoneUID(uid), flags)
            #expect(EddystoneNamespace(uid.namespace.description) == uid.namespace)
            #expect(EddystoneInstance(uid.instance.description) == uid.instance)
        }
    }

    @Test func eddystoneTLMRoundTrips() async {
        await propertyCheck(count: 500, input: Gen.uint16(), Gen.int16(), Gen.uint32(), Gen.uint32(), Gen<BeaconFlags>.case) { battery, temperature, count, uptime, flags in
            roundTrip(.eddystoneTLM(EddystoneTLM(batteryMillivolts: battery, temperature: temperature, advertisingCount: count, uptimeTenths: uptime)), flags)
        }
    }

    @Test func altBeaconRoundTrips() async {
        await propertyCheck(count: 500, input: Gen.uint64(), Gen.uint64(), Gen.uint32(), Gen.uint16(), Gen.int8(), Gen.uint8(), Gen<BeaconFlags>.case) {
            high, low, suffix, company, rssi, reserved, flags in
            let id = AltBeaconID(prefix: BeaconUUID(high: high, low: low), suffix: suffix)
            roundTrip(.altBeacon(AltBeacon(manufacturerID: company, id: id, referenceRSSI: rssi, reserved: reserved)), flags)
            #expect(AltBeaconID(id.description) == id)
        }
    }

    /// URL text built from pieces that exercise the expansion codes: it either encodes (and then
    /// expands back to itself, in at most 17 bytes) or is refused as too long by the exact excess.
    @Test func eddystoneURLTextRoundTrips() async {
        let pieces = ["a", "Z", "0", "-", "/", "?", "%", "~", ".", "com", ".com", ".com/", ".org/", ".info", ".info/", ".gov", "x.net", ".biz/", ".edu"]
        await propertyCheck(count: 1000, input: Gen.int(in: 0...3), Gen.int(in: 0...(pieces.count - 1)).array(of: 0...12), Gen.int8(), Gen<BeaconFlags>.case) {
            scheme, indices, tx, flags in
            let text = EddystoneURLCodes.schemes[scheme] + indices.map { pieces[$0] }.joined()
            do throws(EddystoneURLError) {
                let url = try EddystoneURL(url: text, txPower: tx)
                #expect(url.url == text)
                #expect(url.encodedBytes.count <= EddystoneFormat.urlMaximumLength)
                roundTrip(.eddystoneURL(url), flags)
            } catch {
                #expect(error.kind == .tooLong, "\(text): \(error)")
                #expect(error.encodedLength > EddystoneFormat.urlMaximumLength)
                #expect(error.description.contains("\(error.encodedLength) bytes"))
                #expect(error.description.contains("\(error.encodedLength - EddystoneFormat.urlMaximumLength) over"))
            }
        }
    }

    @Test func arbitraryBytesNeverTrap() async {
        await propertyCheck(count: 2000, input: Gen.uint8().array(of: 0...40)) { bytes in
            checkAnyBeaconInvariants(bytes)
        }
    }

    /// Damaged valid payloads of every format: the decoders never trap and their errors point
    /// where the convention says.
    @Test func damagedPayloadsNeverTrap() async {
        let mutation = zip(Gen.int(in: 0...3), Gen.int(in: 0...40), Gen.uint8())
        await propertyCheck(count: 2000, input: Gen.int(in: 0...3), Gen.uint64(), Gen<BeaconFlags>.case, mutation.array(of: 1...3)) { kind, seed, flags, mutations in
            let beacons: [AnyBeacon] = [
                .eddystoneUID(EddystoneUID(namespace: EddystoneNamespace(high: seed, low: 7), instance: EddystoneInstance(~seed))),
                .eddystoneURL(try! EddystoneURL(url: "https://example.com/x")),
                .eddystoneTLM(EddystoneTLM(batteryMillivolts: 3000, temperature: 100, advertisingCount: UInt32(truncatingIfNeeded: seed), uptimeTenths: 9)),
                .altBeacon(AltBeacon(id: AltBeaconID(prefix: BeaconUUID(high: seed, low: seed), suffix: 1))),
            ]
            var bytes = Array(beacons[kind].advertisingData(flags: flags))
            for (how, at, value) in mutations {
                let i = at % (bytes.count + 1)
                switch how {
                case 0 where i < bytes.count: bytes[i] = value
                case 1: bytes.insert(value, at: i)
                case 2 where i < bytes.count: bytes.remove(at: i)
                default: bytes.removeSubrange(i...)
                }
            }
            checkAnyBeaconInvariants(bytes)
        }
    }
}

/// What must hold for AnyBeacon on any input.
func checkAnyBeaconInvariants(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
    let hex = Hex.string(bytes)
    let strict = decodeAny(bytes, .strict)
    let lenient = decodeAny(bytes, .lenient)
    if case .error(let e) = strict {
        #expect((0...bytes.count).contains(e.offset), "\(hex): \(e)", sourceLocation: sourceLocation)
        switch e.kind {
        case .tooLong: #expect(bytes.count > IBeaconFormat.legacyMaximum && e.offset == IBeaconFormat.legacyMaximum, "\(hex)", sourceLocation: sourceLocation)
        case .noBeacon: #expect(e.offset == bytes.count, "\(hex)", sourceLocation: sourceLocation)
        default: #expect(e.offset < bytes.count, "\(hex): \(e)", sourceLocation: sourceLocation)
        }
    }
    if case .error(let e) = lenient {
        #expect(e == AnyBeaconDecodingError(.noBeacon, at: bytes.count), "\(hex): \(e)", sourceLocation: sourceLocation)
    }
    if case .beacon(let b) = strict {
        #expect(lenient == .beacon(b), "lenient finds what strict finds: \(hex)", sourceLocation: sourceLocation)
    }
    // Where IBeacon's strict decoder finds an iBeacon, AnyBeacon finds that iBeacon or a fault in
    // the other formats' structures (a second beacon, a broken Eddystone or AltBeacon structure).
    if let ibeacon = try? IBeacon(decoding: bytes), case .beacon(let b) = strict {
        #expect(b == .iBeacon(ibeacon), "\(hex)", sourceLocation: sourceLocation)
    }
}
