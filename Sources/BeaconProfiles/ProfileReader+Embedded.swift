// SPDX-License-Identifier: GPL-2.0-or-later
import Yams

extension ProfileReader {
    /// Reads a fleet's `beacons:` list (and its `defaults:`) written inside another document, such
    /// as a site file, with every check a fleet file's get: the same keys, ranges, expansion and
    /// duplicate checks, each issue at its own line and column. Beacon names default to
    /// `namePrefix`. The beacons are only meaningful when the sink has no issues.
    package func embeddedFleet(beacons: Node, defaults: Node?, namePrefix: String) -> [BeaconProfile] {
        var pairs: [(Node, Node)] = [(Node("beacons"), beacons)]
        if let defaults { pairs.append((Node("defaults"), defaults)) }
        let contents = readDocument(.mapping(Node.Mapping(pairs)), fileStem: namePrefix)
        var duplicates = DuplicateCheck(checksNames: true)
        for declaration in contents.declarations {
            duplicates.add(declaration, to: &sink)
        }
        return contents.declarations.map(\.profile)
    }
}
