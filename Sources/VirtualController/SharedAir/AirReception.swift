// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconRadio

/// What one receiver on the shared air makes of the transmissions that reach it, through its
/// `AirChannel` (BeaconRadio): each gets its power drawn as it is taken (path loss, the walls
/// in the way, shadowing,
/// fading, sensitivity, random loss); with collisions on, it then waits in
/// `AdvertisingCollisions` (BeaconRadio) until nothing that starts later can overlap it. ``AirLink`` drives
/// it in real time; a test can drive it with the times of a controller on a manual clock.
public struct AirReception {
    public let channel: AirChannel
    private var receiver: AirReceiver
    private var collisions = AdvertisingCollisions<AirTransmission>()
    /// How many transmissions were taken, and how many were lost, by cause.
    public private(set) var taken = 0
    public private(set) var lost: [AirLoss: Int] = [:]

    public init(channel: AirChannel) {
        self.channel = channel
        receiver = AirReceiver(channel: channel)
    }

    /// Takes `t`, heard at `point`: what can be reported at once (with its RSSI). With collisions
    /// on, nothing: ``settle(before:)`` gives it once its time is judged.
    public mutating func take(_ t: AirTransmission, at point: Point) -> [(AirTransmission, Int8)] {
        taken += 1
        let walls = channel.wallAttenuation(from: t.position, to: point)
        // The channel's exponent counts on a clean channel too (`air: {exponent: 4}` draws nothing).
        let mean = AirPathLoss.meanRSSI(data: t.data, txPower: t.txPower, radiated: t.radiatedPowerAt1m, from: t.position, to: point, exponent: channel.exponent) - walls
        guard !channel.isClean else { return [(t, AirPathLoss.clamp(mean))] }
        let (power, loss) = receiver.draw(mean: mean)
        if let loss { lost[loss, default: 0] += 1 }
        guard channel.collisions else { return loss == nil ? [(t, AirPathLoss.clamp(power))] : [] }
        collisions.add(t, start: t.time.seconds, airtime: t.airtime, power: power, audible: loss == nil)
        return []
    }

    /// The transmissions taken that nothing starting at `time` or later can collide with, in
    /// time order, less those a collision took. The caller promises every transmission that
    /// starts before `time` has been taken.
    public mutating func settle(before time: Duration) -> [(AirTransmission, Int8)] {
        guard channel.collisions else { return [] }
        return judged(collisions.settle(before: time.seconds))
    }

    /// Everything taken, judged (the end of a run).
    public mutating func settleAll() -> [(AirTransmission, Int8)] {
        guard channel.collisions else { return [] }
        return judged(collisions.settleAll())
    }

    private mutating func judged(_ verdicts: [(packet: AirTransmission, power: Double, collided: Bool)]) -> [(AirTransmission, Int8)] {
        var out: [(AirTransmission, Int8)] = []
        for verdict in verdicts {
            if verdict.collided {
                lost[.collision, default: 0] += 1
            } else {
                out.append((verdict.packet, AirPathLoss.clamp(verdict.power)))
            }
        }
        return out
    }
}
