// SPDX-License-Identifier: GPL-2.0-or-later
import TextLayout
import BeaconCodec
import BeaconRadio
import BeaconProfiles
import Yams

/// Where a `-i virtual` receiver stands (`scan -i virtual --areas FILE`): a profile file or a
/// site file, whose `air:` is the channel's base (the `--air` options override it, as they do a
/// fleet's for `locate`) and whose areas are the walls it hears through — a site's are the
/// areas of its `profiles:` files (docs/AIR.md "Walls", docs/SITE.md).
public struct ReceiverSurroundings: Sendable {
    /// The file as it was named.
    public var file: String
    /// The file's `air:`; `nil`: not given.
    public var air: AirChannel?
    public var walls: [Wall]

    public init(file: String, air: AirChannel?, walls: [Wall]) {
        self.file = file
        self.air = air
        self.walls = walls
    }

    /// Reads `path` once (it may be a pipe) and parses it as a site file when its top level has
    /// a key only a site has (`radios`, `broker`, `profiles` …), otherwise as a profile file:
    /// every issue with its file, line, column and field, as the file's own reader reports it.
    public static func load(contentsOf path: String) throws(ProfileErrors) -> ReceiverSurroundings {
        let text: String
        switch ProfileLoader.readText(path) {
        case .success(let contents): text = contents
        case .failure(let issue): throw ProfileErrors(issues: [issue])
        }
        if isSite(text) {
            let site = try SiteLoader.parse(text, file: path)
            return ReceiverSurroundings(file: path, air: site.air, walls: site.walls)
        }
        let fleet = try ProfileLoader.parse(text, file: path)
        return ReceiverSurroundings(file: path, air: fleet.air, walls: fleet.walls)
    }

    /// The keys of a site file's top level that a profile file does not have.
    static let siteOnlyKeys = Set(SiteKeys.top).subtracting(["name", "air", "defaults", "beacons"])

    /// Whether `text` is a site file's: a top-level mapping with a site-only key. Text that does
    /// not compose is left to the profile reader, which reports where it breaks.
    static func isSite(_ text: String) -> Bool {
        guard let root = try? Yams.compose(yaml: text), let top = root.mapping else { return false }
        return top.keys.contains { $0.scalarText.map(siteOnlyKeys.contains) ?? false }
    }

    /// Why `channel` (this file's `air:` under the options) would make the file pointless, or
    /// `nil`: a file with no `air:` is there for its walls, which then need a wall loss above 0.
    public func refusal(hearingThrough channel: AirChannel) -> String? {
        guard air == nil, channel.wallLoss <= 0 else { return nil }
        return "--areas needs --air-wall-db above 0 (\(file) declares no air:): what each wall takes off "
            + "(\(NumberText.string(AirChannel.lightWallLoss)) a light partition, \(NumberText.string(AirChannel.concreteWallLoss)) a concrete wall; docs/AIR.md)"
    }
}
