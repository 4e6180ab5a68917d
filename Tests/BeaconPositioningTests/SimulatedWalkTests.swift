// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconCodec
import BeaconPositioning
import BeaconProfiles
import BeaconRadio
import Foundation
import Testing
import TestSupport

/// Locating simulated walks through profiles/room-2m.yaml stays within the errors
/// docs/POSITIONING.md documents (mean error over 5 laps of `square`, seed 1: 0.02, 0.08, 0.15,
/// 0.21 m for σ = 0, 2, 4, 6 dB), with a margin for other seeds.
@Suite struct SimulatedWalkTests {
    static var packageRoot: URL { PackageRoot.url }

    func roomAnchors() throws -> [BeaconAnchor] {
        let fleet = try ProfileLoader.load(contentsOf: Self.packageRoot.appendingPathComponent("profiles/room-2m.yaml").path)
        return BeaconAnchor.anchors(of: fleet)
    }

    func meanError(noise: Double, seed: UInt64, path: String = "square") throws -> LocationErrorSummary {
        let anchors = try roomAnchors()
        let simulator = WalkSimulator(anchors: anchors, path: try WalkPath(parsing: path), noise: noise, laps: 5, seed: seed)
        let fixes = WindowedLocator.fixes(simulator.samples(), anchors: anchors)
        return try #require(LocationErrorSummary(fixes: fixes, truth: simulator.truth(at:)))
    }

    @Test func roomHasFourAnchors() throws {
        let anchors = try roomAnchors()
        #expect(anchors.count == 4)
        #expect(Set(anchors.map(\.position)) == [Point(x: -1, y: 0), Point(x: 0, y: 1), Point(x: 1, y: 0), Point(x: 0, y: -1)])
    }

    @Test(arguments: [(0.0, 0.05), (2.0, 0.15), (4.0, 0.25), (6.0, 0.35)])
    func squareWalkWithinDocumentedError(noise: Double, bound: Double) throws {
        for seed: UInt64 in [1, 2, 3] {
            let summary = try meanError(noise: noise, seed: seed)
            #expect(summary.fixes >= 70)
            #expect(summary.mean < bound, "σ = \(noise) dB, seed \(seed): mean error \(summary.mean) m")
        }
    }

    @Test func moreNoiseIsWorse() throws {
        let errors = try [0.0, 3, 6, 9].map { try meanError(noise: $0, seed: 7).mean }
        #expect(errors == errors.sorted())
    }

    @Test func sameSeedSameWalk() throws {
        let anchors = try roomAnchors()
        let a = WalkSimulator(anchors: anchors, path: WalkPath.named["cross"]!, noise: 4, seed: 42).samples()
        let b = WalkSimulator(anchors: anchors, path: WalkPath.named["cross"]!, noise: 4, seed: 42).samples()
        let c = WalkSimulator(anchors: anchors, path: WalkPath.named["cross"]!, noise: 4, seed: 43).samples()
        #expect(a == b)
        #expect(a != c)
    }

    @Test func waypointParsing() throws {
        #expect(try WalkPath(parsing: "0,0; 1,0.5").waypoints == [Point(x: 0, y: 0), Point(x: 1, y: 0.5)])
        #expect(try WalkPath(parsing: "square").waypoints.count == 5)
        #expect(throws: WalkPath.ParseError.self) { try WalkPath(parsing: "0,0;1") }
        #expect(throws: WalkPath.ParseError.self) { try WalkPath(parsing: "") }
    }

    /// `locate --simulate` and `walk --path` share this grammar: spaces, tabs and semicolons
    /// separate waypoints alike, and an error names the waypoint at fault.
    @Test func oneWaypointGrammarForEveryCommand() throws {
        let spaced = try WalkPath(parsing: "0,0 1,0")
        #expect(spaced.waypoints == [Point(x: 0, y: 0), Point(x: 1, y: 0)])
        #expect(try WalkPath(parsing: "0,0;1,0") == spaced)
        #expect(try WalkPath(parsing: "0,0\t1,0") == spaced)
        let error = #expect(throws: WalkPath.ParseError.self) { try WalkPath(parsing: "0,0 1,0 2,x") }
        #expect(error?.description == "waypoint 3 '2,x' is not x,y in metres (such as 0.5,-1; coordinates from -1000000 to 1000000)")
        #expect(throws: WalkPath.ParseError.self) { try WalkPath(parsing: "0,0 1,0,2") }
        #expect(throws: WalkPath.ParseError.self) { try WalkPath(parsing: "0,0 2000000,0") }
    }
}
