// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import BeaconCodec
import BeaconProfiles

/// An Eddystone or AltBeacon beacon given field by field on the command line, like
/// ``BeaconFieldOptions`` gives an iBeacon: `--namespace --instance` (Eddystone-UID), `--url`
/// (Eddystone-URL), `--tlm [--battery --temperature --advertising-count --uptime]`
/// (Eddystone-TLM), `--altbeacon ID [--manufacturer --rssi --reserved]` (AltBeacon).
struct BeaconFormatFieldOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Eddystone-UID: the namespace, 20 hex digits.", valueName: "hex"))
    var namespace: String?

    @Option(help: ArgumentHelp("Eddystone-UID: the instance, 12 hex digits.", valueName: "hex"))
    var instance: String?

    @Option(help: ArgumentHelp("Eddystone-URL: the URL (http:// or https://, at most 17 bytes once encoded).", valueName: "url"))
    var url: String?

    // `.unconditional`: usually negative. The name of profiles' `power_at_0m`.
    @Option(name: .customLong("power-at-0m"), parsing: .unconditional,
            help: ArgumentHelp("Eddystone-UID/URL: the power at 0 m in dBm, -128 to 127 (default \(EddystoneFormat.defaultPowerAt0m): \(IBeacon.defaultMeasuredPower) dBm at 1 m plus \(EddystoneFormat.lossOverFirstMetre) dB; profiles' power_at_0m).", valueName: "dBm"))
    var powerAt0m: Int?

    /// The option's old name, still accepted.
    @Option(name: .customLong("tx-power"), parsing: .unconditional, help: .hidden)
    var oldPowerAt0m: Int?

    /// `--power-at-0m`, or its old name `--tx-power`.
    var txPower: Int? { powerAt0m ?? oldPowerAt0m }
    /// How the user spelled it, for messages.
    var txPowerOption: String { powerAt0m != nil ? "--power-at-0m" : "--tx-power" }

    @Flag(help: "Eddystone-TLM: unencrypted telemetry (fields not given are sent as not supported, or 0).")
    var tlm = false

    @Option(help: ArgumentHelp("Eddystone-TLM: battery voltage in mV, 0 to 65535 (0: not supported).", valueName: "mV"))
    var battery: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Eddystone-TLM: temperature in °C, above -128 and below 128 (default: not supported).", valueName: "°C"))
    var temperature: Double?

    @Option(help: ArgumentHelp("Eddystone-TLM: advertising PDUs sent since boot, 0 to 4294967295.", valueName: "count"))
    var advertisingCount: Int?

    @Option(help: ArgumentHelp("Eddystone-TLM: time since boot in seconds, 0.1 s resolution, 0 to 429496729.5.", valueName: "seconds"))
    var uptime: Double?

    @Option(help: ArgumentHelp("AltBeacon: the 20-byte beacon ID (UUID-XXXXXXXX or 40 hex digits).", valueName: "id"))
    var altbeacon: String?

    @Option(help: ArgumentHelp("AltBeacon: the manufacturer's company identifier, 0x0000 to 0xFFFF (default 0x0118).", valueName: "id"))
    var manufacturer: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("AltBeacon: the reference RSSI at 1 m in dBm, -128 to 127 (default \(IBeacon.defaultMeasuredPower)).", valueName: "dBm"))
    var rssi: Int?

    @Option(help: ArgumentHelp("AltBeacon: the manufacturer-reserved byte, 0x00 to 0xFF (default 0x00).", valueName: "byte"))
    var reserved: String?

    /// The formats whose options were given, with the options' spellings.
    var givenFormats: [(BeaconFormat, [String])] {
        let groups: [(BeaconFormat, [(String, Bool)])] = [
            (.eddystoneUID, [("--namespace", namespace != nil), ("--instance", instance != nil)]),
            (.eddystoneURL, [("--url", url != nil)]),
            (.eddystoneTLM, [("--tlm", tlm), ("--battery", battery != nil), ("--temperature", temperature != nil),
                             ("--advertising-count", advertisingCount != nil), ("--uptime", uptime != nil)]),
            (.altBeacon, [("--altbeacon", altbeacon != nil), ("--manufacturer", manufacturer != nil), ("--rssi", rssi != nil),
                          ("--reserved", reserved != nil)]),
        ]
        return groups.compactMap { format, options in
            let given = options.filter(\.1).map(\.0)
            return given.isEmpty ? nil : (format, given)
        }
    }

    var isAnyGiven: Bool { !givenFormats.isEmpty || txPower != nil }
    var givenOptionNames: [String] { givenFormats.flatMap(\.1) + (txPower != nil ? [txPowerOption] : []) }

    func validate() throws {
        let formats = givenFormats
        if formats.count > 1 {
            throw ValidationError("give the fields of one beacon format (got \(formats.map { "\($0.0) (\($0.1.joined(separator: ", ")))" }.joined(separator: " and ")))")
        }
        if powerAt0m != nil, oldPowerAt0m != nil {
            throw ValidationError("--tx-power is the old name of --power-at-0m: give one of them")
        }
        if let txPower {
            guard let format = formats.first?.0, format == .eddystoneUID || format == .eddystoneURL else {
                throw ValidationError("\(txPowerOption) belongs to an Eddystone-UID (--namespace/--instance) or Eddystone-URL (--url) beacon")
            }
            // Any byte: encode also writes frames outside the specification's −100…20, for tests.
            try BeaconFieldOptions.check(txPowerOption, txPower, in: Self.int8Range)
        }
        switch formats.first?.0 {
        case .eddystoneUID:
            guard let namespace, EddystoneNamespace(namespace) != nil else {
                throw ValidationError("--namespace must be 20 hex digits, e.g. EDD1EBEAC04E5DEFA017 (got \(namespace.map { "'\($0)'" } ?? "none"))")
            }
            guard let instance, EddystoneInstance(instance) != nil else {
                throw ValidationError("--instance must be 12 hex digits, e.g. 0BDB87539B67 (got \(instance.map { "'\($0)'" } ?? "none"))")
            }
        case .eddystoneURL:
            if let url {
                do throws(EddystoneURLError) { _ = try EddystoneURL(url: url) } catch { throw ValidationError("--url: \(error)") }
            }
        case .eddystoneTLM:
            if let battery { try BeaconFieldOptions.check("--battery", battery, in: BeaconFieldOptions.uint16Range) }
            if let temperature, EddystoneTLM.fixedPoint(celsius: temperature) == nil {
                throw ValidationError("--temperature must be above -128 and below 128 °C (got \(temperature))")
            }
            if let advertisingCount { try BeaconFieldOptions.check("--advertising-count", advertisingCount, in: 0...Int(UInt32.max)) }
            if let uptime, !(0...Double(UInt32.max) / 10).contains(uptime) {
                throw ValidationError("--uptime must be from 0 to 429496729.5 seconds (got \(uptime))")
            }
        case .altBeacon:
            guard let altbeacon, AltBeaconID(altbeacon) != nil else {
                throw ValidationError("--altbeacon must be a 20-byte beacon ID: UUID-XXXXXXXX or 40 hex digits (got \(altbeacon.map { "'\($0)'" } ?? "none"))")
            }
            if let manufacturer, Self.number(manufacturer, maximum: 0xFFFF) == nil {
                throw ValidationError("--manufacturer must be a company identifier from 0x0000 to 0xFFFF (got '\(manufacturer)')")
            }
            if let rssi { try BeaconFieldOptions.check("--rssi", rssi, in: Self.int8Range) }
            if let reserved, Self.number(reserved, maximum: 0xFF) == nil {
                throw ValidationError("--reserved must be a byte from 0x00 to 0xFF (got '\(reserved)')")
            }
        case .iBeacon, nil:
            break
        }
    }

    /// The beacon, once ``validate()`` has accepted the fields; `nil` when none were given.
    func beacon() -> AnyBeacon? {
        switch givenFormats.first?.0 {
        case .eddystoneUID:
            guard let ns = namespace.flatMap(EddystoneNamespace.init), let inst = instance.flatMap(EddystoneInstance.init) else { return nil }
            return .eddystoneUID(EddystoneUID(namespace: ns, instance: inst, txPower: txPower.map { Int8($0) } ?? EddystoneFormat.defaultPowerAt0m))
        case .eddystoneURL:
            guard let url, let beacon = try? EddystoneURL(url: url, txPower: txPower.map { Int8($0) } ?? EddystoneFormat.defaultPowerAt0m) else { return nil }
            return .eddystoneURL(beacon)
        case .eddystoneTLM:
            return .eddystoneTLM(EddystoneTLM(
                batteryMillivolts: UInt16(battery ?? 0),
                temperature: temperature.flatMap(EddystoneTLM.fixedPoint(celsius:)) ?? EddystoneTLM.temperatureNotSupported,
                advertisingCount: UInt32(advertisingCount ?? 0),
                uptimeTenths: UInt32(((uptime ?? 0) * 10).rounded())))
        case .altBeacon:
            guard let id = altbeacon.flatMap(AltBeaconID.init) else { return nil }
            return .altBeacon(AltBeacon(
                manufacturerID: manufacturer.flatMap { Self.number($0, maximum: 0xFFFF) }.map { UInt16($0) } ?? AltBeaconFormat.radiusNetworks,
                id: id, referenceRSSI: rssi.map { Int8($0) } ?? IBeacon.defaultMeasuredPower,
                reserved: reserved.flatMap { Self.number($0, maximum: 0xFF) }.map { UInt8($0) } ?? 0))
        case .iBeacon, nil:
            return nil
        }
    }

    static let int8Range = Int(Int8.min)...Int(Int8.max)

    /// `0x0118` or `280`.
    static func number(_ text: String, maximum: Int) -> Int? {
        let value = text.lowercased().hasPrefix("0x") ? Int(text.dropFirst(2), radix: 16) : Int(text)
        guard let value, (0...maximum).contains(value) else { return nil }
        return value
    }
}
