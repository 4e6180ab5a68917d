// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import PropertyBased
import Testing

/// Random beacons and random (or damaged) bytes: round trips hold, and decoding never traps.
@Suite struct PropertyTests {
    @Test func encodeThenDecodeIsTheIdentity() async {
        await propertyCheck(
            count: 1000,
            input: Gen.uint64(), Gen.uint64(), Gen.uint16(), Gen.uint16(), Gen.int8(), Gen<BeaconFlags>.case
        ) { high, low, major, minor, power, flags throws in
            let beacon = IBeacon(uuid: BeaconUUID(high: high, low: low), major: major, minor: minor, measuredPower: power)
            let payload = beacon.advertisingData(flags: flags)
            #expect(payload.count == IBeacon.encodedSize(flags: flags))
            #expect(try IBeacon(decoding: payload) == beacon)
            #expect(try IBeacon(decoding: Array(payload), options: .lenient) == beacon)
            // As HCI carries it: zero-padded to 31 bytes.
            let padded = withUnsafeBytes(of: payload.padded) { Array($0) }
            #expect(try IBeacon(decoding: padded) == beacon)
            #expect(Hex.bytes(payload.description) == Array(payload))
            if let f = flags.byte { #expect(Array(payload.prefix(3)) == [0x02, 0x01, f]) }
        }
    }

    @Test func textFormsRoundTrip() async {
        await propertyCheck(count: 500, input: Gen.uint64(), Gen.uint64(), Gen.uint64(in: 0...0xFFFF_FFFF_FFFF)) { high, low, address in
            let uuid = BeaconUUID(high: high, low: low)
            #expect(BeaconUUID(uuid.description) == uuid)
            #expect(BeaconUUID(uuid.description.lowercased()) == uuid)
            #expect(BeaconUUID(uuid.description.filter { $0 != "-" }) == uuid)
            #expect(BeaconUUID(bytes: uuid.bytes) == uuid)
            let bd = BluetoothAddress(address)
            #expect(BluetoothAddress(bd.description) == bd)
            #expect(BluetoothAddress(bd.description.lowercased().replacingOccurrences(of: ":", with: "-")) == bd)
        }
    }

    @Test func arbitraryBytesNeverTrap() async {
        await propertyCheck(count: 2000, input: Gen.uint8().array(of: 0...40)) { bytes in
            checkDecodingInvariants(bytes)
        }
    }

    /// Pure random bytes rarely look like AD structures; damaged valid payloads do.
    @Test func damagedPayloadsNeverTrap() async {
        let mutation = zip(Gen.int(in: 0...4), Gen.int(in: 0...40), Gen.uint8())
        await propertyCheck(
            count: 2000,
            input: Gen.uint64(), Gen.uint16(), Gen<BeaconFlags>.case, Gen.bool(), mutation.array(of: 1...4)
        ) { seed, major, flags, pad, mutations in
            let beacon = IBeacon(uuid: BeaconUUID(high: seed, low: ~seed), major: major, minor: ~major)
            var bytes = Array(beacon.advertisingData(flags: flags))
            if pad { bytes += [UInt8](repeating: 0, count: 31 - bytes.count) }
            for (kind, at, value) in mutations {
                let i = at % (bytes.count + 1)
                switch kind {
                case 0 where i < bytes.count: bytes[i] = value
                case 1: bytes.insert(value, at: i)
                case 2 where i < bytes.count: bytes.remove(at: i)
                case 3: bytes.removeSubrange(i...)
                default:  // hit a length byte of the canonical layout: most damage that matters
                    let lengthByte = [0, 3, 30][Int(value) % 3]
                    if lengthByte < bytes.count { bytes[lengthByte] = UInt8(truncatingIfNeeded: at * 7) }
                }
            }
            checkDecodingInvariants(bytes)
        }
    }
}

/// What must hold for any input, whatever the bytes.
func checkDecodingInvariants(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
    let hex = Hex.string(bytes)
    func decode(_ options: BeaconDecodingOptions) -> Result<IBeacon, BeaconDecodingError> {
        Result { () throws(BeaconDecodingError) in try IBeacon(decoding: bytes, options: options) }
    }
    let strict = decode(.strict)
    let extended = decode(.strictExtended)
    let lenient = decode(.lenient)

    for (result, limit) in [(strict, IBeaconFormat.legacyMaximum), (extended, IBeaconFormat.extendedFragmentMaximum)] {
        guard case .failure(let e) = result else { continue }
        #expect((0...bytes.count).contains(e.offset), "\(hex): \(e)", sourceLocation: sourceLocation)
        guard (0...bytes.count).contains(e.offset) else { continue }
        // Each kind points at what the BeaconDecodingError doc comment says it points at.
        let atStructure = e.offset < bytes.count
        switch e.kind {
        case .tooLong:
            #expect(bytes.count > limit && e.offset == limit, "\(hex): \(e)", sourceLocation: sourceLocation)
        case .noIBeacon:
            #expect(e.offset == bytes.count, "\(hex): \(e)", sourceLocation: sourceLocation)
        case .truncatedStructure:
            #expect(e.offset == bytes.count - 1 && bytes[e.offset] != 0, "\(hex): \(e)", sourceLocation: sourceLocation)
        case .lengthOverrun:
            #expect(atStructure && e.offset + 1 + Int(bytes[e.offset]) > bytes.count, "\(hex): \(e)", sourceLocation: sourceLocation)
        case .zeroLengthFollowedByData:
            #expect(atStructure && bytes[e.offset] == 0 && bytes[e.offset...].contains { $0 != 0 }, "\(hex): \(e)",
                    sourceLocation: sourceLocation)
        case .duplicateFlags:
            #expect(atStructure && e.offset + 1 < bytes.count && bytes[e.offset + 1] == 0x01, "\(hex): \(e)",
                    sourceLocation: sourceLocation)
        case .manufacturerDataTooShort, .notIBeaconType, .wrongManufacturerLength, .duplicateIBeacon:
            #expect(atStructure && e.offset + 1 < bytes.count && bytes[e.offset + 1] == 0xFF, "\(hex): \(e)",
                    sourceLocation: sourceLocation)
        }
    }
    if bytes.count <= IBeaconFormat.legacyMaximum {
        #expect(strict == extended, "the limit is the only difference: \(hex)", sourceLocation: sourceLocation)
    }

    switch lenient {
    case .success: break
    case .failure(let e):
        #expect(e == BeaconDecodingError(.noIBeacon, at: bytes.count), "\(hex): \(e)", sourceLocation: sourceLocation)
    }

    if case .success(let beacon) = strict {
        // Lenient finds whatever strict finds.
        #expect(lenient == .success(beacon), "\(hex)", sourceLocation: sourceLocation)
        // The beacon decoded is the one whose 27 bytes are in the input.
        let structure = Array(beacon.advertisingData(flags: .none))
        let found = bytes.count >= structure.count
            && (0...(bytes.count - structure.count)).contains { Array(bytes[$0..<($0 + structure.count)]) == structure }
        #expect(found, "\(hex) does not contain \(Hex.string(structure))", sourceLocation: sourceLocation)
    }
}
