// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import BeaconEmulator
import BeaconProfiles
import BeaconScenarios
import HCI
import Testing

/// A scenario's commands step by step for assumed controllers (`play --dry-run`).
@Suite("Scenario command listing")
struct ScenarioCommandListingTests {
    static let extended = ControllerCapabilities.assumedExtended(adapter: "hci0", sets: 16)
    /// Bluetooth 4.2 without extended advertising: 30 ms is below its 100 ms minimum.
    static let legacy = ControllerCapabilities(adapter: "hci1", hciVersion: .v4_2, leFeatures: [], advertisingSets: 1, maximumDataLength: 31)

    static func timeline(_ steps: String, tail: String = "") throws -> ScenarioTimeline {
        ScenarioTimeline(try ScenarioLoader.parse(ScenarioParsingTests.fleet + "steps: " + steps + "\n" + tail, file: "s.yaml"))
    }

    static func walk(_ timeline: ScenarioTimeline, on capabilities: [ControllerCapabilities]) -> ([ScenarioCommandListing.Listing], ScenarioCommandListing.Refusal?) {
        var listings: [ScenarioCommandListing.Listing] = []
        do throws(ScenarioCommandListing.Refusal) {
            try ScenarioCommandListing.walk(timeline, planner: FleetPlanner(), capabilities: capabilities) { listings.append($0) }
        } catch {
            return (listings, error)
        }
        return (listings, nil)
    }

    static func when(_ step: ScenarioCommandListing.Step) -> String {
        switch step {
        case .start: "start"
        case .moment(let time, let changes, let next): "\(time)\(next ? " next pass" : ""): " + changes.map(\.description).joined(separator: "; ")
        case .teardown: "teardown"
        }
    }

    static func names(_ commands: [any HCICommand]) -> [String] { commands.map { type(of: $0).name } }

    @Test("each step lists the difference between the fleet on air before and after it")
    func stepsAreDifferences() throws {
        let (listings, refusal) = Self.walk(try Self.timeline("[{at: 1s, hide: door}, {at: 2s, show: door}]"), on: [Self.extended])
        #expect(refusal == nil)
        #expect(listings.map { Self.when($0.step) } == ["start", "1.0: hide door", "2.0: show door", "teardown"])
        #expect(listings.map(\.onAir) == [["door", "till"], ["till"], ["door", "till"], []])
        let clean = AdvertisingProgram.clean(extended: true)
        #expect(Self.names(Array(listings[0].commands.prefix(clean.count))) == Self.names(clean), "the start begins from a clean controller")
        #expect(Self.names(listings[0].commands).contains("LE Set Extended Advertising Data"))
        // Hiding one beacon touches its set only: the other stays as it is.
        #expect(!listings[1].commands.isEmpty && !Self.names(listings[1].commands).contains("LE Set Extended Advertising Parameters"))
        #expect(Self.names(listings[3].commands) == Self.names(clean))
    }

    @Test("a repeating scenario lists the next pass's start from the fleet as declared")
    func theNextPassStartsFromTheFleet() throws {
        let (listings, _) = Self.walk(try Self.timeline("[{at: 1s, hide: door}]", tail: "loop: 2\n"), on: [Self.extended])
        // The pass lasts until its last change: the next one starts at 1 s, from the fleet as declared.
        #expect(listings.map { Self.when($0.step) } == ["start", "1.0: hide door", "1.0 next pass: ", "teardown"])
        #expect(listings[2].onAir == ["door", "till"])
        #expect(!listings[2].commands.isEmpty, "door goes back on air")
    }

    @Test("every controller is listed at every step, in the order given")
    func everyControllerEveryStep() throws {
        let second = ControllerCapabilities.assumedExtended(adapter: "hci2", sets: 4)
        let (listings, _) = Self.walk(try Self.timeline("[{at: 1s, hide: till}]"), on: [Self.extended, second])
        #expect(listings.map(\.capabilities.adapter) == ["hci0", "hci2", "hci0", "hci2", "hci0", "hci2"])
    }

    /// door alone on air (till hidden, so nothing takes turns and its interval is its own).
    @Test("a command a controller would refuse ends the walk at its step, after what came before")
    func aRefusalNamesItsStep() throws {
        let (listings, refusal) = Self.walk(try Self.timeline("[{at: 1s, beacon: door, interval: 30}]", tail: "hidden: [till]\n"), on: [Self.legacy])
        let found = try #require(refusal)
        guard case .moment(let time, _, false) = found.step else { Issue.record("refused at \(Self.when(found.step))"); return }
        #expect(time == 1)
        #expect(found.refusal.adapter == "hci1" && found.refusal.command == "LE Set Advertising Parameters")
        #expect(listings.map { Self.when($0.step) } == ["start"])
    }
}
