// SPDX-License-Identifier: GPL-2.0-or-later

/// An unencrypted Eddystone-TLM frame (frame type 0x20, version 0x00): the beacon's telemetry.
/// It carries no identity; beacons interleave it with a UID or URL frame. All fields big-endian.
public struct EddystoneTLM: Hashable, Sendable, CustomStringConvertible {
    /// Battery voltage in mV; 0 when not supported (a mains-powered beacon).
    public var batteryMillivolts: UInt16
    /// Temperature in °C as signed 8.8 fixed point (1/256 °C per bit); ``temperatureNotSupported`` if none.
    public var temperature: Int16
    /// Advertising PDUs sent since power-on or reboot.
    public var advertisingCount: UInt32
    /// Time since power-on or reboot, in 0.1 s.
    public var uptimeTenths: UInt32

    /// 0x8000 (−128 °C): the beacon has no temperature sensor.
    public static let temperatureNotSupported = Int16(bitPattern: 0x8000)

    public init(batteryMillivolts: UInt16 = 0, temperature: Int16 = temperatureNotSupported, advertisingCount: UInt32 = 0, uptimeTenths: UInt32 = 0) {
        self.batteryMillivolts = batteryMillivolts
        self.temperature = temperature
        self.advertisingCount = advertisingCount
        self.uptimeTenths = uptimeTenths
    }

    /// The temperature in °C, `nil` when not supported.
    public var celsius: Double? {
        temperature == Self.temperatureNotSupported ? nil : Double(temperature) / 256
    }

    /// °C in 8.8 fixed point, rounded to 1/256 °C; `nil` outside −128 < t < 128.
    public static func fixedPoint(celsius: Double) -> Int16? {
        let scaled = (celsius * 256).rounded()
        guard scaled > Double(Int16.min), scaled <= Double(Int16.max) else { return nil }
        return Int16(scaled)
    }

    public var description: String {
        let battery = batteryMillivolts == 0 ? "not supported" : "\(batteryMillivolts) mV"
        let temperatureText = celsius.map { "\($0) °C" } ?? "not supported"
        return "eddystone-tlm battery \(battery) temperature \(temperatureText) advertising count \(advertisingCount) uptime \(uptimeTenths / 10).\(uptimeTenths % 10) s"
    }

    /// 25 bytes with flags, 22 without.
    public static func encodedSize(flags: BeaconFlags) -> Int {
        EddystoneFormat.encodedSize(frameSize: EddystoneFormat.tlmFrameSize, flags: flags)
    }

    /// Writes `02 01 06 | 03 03 AA FE | 11 16 AA FE | 20 00 | battery | temperature | count | uptime`
    /// and returns the number of bytes written.
    public func encode(flags: BeaconFlags = .generalDiscoverable, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let i = EddystoneFormat.writeHeader(frameSize: EddystoneFormat.tlmFrameSize, flags: flags, into: buffer)
        buffer[i] = EddystoneFormat.tlmFrameType
        buffer[i + 1] = EddystoneFormat.tlmVersion
        buffer.storeBytes(of: batteryMillivolts.bigEndian, toByteOffset: i + 2, as: UInt16.self)
        buffer.storeBytes(of: temperature.bigEndian, toByteOffset: i + 4, as: Int16.self)
        buffer.storeBytes(of: advertisingCount.bigEndian, toByteOffset: i + 6, as: UInt32.self)
        buffer.storeBytes(of: uptimeTenths.bigEndian, toByteOffset: i + 10, as: UInt32.self)
        return i + EddystoneFormat.tlmFrameSize
    }

    /// Reads the frame that starts at `frame[0]`; the caller checked its length and version.
    static func fields(_ frame: UnsafeRawBufferPointer) -> EddystoneTLM {
        EddystoneTLM(
            batteryMillivolts: UInt16(BigEndianBytes.read(frame, at: 2, count: 2)),
            temperature: Int16(bitPattern: UInt16(BigEndianBytes.read(frame, at: 4, count: 2))),
            advertisingCount: UInt32(BigEndianBytes.read(frame, at: 6, count: 4)),
            uptimeTenths: UInt32(BigEndianBytes.read(frame, at: 10, count: 4)))
    }
}
