// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec

/// Finds beacons that would be indistinguishable or clash on the air: the same identity
/// (uuid, major, minor), the same address, and — within one fleet — the same name. Each clash is
/// reported at the later declaration and names the earlier one.
struct DuplicateCheck {
    /// What was declared first, and in which of the loaded files (its index).
    private typealias Earlier = (declaration: BeaconDeclaration, source: Int)
    private var identities: [BeaconKey: Earlier] = [:]
    private var addresses: [BluetoothAddress: Earlier] = [:]
    private var names: [String: BeaconDeclaration] = [:]
    /// Whether names must be unique (within a fleet) or not (across files).
    let checksNames: Bool

    init(checksNames: Bool) {
        self.checksNames = checksNames
    }

    /// Records `declaration`, from the `source`-th file loaded, reporting any clash with one
    /// recorded before to `sink`. With `acrossSourcesOnly`, clashes within one source are ignored
    /// (they were reported when that file was read); the same file loaded twice does clash.
    mutating func add(_ declaration: BeaconDeclaration, source: Int = 0, to sink: inout IssueSink, acrossSourcesOnly: Bool = false) {
        let profile = declaration.profile
        func clash(_ earlier: Earlier?) -> BeaconDeclaration? {
            guard let earlier else { return nil }
            if acrossSourcesOnly, earlier.source == source { return nil }
            return earlier.declaration
        }

        // Broken variants of one beacon (raw data, patches) may share its identity on purpose.
        let identity = profile.rawData == nil ? profile.beacon.key : nil
        let sameIdentity = identity.flatMap { clash(identities[$0]) }
        if let earlier = sameIdentity, let identity {
            let value: String
            let same: String
            switch identity {
            case .iBeacon(let i):
                (value, same) = ("\(i.uuid) major \(i.major) minor \(i.minor)", "the same uuid, major and minor")
            case .altBeacon(_, let id): (value, same) = ("\(id)", "the same AltBeacon ID (uuid, major, minor) and manufacturer")
            case .eddystoneUID(let n, let i): (value, same) = ("\(n) \(i)", "the same namespace and instance")
            case .eddystoneURL: (value, same) = (identity.description, "the same URL")
            }
            sink.report(profile.location, field: "identity", value: value,
                        "\(same) as `\(earlier.profile.name)` (\(earlier.profile.location)); receivers could not tell them apart")
        } else if let identity, identities[identity] == nil {
            identities[identity] = (declaration, source)
        }

        // Two derived addresses of one identity are equal by construction: that clash is the
        // identity clash already reported, not a second problem.
        let bothDerived = profile.addressIsDerived && sameIdentity?.profile.addressIsDerived == true
        if let earlier = clash(addresses[profile.address]), !bothDerived {
            let derived = profile.addressIsDerived ? " (derived)" : ""
            sink.report(declaration.addressLocation, field: "address", value: "\(profile.address)\(derived)",
                        "the same address as `\(earlier.profile.name)` (\(earlier.addressLocation)); each beacon needs its own")
        } else if addresses[profile.address] == nil {
            addresses[profile.address] = (declaration, source)
        }

        if checksNames {
            if let earlier = names[profile.name] {
                sink.report(declaration.nameLocation, field: "name", value: profile.name,
                            "the same name as the beacon declared at \(earlier.nameLocation); names must be unique in a fleet")
            } else {
                names[profile.name] = declaration
            }
        }
    }
}
