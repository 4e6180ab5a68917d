// SPDX-License-Identifier: GPL-2.0-or-later

extension IBeacon {
    /// Number of bytes ``encode(flags:into:)`` writes: 30 with a flags structure, 27 without.
    @inlinable
    public static func encodedSize(flags: BeaconFlags) -> Int {
        IBeaconFormat.manufacturerStructureSize + (flags.byte == nil ? 0 : IBeaconFormat.flagsStructureSize)
    }

    /// Writes the advertising data into `buffer` and returns the number of bytes written:
    ///
    ///     02 01 06 | 1A FF 4C 00 02 15 | uuid[16] | major (BE) | minor (BE) | power (signed)
    ///
    /// - Precondition: `buffer.count >= IBeacon.encodedSize(flags:)`.
    @inlinable
    public func encode(flags: BeaconFlags = .generalDiscoverable, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let size = Self.encodedSize(flags: flags)
        precondition(buffer.count >= size, "an iBeacon payload needs \(size) bytes")
        let i = flags.write(into: buffer)
        buffer[i] = IBeaconFormat.manufacturerStructureLength
        buffer[i + 1] = ADType.manufacturerSpecificData.rawValue
        // Company identifier: little-endian, like everything in Bluetooth except the beacon fields.
        buffer.storeBytes(of: IBeaconFormat.appleCompanyID.littleEndian, toByteOffset: i + 2, as: UInt16.self)
        buffer[i + 4] = IBeaconFormat.beaconType
        buffer[i + 5] = IBeaconFormat.beaconLength
        uuid.write(to: buffer, at: i + 6)
        // Major and minor: big-endian (Apple's "Proximity Beacon Specification").
        buffer.storeBytes(of: major.bigEndian, toByteOffset: i + 22, as: UInt16.self)
        buffer.storeBytes(of: minor.bigEndian, toByteOffset: i + 24, as: UInt16.self)
        buffer[i + 26] = UInt8(bitPattern: measuredPower)
        return size
    }

    /// The advertising data as a fixed-size value (no heap allocation).
    @inlinable
    public func advertisingData(flags: BeaconFlags = .generalDiscoverable) -> AdvertisingPayload {
        AdvertisingPayload { encode(flags: flags, into: $0) }
    }
}
