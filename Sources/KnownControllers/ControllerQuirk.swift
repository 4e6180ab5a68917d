// SPDX-License-Identifier: GPL-2.0-or-later
import HCI

/// One way a real controller departs from what it reports or from the Core specification, as
/// users' traces show it. The virtual controller and the Bumble harness both take these
/// (`-i virtual:model=NAME`, `bumble_link.py --model NAME` or `--quirks`), so beacon's handling
/// of each is tested against the misbehaviour, not against a controller that follows the spec.
public enum ControllerQuirk: Hashable, Sendable, CustomStringConvertible {
    /// The command is listed in Read Local Supported Commands (and its feature bit set) but the
    /// firmware answers it Unknown HCI Command (0x01): Intel AX211 firmware that fails LE Set
    /// Extended Advertising Data.
    case unknown(HCIOpcode)
    /// The command is never answered, neither Command Complete nor Command Status: the host's
    /// wait can only time out.
    case noReply(HCIOpcode)
    /// Scannable and non-connectable advertising below this interval is refused with Invalid
    /// HCI Command Parameters (0x12), whatever version the controller claims: a clone that says
    /// Bluetooth 5.0 but keeps 4.x's 100 ms floor.
    case intervalFloor(milliseconds: Int)

    /// `unknown:le-set-extended-advertising-data`, `no-reply:le-read-transmit-power`,
    /// `interval-floor:100`: the form `--quirks` takes and the catalogue's JSON carries.
    public var description: String {
        switch self {
        case let .unknown(opcode): "unknown:" + Self.slug(for: opcode)
        case let .noReply(opcode): "no-reply:" + Self.slug(for: opcode)
        case let .intervalFloor(milliseconds): "interval-floor:\(milliseconds)"
        }
    }

    /// The kinds `init(parsing:)` takes.
    public static let kinds = ["unknown", "no-reply", "interval-floor"]

    /// Parses one quirk in the form of ``description``; the error says what would parse.
    public init(parsing text: String) throws(ControllerQuirkError) {
        guard let colon = text.firstIndex(of: ":") else { throw .malformed(text) }
        let kind = String(text[..<colon]), argument = String(text[text.index(after: colon)...])
        switch kind {
        case "unknown", "no-reply":
            guard let opcode = Self.opcode(forSlug: argument) else { throw .unknownCommand(text, command: argument) }
            self = kind == "unknown" ? .unknown(opcode) : .noReply(opcode)
        case "interval-floor":
            // 20 ms is the lowest any advertising may use, 10.24 s the highest (Core Vol 4 Part E §7.8.5).
            guard let ms = Int(argument), (20...10_240).contains(ms) else { throw .invalidFloor(text) }
            self = .intervalFloor(milliseconds: ms)
        default:
            throw .malformed(text)
        }
    }

    /// A command's name as the quirks spell it: the spec's name in lower case, words joined by
    /// hyphens (`LE Set Extended Advertising Data` → `le-set-extended-advertising-data`), which is
    /// also how the Bumble harness names Bumble's command classes. Unmodelled opcodes as `0x2039`.
    public static func slug(for opcode: HCIOpcode) -> String {
        guard let type = HCICommandRegistry.commandType(for: opcode) else {
            let hex = String(opcode.rawValue, radix: 16, uppercase: true)
            return "0x" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }
        return slug(forName: type.name)
    }

    static func slug(forName name: String) -> String {
        String(name.lowercased().map { $0 == " " || $0 == "_" ? "-" : $0 })
    }

    /// The opcode of a command named as ``slug(for:)`` names it, or given as `0x2039`.
    public static func opcode(forSlug slug: String) -> HCIOpcode? {
        if slug.lowercased().hasPrefix("0x"), slug.count == 6, let raw = UInt16(slug.dropFirst(2), radix: 16) { return HCIOpcode(rawValue: raw) }
        return HCICommandRegistry.all.first { Self.slug(forName: $0.name) == slug }?.opcode
    }
}

extension Sequence<ControllerQuirk> {
    /// The floor an `intervalFloor` quirk sets, in milliseconds, if one is among these.
    public var intervalFloorMilliseconds: Int? {
        for case let .intervalFloor(ms) in self { return ms }
        return nil
    }
}

/// A quirk that does not parse, with what would.
public enum ControllerQuirkError: Error, Hashable, Sendable, CustomStringConvertible {
    case malformed(String)
    case unknownCommand(String, command: String)
    case invalidFloor(String)

    public var description: String {
        switch self {
        case let .malformed(text):
            "quirk '\(text)': expected KIND:ARGUMENT with KIND one of \(ControllerQuirk.kinds.joined(separator: ", ")) (for example no-reply:le-read-transmit-power)"
        case let .unknownCommand(text, command):
            "quirk '\(text)': no HCI command named '\(command)' (for example le-set-extended-advertising-data, or an opcode such as 0x2039)"
        case let .invalidFloor(text):
            "quirk '\(text)': the floor is a whole number of milliseconds from 20 to 10240"
        }
    }
}
