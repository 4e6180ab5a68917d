// SPDX-License-Identifier: GPL-2.0-or-later

/// How strictly ``IBeacon/init(decoding:options:)-([UInt8],_)`` reads advertising data.
@frozen
public struct BeaconDecodingOptions: Hashable, Sendable {
    /// How much malformed data the decoder forgives.
    public enum Strictness: Hashable, Sendable {
        /// Every structure must be well formed; see ``BeaconDecodingError/Kind`` for what is refused.
        case strict
        /// Find an iBeacon in otherwise odd data: skip malformed or foreign structures, ignore the
        /// size limit, duplicate flags and junk after the end; if walking the structures finds no
        /// iBeacon, search the raw bytes for the `FF 4C 00 02 15` signature (whatever the length
        /// byte before it says). The only error is ``BeaconDecodingError/Kind/noIBeacon``, at the
        /// end of the data; of several iBeacons the first one wins.
        case lenient
    }

    public var strictness: Strictness
    /// The largest payload accepted in strict mode: 31 (legacy) by default; 254 for an extended
    /// advertising fragment; `Int.max` for no limit.
    public var maximumLength: Int

    @inlinable
    public init(strictness: Strictness = .strict, maximumLength: Int = IBeaconFormat.legacyMaximum) {
        self.strictness = strictness
        self.maximumLength = maximumLength
    }

    /// Strict, legacy (31 bytes): what a scanner gets in an LE Advertising Report.
    public static let strict = BeaconDecodingOptions()
    /// Strict, one extended advertising fragment (254 bytes).
    public static let strictExtended = BeaconDecodingOptions(maximumLength: IBeaconFormat.extendedFragmentMaximum)
    /// Lenient: find an iBeacon if there is one.
    public static let lenient = BeaconDecodingOptions(strictness: .lenient, maximumLength: .max)
}

extension IBeacon {
    /// Decodes the iBeacon in advertising data, among any other AD structures.
    @inlinable
    public init(decoding bytes: UnsafeRawBufferPointer, options: BeaconDecodingOptions = .strict) throws(BeaconDecodingError) {
        switch options.strictness {
        case .strict: self = try Self.decodeStrict(bytes, maximumLength: options.maximumLength)
        case .lenient: self = try Self.decodeLenient(bytes)
        }
    }

    /// Decodes the iBeacon in a byte array (see ``init(decoding:options:)-(UnsafeRawBufferPointer,_)``).
    @inlinable
    public init(decoding bytes: [UInt8], options: BeaconDecodingOptions = .strict) throws(BeaconDecodingError) {
        let result: Result<IBeacon, BeaconDecodingError> = bytes.withUnsafeBytes { raw in
            do throws(BeaconDecodingError) { return .success(try IBeacon(decoding: raw, options: options)) } catch { return .failure(error) }
        }
        self = try result.get()
    }

    /// Decodes the iBeacon in an ``AdvertisingPayload``.
    @inlinable
    public init(decoding payload: AdvertisingPayload, options: BeaconDecodingOptions = .strict) throws(BeaconDecodingError) {
        self = try payload.withUnsafeBytes { (raw) throws(BeaconDecodingError) -> IBeacon in
            try IBeacon(decoding: raw, options: options)
        }
    }

    /// Reads the 21 beacon bytes that follow `02 15`.
    @inlinable
    static func fields(_ bytes: UnsafeRawBufferPointer, at i: Int) -> IBeacon {
        let uuid = BeaconUUID(bigEndianBytes: UnsafeRawBufferPointer(rebasing: bytes[i..<(i + 16)]))
        let major = UInt16(bytes[i + 16]) << 8 | UInt16(bytes[i + 17])
        let minor = UInt16(bytes[i + 18]) << 8 | UInt16(bytes[i + 19])
        return IBeacon(uuid: uuid, major: major, minor: minor, measuredPower: Int8(bitPattern: bytes[i + 20]))
    }

    /// Whether manufacturer data begins with Apple's company identifier (`4C 00`, little-endian).
    @inlinable
    static func isApple(_ data: UnsafeRawBufferPointer) -> Bool {
        data.count >= 2 && data[0] == 0x4C && data[1] == 0x00
    }

    /// The iBeacon in one manufacturer-specific structure, strictly: `nil` for another company's
    /// data (not ours to judge), an error for short data or Apple data that is not a whole iBeacon.
    /// Shared with ``AnyBeacon``'s decoder, so both judge Apple data alike. Always inlined, like
    /// the helpers below: the iBeacon decoder's speed is as it was before they were split out.
    @inlinable @inline(__always)
    static func strictlyIn(manufacturerStructure s: ADStructure) throws(BeaconDecodingError) -> IBeacon? {
        guard s.data.count >= 2 else { throw BeaconDecodingError(.manufacturerDataTooShort, at: s.offset) }
        guard isApple(s.data) else { return nil }
        guard s.data.count >= 4, s.data[2] == IBeaconFormat.beaconType, s.data[3] == IBeaconFormat.beaconLength else {
            throw BeaconDecodingError(.notIBeaconType, at: s.offset)
        }
        guard s.data.count == Int(IBeaconFormat.manufacturerStructureLength) - 1 else {
            throw BeaconDecodingError(.wrongManufacturerLength, at: s.offset)
        }
        return fields(s.data, at: 4)
    }

    /// Whether one manufacturer-specific structure holds enough of an iBeacon for lenient decoding.
    @inlinable @inline(__always)
    static func leniently(in data: UnsafeRawBufferPointer) -> IBeacon? {
        guard data.count >= 25, isApple(data), data[2] == IBeaconFormat.beaconType, data[3] == IBeaconFormat.beaconLength else {
            return nil
        }
        return fields(data, at: 4)
    }

    @inlinable
    static func decodeStrict(_ bytes: UnsafeRawBufferPointer, maximumLength: Int) throws(BeaconDecodingError) -> IBeacon {
        if bytes.count > maximumLength {
            throw BeaconDecodingError(.tooLong, at: maximumLength)
        }
        var walker = ADStructureWalker(bytes)
        var sawFlags = false
        var found: IBeacon? = nil
        while let s = try walker.next() {
            switch s.type {
            case .flags:
                if sawFlags { throw BeaconDecodingError(.duplicateFlags, at: s.offset) }
                sawFlags = true
            case .manufacturerSpecificData:
                guard let beacon = try strictlyIn(manufacturerStructure: s) else { continue }
                if found != nil { throw BeaconDecodingError(.duplicateIBeacon, at: s.offset) }
                found = beacon
            default:
                continue
            }
        }
        guard let beacon = found else { throw BeaconDecodingError(.noIBeacon, at: bytes.count) }
        return beacon
    }

    @inlinable
    static func decodeLenient(_ bytes: UnsafeRawBufferPointer) throws(BeaconDecodingError) -> IBeacon {
        // First pass: the structures, as far as they can be walked.
        for s in ADStructures(bytes) where s.type == .manufacturerSpecificData {
            if let beacon = leniently(in: s.data) { return beacon }
        }
        if let beacon = bySignature(in: bytes) { return beacon }
        throw BeaconDecodingError(.noIBeacon, at: bytes.count)
    }

    /// Second pass of lenient decoding: the raw signature anywhere (data glued to junk, bad length
    /// bytes before it).
    @inlinable @inline(__always)
    static func bySignature(in bytes: UnsafeRawBufferPointer) -> IBeacon? {
        let size = IBeaconFormat.manufacturerStructureSize
        var i = 0
        while i + size <= bytes.count {
            if bytes[i + 1] == 0xFF, bytes[i + 2] == 0x4C, bytes[i + 3] == 0x00,
               bytes[i + 4] == IBeaconFormat.beaconType, bytes[i + 5] == IBeaconFormat.beaconLength {
                return fields(bytes, at: i + 6)
            }
            i += 1
        }
        return nil
    }
}
