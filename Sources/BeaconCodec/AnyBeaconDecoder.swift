// SPDX-License-Identifier: GPL-2.0-or-later

/// Recognising any supported beacon in advertising data, strictly or leniently
/// (``BeaconDecodingOptions``).
///
/// Strict: the AD structures are walked once, in order; the first fault wins. Apple manufacturer
/// data is judged exactly as ``IBeacon``'s decoder judges it; manufacturer data of any company
/// with the code `BE AC` must be a whole AltBeacon; service data for 0xFEAA must be a whole UID,
/// URL or unencrypted TLM frame, and 0xFEAA must be in a 16-bit service UUID list (checked after
/// the walk, at the Eddystone structure). Other companies' data, other services and unknown AD
/// types are not ours to judge. One beacon per payload.
///
/// Lenient: the first structure that holds enough of any format wins (reserved bytes, versions
/// and the UUID list unchecked); failing that, the raw iBeacon signature anywhere. The only
/// error is ``AnyBeaconDecodingError/Kind/noBeacon`` at the end of the data.
extension AnyBeacon {
    public init(decoding bytes: UnsafeRawBufferPointer, options: BeaconDecodingOptions = .strict) throws(AnyBeaconDecodingError) {
        switch options.strictness {
        case .strict: self = try Self.decodeStrict(bytes, maximumLength: options.maximumLength)
        case .lenient: self = try Self.decodeLenient(bytes)
        }
    }

    public init(decoding bytes: [UInt8], options: BeaconDecodingOptions = .strict) throws(AnyBeaconDecodingError) {
        let result: Result<AnyBeacon, AnyBeaconDecodingError> = bytes.withUnsafeBytes { raw in
            do throws(AnyBeaconDecodingError) { return .success(try AnyBeacon(decoding: raw, options: options)) } catch { return .failure(error) }
        }
        self = try result.get()
    }

    public init(decoding payload: AdvertisingPayload, options: BeaconDecodingOptions = .strict) throws(AnyBeaconDecodingError) {
        self = try payload.withUnsafeBytes { (raw) throws(AnyBeaconDecodingError) -> AnyBeacon in
            try AnyBeacon(decoding: raw, options: options)
        }
    }

    static func decodeStrict(_ bytes: UnsafeRawBufferPointer, maximumLength: Int) throws(AnyBeaconDecodingError) -> AnyBeacon {
        if bytes.count > maximumLength { throw AnyBeaconDecodingError(.tooLong, at: maximumLength) }
        var walker = ADStructureWalker(bytes)
        var sawFlags = false
        var listsEddystone = false
        var eddystoneAt: Int? = nil
        var found: AnyBeacon? = nil
        while true {
            let next: ADStructure?
            // `throws(…)` spelled out: an untyped `do` would box the error on the heap.
            do throws(BeaconDecodingError) { next = try walker.next() } catch { throw AnyBeaconDecodingError(error) }
            guard let s = next else { break }
            var beacon: AnyBeacon? = nil
            switch s.type {
            case .flags:
                if sawFlags { throw AnyBeaconDecodingError(.duplicateFlags, at: s.offset) }
                sawFlags = true
            case .incomplete16BitUUIDs, .complete16BitUUIDs:
                if EddystoneFormat.listsEddystone(s.data) { listsEddystone = true }
            case .manufacturerSpecificData:
                beacon = try manufacturerBeacon(s, strict: true)
            case .serviceData16BitUUID:
                beacon = try eddystoneBeacon(s, strict: true)
                if beacon != nil { eddystoneAt = s.offset }
            default:
                break
            }
            guard let beacon else { continue }
            if found != nil { throw AnyBeaconDecodingError(.duplicateBeacon, at: s.offset) }
            found = beacon
        }
        guard let beacon = found else { throw AnyBeaconDecodingError(.noBeacon, at: bytes.count) }
        if let at = eddystoneAt, !listsEddystone { throw AnyBeaconDecodingError(.eddystoneUUIDNotListed, at: at) }
        return beacon
    }

    static func decodeLenient(_ bytes: UnsafeRawBufferPointer) throws(AnyBeaconDecodingError) -> AnyBeacon {
        for s in ADStructures(bytes) {
            // Lenient parsing never throws (strict: false); `try?` only satisfies the signature.
            switch s.type {
            case .manufacturerSpecificData:
                if let b = (try? manufacturerBeacon(s, strict: false)) ?? nil { return b }
            case .serviceData16BitUUID:
                if let b = (try? eddystoneBeacon(s, strict: false)) ?? nil { return b }
            default:
                continue
            }
        }
        if let b = IBeacon.bySignature(in: bytes) { return .iBeacon(b) }
        throw AnyBeaconDecodingError(.noBeacon, at: bytes.count)
    }

    /// An AltBeacon (any company, code `BE AC`) or an iBeacon (Apple), `nil` for other data.
    static func manufacturerBeacon(_ s: ADStructure, strict: Bool) throws(AnyBeaconDecodingError) -> AnyBeacon? {
        if AltBeacon.isAltBeacon(s.data) {
            let size = Int(AltBeaconFormat.structureLength) - 1
            if s.data.count == size || (!strict && s.data.count > size) { return .altBeacon(AltBeacon.fields(s.data)) }
            if strict { throw AnyBeaconDecodingError(.altBeaconWrongLength, at: s.offset) }
            return nil
        }
        guard strict else { return IBeacon.leniently(in: s.data).map(AnyBeacon.iBeacon) }
        do throws(BeaconDecodingError) {
            return try IBeacon.strictlyIn(manufacturerStructure: s).map(AnyBeacon.iBeacon)
        } catch {
            throw AnyBeaconDecodingError(error)
        }
    }

    /// An Eddystone frame in service data for 0xFEAA, `nil` for other services.
    static func eddystoneBeacon(_ s: ADStructure, strict: Bool) throws(AnyBeaconDecodingError) -> AnyBeacon? {
        func refuse(_ kind: AnyBeaconDecodingError.Kind) throws(AnyBeaconDecodingError) -> AnyBeacon? {
            if strict { throw AnyBeaconDecodingError(kind, at: s.offset) }
            return nil
        }
        guard s.data.count >= 2 else { return try refuse(.serviceDataTooShort) }
        guard UInt16(s.data[0]) | UInt16(s.data[1]) << 8 == EddystoneFormat.serviceUUID else { return nil }
        let frame = UnsafeRawBufferPointer(rebasing: s.data[2...])
        guard !frame.isEmpty else { return try refuse(.eddystoneWrongLength) }
        switch frame[0] {
        case EddystoneFormat.uidFrameType:
            // Lenient: the reserved bytes may be missing, as some beacons send them.
            let size = EddystoneFormat.uidFrameSize
            guard frame.count == size || (!strict && frame.count >= size - 2) else { return try refuse(.eddystoneWrongLength) }
            if strict, frame[18] != 0 || frame[19] != 0 { return try refuse(.eddystoneReservedNotZero) }
            return .eddystoneUID(EddystoneUID.fields(frame))
        case EddystoneFormat.urlFrameType:
            let header = EddystoneFormat.urlFrameHeaderSize
            guard frame.count >= header, frame.count <= header + EddystoneFormat.urlMaximumLength else {
                return try refuse(.eddystoneWrongLength)
            }
            guard frame[2] <= EddystoneURLCodes.lastScheme else { return try refuse(.eddystoneURLScheme) }
            guard let url = EddystoneURL(scheme: frame[2], encoded: UnsafeRawBufferPointer(rebasing: frame[header...]),
                                         txPower: Int8(bitPattern: frame[1])) else { return try refuse(.eddystoneURLCharacter) }
            return .eddystoneURL(url)
        case EddystoneFormat.tlmFrameType:
            guard frame.count >= 2 else { return try refuse(.eddystoneWrongLength) }
            guard frame[1] == EddystoneFormat.tlmVersion else { return try refuse(.eddystoneTLMVersion) }
            guard frame.count == EddystoneFormat.tlmFrameSize || (!strict && frame.count > EddystoneFormat.tlmFrameSize) else {
                return try refuse(.eddystoneWrongLength)
            }
            return .eddystoneTLM(EddystoneTLM.fields(frame))
        default:
            return try refuse(.eddystoneUnknownFrame)
        }
    }
}
