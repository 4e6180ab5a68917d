// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing
@testable import VirtualController
import BeaconCodec
import BeaconRadio

/// The channel model measured back from its draws. Every test uses a fixed seed, so each run
/// gives the same numbers; the bounds are still stated as standard errors (SE) of the estimate
/// over the sample count, so a change of seed would pass too unless the model is wrong.
@Suite("virtual air channel")
struct AirChannelTests {
    static let samples = 20_000

    /// The received powers (rounded and clamped as a controller reports them) of `n` packets.
    static func draws(_ channel: AirChannel, mean: Double, n: Int = samples) -> (rssi: [Double], lost: [AirLoss]) {
        var receiver = AirReceiver(channel: channel)
        var rssi: [Double] = [], lost: [AirLoss] = []
        for _ in 0..<n {
            switch receiver.receive(mean: mean) {
            case .success(let p): rssi.append(Double(AirPathLoss.clamp(p)))
            case .failure(let why): lost.append(why)
            }
        }
        return (rssi, lost)
    }

    static func meanAndSD(_ x: [Double]) -> (mean: Double, sd: Double) {
        let m = x.reduce(0, +) / Double(x.count)
        return (m, (x.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(x.count - 1)).squareRoot())
    }

    /// Φ, the standard normal distribution function.
    static func phi(_ x: Double) -> Double { 0.5 * erfc(-x / 2.squareRoot()) }

    @Test("clean is the air as it was: the mean, exactly, and nothing lost")
    func clean() throws {
        #expect(AirChannel.clean.isClean)
        var receiver = AirReceiver(channel: .clean)
        #expect(try receiver.receive(mean: -71.3).get() == -71.3)
    }

    @Test("shadowing: the RSSI spread is σ (20,000 packets: within 0.15 dB, 5 SE)")
    func shadowingSigma() {
        for sigma in [3.0, 6.0, 10.0] {
            let (rssi, lost) = Self.draws(AirChannel(shadowingSigma: sigma, seed: 7), mean: -70)
            #expect(lost.isEmpty)
            let (mean, sd) = Self.meanAndSD(rssi)
            // Rounding to whole dBm adds 1/12 dB² of variance.
            let expected = (sigma * sigma + 1.0 / 12).squareRoot()
            #expect(abs(sd - expected) < 0.15, "σ \(sigma): measured \(sd)")
            #expect(abs(mean + 70) < 0.15, "σ \(sigma): mean \(mean)")
        }
    }

    @Test("loss below the sensitivity rises with distance as Φ((S − mean) / σ) (within 0.02, > 6 SE)")
    func lossWithDistance() {
        let channel = AirChannel(exponent: 3, shadowingSigma: 7, sensitivity: -95, seed: 3)
        var previous = -1.0
        for distance in [2.0, 5.0, 10.0, 15.0, 20.0, 30.0] {
            // An event without a beacon frame at 0 dBm: −41 dBm at 1 m.
            let mean = AirPathLoss.meanRSSI(data: [], txPower: 0, from: Point(x: distance, y: 0), to: Point(x: 0, y: 0), exponent: 3)
            let (_, lost) = Self.draws(channel, mean: mean)
            let rate = Double(lost.count) / Double(Self.samples)
            let expected = Self.phi((-95 - mean) / 7)
            #expect(abs(rate - expected) < 0.02, "\(distance) m: lost \(rate), expected \(expected)")
            #expect(rate >= previous, "loss never falls with distance")
            previous = rate
        }
    }

    @Test("random loss at its rate (within 0.012, > 4 SE); collisions are judged by timing, not drawn")
    func randomLoss() {
        let (_, randomOnly) = Self.draws(AirChannel(randomLoss: 0.1, seed: 5), mean: -60)
        #expect(abs(Double(randomOnly.count) / Double(Self.samples) - 0.1) < 0.012)
        // Collisions need the events' times (AirCollisionTests): the per-packet draw never loses one to them.
        let (_, collided) = Self.draws(AirChannel(collisions: true, seed: 9), mean: -60)
        #expect(collided.isEmpty)
    }

    @Test("Rayleigh fading: −2.51 dB mean, 5.57 dB spread of the power gain (within 0.15 dB)")
    func rayleigh() {
        let (rssi, _) = Self.draws(AirChannel(fading: .rayleigh, seed: 11), mean: -50)
        let (mean, sd) = Self.meanAndSD(rssi)
        // ln-exponential: mean −γ·10/ln 10 = −2.507 dB; sd (π/√6)·10/ln 10 = 5.570 dB (plus rounding).
        #expect(abs(mean - (-50 - 2.507)) < 0.15, "mean \(mean)")
        #expect(abs(sd - (5.570 * 5.570 + 1.0 / 12).squareRoot()) < 0.15, "sd \(sd)")
        // Rician with a strong line of sight fades far less than Rayleigh.
        let (rician, _) = Self.draws(AirChannel(fading: .rician(kFactor: 10), seed: 11), mean: -50)
        #expect(Self.meanAndSD(rician).sd < 2.5)
    }

    @Test("Rician fading: the power gain has mean 1 and variance (1 + 2K) / (1 + K)² (K = 0, 6 and 10 dB; 20,000 draws)")
    func ricianMoments() {
        for kDB in [0.0, 6.0, 10.0] {
            var receiver = AirReceiver(channel: AirChannel(fading: .rician(kFactor: kDB), seed: 13))
            // Unrounded draws at a mean of 0 dBm: the power is the fading's gain in dB.
            let gains = (0..<Self.samples).map { _ in pow(10, receiver.draw(mean: 0).power / 10) }
            let k = pow(10, kDB / 10)
            let variance = (1 + 2 * k) / ((1 + k) * (1 + k))
            let (mean, sd) = Self.meanAndSD(gains)
            // The mean within 5 SE (SE = √(variance / n): 0.0061 at K = 0 dB); the variance within
            // 10 %, over 5 SE of a sample variance for these kurtoses (below Rayleigh's 9).
            #expect(abs(mean - 1) < 5 * (variance / Double(Self.samples)).squareRoot(), "K \(kDB) dB: mean gain \(mean)")
            #expect(abs(sd * sd / variance - 1) < 0.10, "K \(kDB) dB: variance \(sd * sd), expected \(variance)")
        }
    }

    @Test("seeded: the same seed gives the same packets, another seed others")
    func seeded() {
        let a = Self.draws(AirChannel.office, mean: -80, n: 500)
        let b = Self.draws(AirChannel.office, mean: -80, n: 500)
        var other = AirChannel.office
        other.seed = 2
        let c = Self.draws(other, mean: -80, n: 500)
        #expect(a.rssi == b.rssi && a.lost == b.lost)
        #expect(a.rssi != c.rssi)
    }

    @Test("fading names parse; out-of-range K is refused")
    func fadingNames() {
        #expect(AirChannel.Fading(parsing: "rayleigh") == .rayleigh)
        #expect(AirChannel.Fading(parsing: "rician:6") == .rician(kFactor: 6))
        #expect(AirChannel.Fading(parsing: "rician:41") == nil)
        #expect(AirChannel.Fading(parsing: "rice") == nil)
    }
}
