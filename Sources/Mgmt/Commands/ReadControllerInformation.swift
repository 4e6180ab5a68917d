// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import HCI

/// Read Controller Information — BlueZ doc/mgmt-api.txt:
///
/// ```
/// Command Code:       0x0004
/// Controller Index:   <controller id>
/// Command Parameters:
/// Return Parameters:  Address (6 Octets)
///                     Bluetooth_Version (1 Octet)
///                     Manufacturer (2 Octets)
///                     Supported_Settings (4 Octets)
///                     Current_Settings (4 Octets)
///                     Class_Of_Device (3 Octets)
///                     Name (249 Octets)
///                     Short_Name (11 Octets)
/// ```
/// "The Bluetooth_Version parameter defines the version of the Bluetooth core specification":
/// the HCI version the controller reported, which sets the shortest non-connectable interval
/// (100 ms before 5.0, 20 ms from 5.0 on). Current_Settings bit 0 is Powered.
public struct ReadControllerInformation: MgmtCommand {
    public static let opcode = MgmtOpcode(rawValue: 0x0004)
    public static let name = "Read Controller Information"

    public init() {}
    public init(decodingParameters reader: inout HCIReader) throws(HCIDecodingError) {}
    public func encodeParameters(into writer: inout HCIWriter) {}

    /// The reply's parameters.
    public struct ReturnParameters: MgmtReturnParameters {
        public var address: BluetoothAddress
        public var bluetoothVersion: HCIVersion
        public var manufacturer: UInt16
        public var supportedSettings: UInt32
        public var currentSettings: UInt32
        public var classOfDevice: UInt32
        /// Name and Short_Name as sent (NUL-padded UTF-8).
        public var name: [UInt8]
        public var shortName: [UInt8]

        public init(address: BluetoothAddress, bluetoothVersion: HCIVersion, manufacturer: UInt16, supportedSettings: UInt32,
                    currentSettings: UInt32, classOfDevice: UInt32 = 0, name: [UInt8] = [], shortName: [UInt8] = []) {
            self.address = address
            self.bluetoothVersion = bluetoothVersion
            self.manufacturer = manufacturer
            self.supportedSettings = supportedSettings
            self.currentSettings = currentSettings
            self.classOfDevice = classOfDevice
            self.name = Array(name.prefix(Self.nameLength))
            self.shortName = Array(shortName.prefix(Self.shortNameLength))
        }

        static let nameLength = 249
        static let shortNameLength = 11

        public init(decoding reader: inout HCIReader) throws(HCIDecodingError) {
            address = try reader.readAddress("Address")
            bluetoothVersion = HCIVersion(rawValue: try reader.readUInt8("Bluetooth_Version"))
            manufacturer = try reader.readUInt16("Manufacturer")
            supportedSettings = try reader.readUInt32("Supported_Settings")
            currentSettings = try reader.readUInt32("Current_Settings")
            classOfDevice = try reader.readUInt24("Class_Of_Device")
            name = Array(try reader.readBytes(Self.nameLength, "Name"))
            shortName = Array(try reader.readBytes(Self.shortNameLength, "Short_Name"))
        }

        public func encode(into writer: inout HCIWriter) {
            writer.write(address)
            writer.write(bluetoothVersion.rawValue)
            writer.write(manufacturer)
            writer.write(supportedSettings)
            writer.write(currentSettings)
            writer.writeUInt24(classOfDevice)
            for i in 0..<Self.nameLength { writer.write(i < name.count ? name[i] : 0) }
            for i in 0..<Self.shortNameLength { writer.write(i < shortName.count ? shortName[i] : 0) }
        }

        /// Current_Settings bit 0.
        public var isPowered: Bool { currentSettings & 1 != 0 }
    }
}
