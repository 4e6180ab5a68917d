// SPDX-License-Identifier: GPL-2.0-or-later
// libFuzzer target `profiles`: arbitrary text as a profile file (YAML, or JSON) through
// ProfileLoader.parse: Yams, then our reader and validation. Built and run by scripts/fuzz.
import BeaconCodec
import BeaconProfiles

let profileFile = "fuzz.yaml"

@_cdecl("LLVMFuzzerTestOneInput")
public func profilesFuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    // Files are read as UTF-8 (ProfileLoader.readText refuses anything else); invalid sequences
    // become U+FFFD here so that every input still reaches the parser.
    let text = String(decoding: fuzzInput(data, size), as: UTF8.self)
    let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).count
    do throws(ProfileErrors) {
        let fleet = try ProfileLoader.parse(text, file: profileFile)
        checkFleet(fleet, lines: lines)
    } catch {
        // A rejected file says why, each reason at a place in that file.
        require(!error.issues.isEmpty, "ProfileErrors without an issue")
        for issue in error.issues {
            let at = issue.location
            require(at.file == profileFile && at.line >= 1 && at.line <= lines + 1 && at.column >= 1,
                    "issue at \(at) outside a \(lines)-line file: \(issue)")
            require(!issue.message.isEmpty, "issue without a message at \(at)")
        }
    }
    return 0
}

/// What validation promises about an accepted fleet: every value in its documented range and
/// finite, names, identities and addresses unique, and each beacon's payload decodes to itself.
func checkFleet(_ fleet: BeaconFleet, lines: Int) {
    var names = Set<String>(), identities = Set<BeaconKey>(), addresses = Set<BluetoothAddress>()
    for p in fleet.beacons {
        let b = p.beacon
        require(names.insert(p.name).inserted, "duplicate name \(p.name)")
        require(b.key.map { identities.insert($0).inserted } ?? false, "duplicate or missing identity \(b)")
        require(addresses.insert(p.address).inserted, "duplicate address \(p.address)")
        require(BeaconProfile.intervalRange.contains(p.intervalMilliseconds), "\(p.name): interval \(p.intervalMilliseconds)")
        if let tx = p.txPower { require(BeaconProfile.txPowerRange.contains(Int(tx)), "\(p.name): tx power \(tx)") }
        if let position = p.position {
            require(position.x.isFinite && position.y.isFinite && position.z.isFinite, "\(p.name): position \(position)")
        }
        require(p.location.file == profileFile && p.location.line >= 1 && p.location.line <= lines + 1, "\(p.name) at \(p.location)")
        let decoded = Result { () throws(AnyBeaconDecodingError) in try AnyBeacon(decoding: p.beacon.advertisingData(flags: p.flags)) }
        require(decoded == .success(b), "\(p.name): \(b) with \(p.flags) decodes as \(decoded)")
    }
}
