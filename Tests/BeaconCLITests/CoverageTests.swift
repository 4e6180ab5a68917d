// SPDX-License-Identifier: GPL-2.0-or-later
import Foundation
import Testing

/// What a rotation says about coverage, held against the air itself: station-160 on a 4-set
/// virtual controller with the link layer's advDelay on, its air log beside the run's events.
/// The verdicts hold whatever the machine's load: the run's own measurement (the `coverage`
/// event) must bound every silence the air shows; and when it says coverage was as planned, the
/// air must agree with the plan's bound for every beacon, while when it says the plan was
/// missed it must name a cause.
@Suite struct CoverageTests {
    struct Run {
        var plannedGap: [String: Double] = [:]
        var names: [String: String] = [:]
        var air: [String: [Double]] = [:]
        var final: [String: Any]?
        var measured: [String: Double] = [:]
    }

    static func run(_ arguments: [String]) throws -> (Run, CLIResult) {
        let result = try BeaconExecutable.run(arguments)
        var run = Run()
        for line in result.stdout.split(separator: "\n") {
            let o = try BeaconExecutable.jsonObject(String(line))
            switch o["event"] as? String {
            case "plan":
                for b in (o["plan"] as? [String: Any])?["beacons"] as? [[String: Any]] ?? [] {
                    guard let name = b["beacon"] as? String, let address = b["address"] as? String else { continue }
                    run.names[address] = name
                    run.plannedGap[name] = BeaconExecutable.number(b["longest_gap_ms"])
                }
            case "air":
                if let address = o["address"] as? String, let name = run.names[address], let t = BeaconExecutable.number(o["controller_time"]) {
                    run.air[name, default: []].append(t * 1000)
                }
            case "coverage" where o["final"] as? Bool == true:
                run.final = o
                for b in o["beacons"] as? [[String: Any]] ?? [] {
                    if let name = b["beacon"] as? String, let ms = BeaconExecutable.number(b["longest_silence_ms"]) { run.measured[name] = ms }
                }
            default: break
            }
        }
        return (run, result)
    }

    /// The longest gap between two events of each beacon on the air.
    static func airSilences(_ run: Run) -> [String: Double] {
        run.air.mapValues { times in zip(times, times.dropFirst()).map { $1 - $0 }.max() ?? 0 }
    }

    @Test func theMeasuredCoverageBoundsTheAirAndAgreesWithThePlanOrSaysWhy() throws {
        let (run, result) = try Self.run(["advertise", "profiles/station-160.yaml", "-i", "virtual:sets=4,advdelay=yes",
                                          "--duration", "4", "--json", "--air-log", "-"])
        #expect(result.status == 0, "\(result.stderr)")
        let final = try #require(run.final, "no final coverage event: \(result.stdout.suffix(2000))")
        let silences = Self.airSilences(run)
        #expect(run.plannedGap.count == 160 && silences.count == 160, "\(silences.count) beacons heard")
        var checked = 0
        for (name, heard) in silences {
            // A beacon the run saw back for a second turn has a measured bound: the air is never worse.
            guard let bound = run.measured[name] else { continue }
            checked += 1
            #expect(heard <= bound + 0.5, "\(name): \(heard) ms on the air, the run measured at most \(bound) ms")
        }
        #expect(checked >= 150, "only \(checked) beacons had a second turn in 4 s")
        let message = final["message"] as? String ?? ""
        if final["missed_plan"] as? Bool == false {
            #expect(message.hasPrefix("coverage as planned"), "\(message)")
            for (name, heard) in silences {
                let planned = try #require(run.plannedGap[name])
                // "As planned" allows what the run calls ordinary jitter: 10 ms, or 2 % of the bound.
                #expect(heard <= planned + max(10, planned / 50) + 0.5, "\(name): \(heard) ms on the air, plan \(planned) ms, and the run said as planned")
            }
        } else {
            // A loaded machine: the run must say so, with a cause.
            #expect(message.hasPrefix("coverage MISSED the plan") && (message.contains("late") || message.contains("slow controller")), "\(message)")
        }
    }
}
