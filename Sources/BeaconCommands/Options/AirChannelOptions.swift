// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import BeaconCodec
import BeaconProfiles
import VirtualController
import BeaconRadio

/// `--air PRESET` and its overrides: what the shared virtual air does to what a `-i virtual`
/// receiver hears (VirtualController's ``AirChannel`` owns the model; docs/AIR.md).
struct AirChannelOptions: ParsableArguments {
    @Option(name: .customLong("air"), help: ArgumentHelp(
        "With -i virtual: the channel the receiver hears through: clean (the default: free space, no noise), office or station. docs/AIR.md.",
        valueName: "preset"))
    var preset: String?

    @Option(name: .customLong("air-sigma"), help: ArgumentHelp("With -i virtual: log-normal shadowing σ in dB, 0 to 20 (overrides the preset's).", valueName: "dB"))
    var sigma: Double?

    @Option(name: .customLong("air-exponent"), help: ArgumentHelp("With -i virtual: the path-loss exponent n, 1 to 6 (overrides the preset's).", valueName: "n"))
    var exponent: Double?

    @Option(name: .customLong("air-fading"), help: ArgumentHelp("With -i virtual: fast fading: none, rayleigh or rician:K (K in dB, -20 to 40).", valueName: "fading"))
    var fading: String?

    @Option(name: .customLong("air-loss"), help: ArgumentHelp("With -i virtual: the share of packets lost at random, 0 to 1.", valueName: "p"))
    var loss: Double?

    @Option(name: .customLong("air-wall-db"), help: ArgumentHelp("With -i virtual: what each wall of the fleet's areas between a beacon and the receiver takes off, 0 to 40 dB (overrides the preset's).", valueName: "dB"))
    var wallLoss: Double?

    @Option(name: .customLong("air-seed"), help: ArgumentHelp("With -i virtual: the seed of the channel's draws (default 1).", valueName: "n"))
    var seed: UInt64?

    var isGiven: Bool { preset != nil || sigma != nil || exponent != nil || fading != nil || loss != nil || wallLoss != nil || seed != nil }

    /// The channel; the checks run in ``check(controller:)``.
    var channel: AirChannel { channel(over: nil) }

    /// The channel with a file's `air:` (`fleet`) as the base: `--air` replaces it, the other
    /// options override its fields; `walls` (the file's areas) are what its wall loss counts.
    func channel(over fleet: AirChannel?, walls: [Wall] = []) -> AirChannel {
        var c = preset.flatMap { p in AirChannel.presets.first { $0.name == p } } ?? fleet ?? .clean
        c.walls = walls
        let overridden = sigma != nil || exponent != nil || fading != nil || loss != nil || wallLoss != nil
        if let sigma { c.shadowingSigma = sigma }
        if let exponent { c.exponent = exponent }
        if let fading, let f = AirChannel.Fading(parsing: fading) { c.fading = f }
        if let loss { c.randomLoss = loss }
        if let wallLoss { c.wallLoss = wallLoss }
        if let seed { c.seed = seed }
        if overridden { c.name = "\(c.name)+" }
        return c
    }

    /// `--areas FILE` (scan): the file's air and walls act on the shared virtual air only.
    func check(areas: String?, controller: ControllerOptions) throws {
        guard areas != nil, !Self.isVirtual(controller) else { return }
        throw ValidationError("--areas stands the receiver in a profile or site file's air: and walls on the shared virtual air: it needs -i virtual")
    }

    /// The channel a receiver standing in the profile or site file at `path` hears: the file's
    /// `air:` under these options, its areas' walls (every issue printed, exit 65); refused when
    /// the file gives no `air:` and its walls would take nothing off. `nil`: ``channel``.
    func channel(areasFrom path: String?) throws -> AirChannel {
        guard let path else { return channel }
        switch SiteFiles.surroundings(path) {
        case .success(let surroundings):
            let channel = channel(over: surroundings.air, walls: surroundings.walls)
            if let refusal = surroundings.refusal(hearingThrough: channel) { throw ValidationError(refusal) }
            return channel
        case .failure(let code): throw code
        }
    }

    static func isVirtual(_ controller: ControllerOptions) -> Bool {
        controller.specs?.allSatisfy { if case .virtual = $0 { true } else { false } } ?? false
    }

    /// `simulating`: `locate --simulate`, which hears its walk through the channel too.
    func check(controller: ControllerOptions, simulating: Bool = false) throws {
        guard isGiven else { return }
        if !Self.isVirtual(controller), !simulating { throw ValidationError("--air and its --air-… options shape the shared virtual air: they need -i virtual (or locate --simulate)") }
        if let preset, !AirChannel.presets.contains(where: { $0.name == preset }) {
            throw ValidationError("--air must be one of \(AirChannel.presets.map(\.name).joined(separator: ", ")) (got \(preset))")
        }
        if let sigma, !(sigma.isFinite && AirChannel.sigmaRange.contains(sigma)) {
            throw ValidationError("--air-sigma must be 0 to 20 dB (got \(sigma))")
        }
        if let exponent, !(exponent.isFinite && AirChannel.exponentRange.contains(exponent)) {
            throw ValidationError("--air-exponent must be 1 to 6 (got \(exponent))")
        }
        if let fading, AirChannel.Fading(parsing: fading) == nil {
            throw ValidationError("--air-fading must be none, rayleigh or rician:K with K from -20 to 40 dB (got \(fading))")
        }
        if let loss, !(loss.isFinite && AirChannel.lossRange.contains(loss)) {
            throw ValidationError("--air-loss must be 0 to 1 (got \(loss))")
        }
        if let wallLoss, !(wallLoss.isFinite && AirChannel.wallLossRange.contains(wallLoss)) {
            throw ValidationError("--air-wall-db must be 0 to 40 dB (got \(wallLoss))")
        }
    }
}
