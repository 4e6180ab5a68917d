// SPDX-License-Identifier: GPL-2.0-or-later

/// Read Local Supported Commands — Core Vol 4 Part E §7.4.2, opcode 0x1002.
///
/// Parameters: none. Returns:
/// ```
/// Status              1 octet
/// Supported_Commands 64 octets  bit mask, octet/bit per command in §6.27
/// ```
@frozen
public struct HCIReadLocalSupportedCommands: HCICommand {
    public static let opcode = HCIOpcode(rawValue: 0x1002)
    public static let name = "Read Local Supported Commands"

    @inlinable public init() {}
    @inlinable public init(decodingParameters reader: inout HCIReader) throws(HCIDecodingError) {}
    @inlinable public func encodeParameters(into writer: inout HCIWriter) {}

    @frozen
    public struct ReturnParameters: HCIReturnParameters {
        public static let octetCount = 64
        /// Exactly 64 octets.
        public private(set) var octets: [UInt8]

        /// `octets` shorter than 64 are zero-padded; longer is a programming error.
        public init(octets: [UInt8]) {
            precondition(octets.count <= Self.octetCount, "Supported_Commands has 64 octets")
            self.octets = octets + [UInt8](repeating: 0, count: Self.octetCount - octets.count)
        }

        /// Whether the command at `octet`, `bit` of the table in Core Vol 4 Part E §6.27 is supported.
        @inlinable
        public func supports(octet: Int, bit: Int) -> Bool {
            precondition((0..<Self.octetCount).contains(octet) && (0..<8).contains(bit))
            return octets[octet] & (1 << UInt8(bit)) != 0
        }

        public mutating func set(octet: Int, bit: Int) {
            precondition((0..<Self.octetCount).contains(octet) && (0..<8).contains(bit))
            octets[octet] |= 1 << UInt8(bit)
        }

        public init(decoding reader: inout HCIReader) throws(HCIDecodingError) {
            octets = Array(try reader.readBytes(Self.octetCount, "Supported_Commands"))
        }

        @inlinable
        public func encode(into writer: inout HCIWriter) { writer.write(contentsOf: octets) }
    }
}
