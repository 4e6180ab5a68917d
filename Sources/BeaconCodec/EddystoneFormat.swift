// SPDX-License-Identifier: GPL-2.0-or-later

/// Byte-level facts of Eddystone (google/eddystone, protocol-specification.md): every frame is
/// service data for the 16-bit service UUID 0xFEAA, announced in the 16-bit service UUID list.
///
///     02 01 06 | 03 03 AA FE | LL 16 AA FE | frame type | frame …
///
/// The UUID is little-endian on the air (`AA FE`); the frames' own fields are big-endian.
public enum EddystoneFormat {
    /// The Eddystone service UUID (Bluetooth SIG assigned number, Google).
    public static let serviceUUID: UInt16 = 0xFEAA
    public static let uidFrameType: UInt8 = 0x00
    public static let urlFrameType: UInt8 = 0x10
    public static let tlmFrameType: UInt8 = 0x20
    /// Unencrypted TLM; 0x01 is the encrypted (eTLM) layout, which needs the beacon's key.
    public static let tlmVersion: UInt8 = 0x00
    /// UID frame: type, ranging data, namespace 10, instance 6, 2 reserved (RFU) bytes.
    public static let uidFrameSize = 20
    /// TLM frame: type, version, battery 2, temperature 2, advertising count 4, uptime 4.
    public static let tlmFrameSize = 14
    /// URL frame without the URL: type, TX power, scheme prefix.
    public static let urlFrameHeaderSize = 3
    /// The longest encoded URL (after the scheme byte): what fits a 31-byte legacy payload.
    public static let urlMaximumLength = 17
    /// dB lost over the first metre, by which Eddystone relates its TX power at 0 m to the power
    /// received at 1 m (measure at 1 m, add 41: the specification's advice).
    public static let lossOverFirstMetre = 41
    /// The power at 0 m a UID or URL frame carries when none is given: the default power at 1 m
    /// (``IBeacon/defaultMeasuredPower``, iBeacon's and AltBeacon's usual calibration) plus
    /// ``lossOverFirstMetre``, −18 dBm, so that every format's default ranges the same. Profiles
    /// (`power_at_0m`), `encode --power-at-0m` and the codec share it.
    public static let defaultPowerAt0m: Int8 = IBeacon.defaultMeasuredPower + Int8(lossOverFirstMetre)
    /// The TX power at 0 m the specification allows in UID and URL frames, dBm.
    public static let txPowerRange: ClosedRange<Int> = -100...20
    /// `03 03 AA FE`: the complete 16-bit service UUID list.
    public static let uuidListSize = 4
    /// `LL 16 AA FE` before the frame.
    public static let serviceDataHeaderSize = 4

    /// Payload size for a frame of `frameSize` bytes.
    static func encodedSize(frameSize: Int, flags: BeaconFlags) -> Int {
        flags.structureSize + uuidListSize + serviceDataHeaderSize + frameSize
    }

    /// Writes flags, the UUID list and the service data header; returns where the frame starts.
    static func writeHeader(frameSize: Int, flags: BeaconFlags, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let size = encodedSize(frameSize: frameSize, flags: flags)
        precondition(buffer.count >= size, "an Eddystone payload of this frame needs \(size) bytes")
        var i = flags.write(into: buffer)
        buffer[i] = 0x03
        buffer[i + 1] = ADType.complete16BitUUIDs.rawValue
        buffer.storeBytes(of: serviceUUID.littleEndian, toByteOffset: i + 2, as: UInt16.self)
        i += uuidListSize
        buffer[i] = UInt8(1 + 2 + frameSize)  // AD type + UUID + frame
        buffer[i + 1] = ADType.serviceData16BitUUID.rawValue
        buffer.storeBytes(of: serviceUUID.littleEndian, toByteOffset: i + 2, as: UInt16.self)
        return i + serviceDataHeaderSize
    }

    /// Whether a 16-bit service UUID list (little-endian pairs) names Eddystone.
    static func listsEddystone(_ data: UnsafeRawBufferPointer) -> Bool {
        var i = 0
        while i + 1 < data.count {
            if data[i] == 0xAA, data[i + 1] == 0xFE { return true }
            i += 2
        }
        return false
    }
}
