// SPDX-License-Identifier: GPL-2.0-or-later
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BeaconCodec

/// What the virtual air does to a packet between the advertiser and one receiver, beyond the
/// path-loss mean (VirtualController's `AirPathLoss`): log-normal shadowing, fast fading, loss below the receiver's
/// sensitivity and at random, and collisions with other advertising events. ``clean`` (the
/// default) does nothing, so the same geometry always gives the same RSSI. The presets and
/// their sources are in docs/AIR.md. In BeaconRadio (the codec stays free of the C library's
/// maths), so the virtual air, profile files (`air:`) and the positioning benchmark share one
/// definition.
public struct AirChannel: Hashable, Sendable, CustomStringConvertible {
    /// Fast fading of the received power, drawn per packet with a mean power gain of 1.
    public enum Fading: Hashable, Sendable, CustomStringConvertible {
        case none
        /// No line of sight: the power gain is exponential (Rayleigh amplitude).
        case rayleigh
        /// A line-of-sight component `kFactor` dB above the scattered power.
        case rician(kFactor: Double)

        public var description: String {
            switch self {
            case .none: "none"
            case .rayleigh: "rayleigh"
            case .rician(let k): "rician:\(k)"
            }
        }

        /// `none`, `rayleigh` or `rician:K` (K in dB, −20 to 40).
        public init?(parsing text: String) {
            switch text {
            case "none": self = .none
            case "rayleigh": self = .rayleigh
            default:
                guard text.hasPrefix("rician:"), let k = Double(text.dropFirst(7)), k.isFinite, AirChannel.kFactorRange.contains(k) else { return nil }
                self = .rician(kFactor: k)
            }
        }
    }

    /// The preset's name, or `custom`.
    public var name: String
    /// The path-loss exponent n of ``LogDistancePathLoss``.
    public var exponent: Double
    /// The standard deviation of the log-normal shadowing, dB, drawn per packet.
    public var shadowingSigma: Double
    public var fading: Fading
    /// A packet whose received power (after shadowing and fading) is below this is lost, dBm;
    /// `nil`: none is.
    public var sensitivity: Double?
    /// The probability that a packet is lost whatever its power (interference from Wi-Fi and
    /// the like), 0 to 1.
    public var randomLoss: Double
    /// Whether events overlapping on the channel the scanner listens on destroy each other
    /// (judged event by event: ``AdvertisingCollisions``).
    public var collisions: Bool
    /// What each wall between the advertiser and the receiver takes off the received power, dB
    /// (`wall_db` in `air:`, `--air-wall-db`): the step of the multi-wall model (COST 231) on top
    /// of path loss. 0 (every preset): walls do nothing.
    public var wallLoss: Double
    /// The walls on the floor plan (the areas of the receiver's fleet): a packet loses
    /// ``wallLoss`` for every one the straight line from the advertiser to the receiver meets
    /// (``Wall/count(_:between:and:)``). Empty: none is in the way.
    public var walls: [Wall]
    public var seed: UInt64

    public init(name: String = "custom", exponent: Double = 2, shadowingSigma: Double = 0, fading: Fading = .none,
                sensitivity: Double? = nil, randomLoss: Double = 0, collisions: Bool = false, wallLoss: Double = 0, walls: [Wall] = [],
                seed: UInt64 = 1) {
        self.name = name
        self.exponent = exponent
        self.shadowingSigma = shadowingSigma
        self.fading = fading
        self.sensitivity = sensitivity
        self.randomLoss = randomLoss
        self.collisions = collisions
        self.wallLoss = wallLoss
        self.walls = walls
        self.seed = seed
    }

    /// Free space, no noise, no loss, walls ignored (0 dB each): the air as it always was.
    public static let clean = AirChannel(name: "clean")
    /// An office with hard partitions: n = 3.0, σ = 7 dB (Rappaport, Table 4.2), Rician K = 6 dB,
    /// −95 dBm sensitivity, 2 % random loss, collisions. Walls 0 dB: n = 3.0 was measured
    /// across the partitions, so a wall loss on top would count them twice (docs/AIR.md).
    public static let office = AirChannel(name: "office", exponent: 3.0, shadowingSigma: 7.0, fading: .rician(kFactor: 6),
                                          sensitivity: -95, randomLoss: 0.02, collisions: true)
    /// A crowded concourse: n = 2.2, σ = 8.7 dB (Rappaport, Table 4.2, retail stores), Rayleigh
    /// fading (bodies block the line of sight), −95 dBm sensitivity, 5 % random loss, collisions,
    /// walls 0 dB (as ``office``).
    public static let station = AirChannel(name: "station", exponent: 2.2, shadowingSigma: 8.7, fading: .rayleigh,
                                           sensitivity: -95, randomLoss: 0.05, collisions: true)

    public static let presets: [AirChannel] = [.clean, .office, .station]

    /// The loss, dB, the walls between `advertiser` and `receiver` add (0 with no walls or a
    /// 0 dB ``wallLoss``); an advertiser with no position is heard as if beside the receiver.
    public func wallAttenuation(from advertiser: Point?, to receiver: Point) -> Double {
        guard wallLoss > 0, !walls.isEmpty, let advertiser else { return 0 }
        return wallLoss * Double(Wall.count(walls, between: advertiser, and: receiver))
    }

    /// Whether the channel draws nothing on top of path loss (then the receiver draws no
    /// numbers); walls are deterministic and do not count.
    public var isClean: Bool {
        shadowingSigma == 0 && fading == .none && sensitivity == nil && randomLoss == 0 && !collisions
    }

    /// Allowed ranges, for option and file checks.
    public static let exponentRange = 1.0...6.0
    public static let sigmaRange = 0.0...20.0
    public static let kFactorRange = -20.0...40.0
    public static let sensitivityRange = -127.0 ... -40.0
    public static let lossRange = 0.0...1.0
    public static let wallLossRange = 0.0...40.0
    /// Per-wall figures at 2.4 GHz to give `wall_db` (docs/AIR.md): a plasterboard or light
    /// partition, 3.4 dB (COST 231 multi-wall model, light wall), and a concrete block wall,
    /// 13 dB (Rappaport, Table 4.3).
    public static let lightWallLoss = 3.4
    public static let concreteWallLoss = 13.0

    public var description: String {
        var parts = ["n \(exponent)", "σ \(shadowingSigma) dB", "fading \(fading)"]
        if let sensitivity { parts.append("sensitivity \(sensitivity) dBm") }
        if randomLoss > 0 { parts.append("loss \(randomLoss * 100) %") }
        if collisions { parts.append("collisions") }
        if wallLoss > 0 { parts.append("\(wallLoss) dB a wall") }
        return "\(name) (\(parts.joined(separator: ", ")))"
    }

    /// How long one legacy advertising PDU with `dataLength` octets of AdvData occupies one
    /// channel at 1 Mb/s: preamble 1, access address 4, header 2, AdvA 6, data, CRC 3 octets,
    /// 8 µs each (Core Vol 6 Part B §2.1, §2.3).
    public static func airtime(dataLength: Int) -> Double { Double(16 + dataLength) * 8e-6 }

}

/// Why a packet did not arrive.
public enum AirLoss: Error, Hashable, Sendable {
    case belowSensitivity
    case random
    case collision
}

/// One receiver's draws from an ``AirChannel``: seeded, so a run is the same every time within a
/// process given the same order of packets.
public struct AirReceiver: Sendable {
    public let channel: AirChannel
    private var random: SplitMix64

    public init(channel: AirChannel) {
        self.channel = channel
        random = SplitMix64(seed: channel.seed)
    }

    /// The power one packet whose path-loss mean is `mean` dBm arrives with (after shadowing
    /// and fading), and why it is lost apart from collisions, if it is. Collisions need the
    /// events' timing: ``AdvertisingCollisions`` judges them.
    public mutating func draw(mean: Double) -> (power: Double, loss: AirLoss?) {
        var power = mean
        if channel.shadowingSigma > 0 { power += channel.shadowingSigma * random.nextGaussian() }
        switch channel.fading {
        case .none: break
        case .rayleigh: power += 10 * log10(max(-log(1 - random.nextUnit()), 1e-12))
        case .rician(let kDB):
            let k = pow(10, kDB / 10)
            let scatter = (1 / (2 * (k + 1))).squareRoot()
            let i = (k / (k + 1)).squareRoot() + scatter * random.nextGaussian()
            let q = scatter * random.nextGaussian()
            power += 10 * log10(max(i * i + q * q, 1e-12))
        }
        if let sensitivity = channel.sensitivity, power < sensitivity { return (power, .belowSensitivity) }
        if channel.randomLoss > 0, random.nextUnit() < channel.randomLoss { return (power, .random) }
        return (power, nil)
    }

    /// The RSSI of one packet whose path-loss mean is `mean` dBm, or why it was lost (collisions
    /// aside: see ``draw(mean:)``).
    public mutating func receive(mean: Double) -> Result<Double, AirLoss> {
        let (power, loss) = draw(mean: mean)
        return loss.map { .failure($0) } ?? .success(power)
    }
}
