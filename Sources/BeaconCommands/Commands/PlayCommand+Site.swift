// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import BeaconConsole
import BeaconEmulator
import BeaconMQTT
import BeaconProfiles
import BeaconScenarios
import BeaconSite
import Foundation

extension PlayCommand {
    /// `--site`: the scenario across a site, through its broker (SiteScenarioRun does the work).
    func play(_ timeline: ScenarioTimeline, window: PlaybackWindow, onSite file: String) async throws {
        SiteEventTime.start()
        let site: Site
        switch SiteFiles.load(file) {
        case .success(let loaded): site = loaded
        case .failure(let code): throw code
        }
        let problems = SiteScenarioRun.problems(timeline)
        guard problems.isEmpty else {
            for problem in problems { LineOutput.err(problem) }
            throw ExitStatus.dataError
        }
        guard let broker = site.broker else {
            throw CommandFailure.exit("\(file): the site has no broker (its radios are all on this host): play the scenario with -i instead")
        }
        let client: MQTTClient
        do throws(MQTTError) {
            client = try SiteController.client(for: site, broker: broker, clientID: "beacon-play-\(site.name)",
                                               environment: ProcessInfo.processInfo.environment)
        } catch {
            throw CommandFailure.exit("\(error)")
        }
        let json = json
        let output = PlaybackOutput(json: json, window: window)
        let board = RunStatusBoard.onTerminal(style: json ? .json : .lines)
        let run = SiteScenarioRun(site: site, player: ScenarioPlayer(timeline, window: window), client: client) { event in
            switch event {
            case .site(let event): LineOutput.out(json ? event.json(time: SiteEventTime.now).text : event.text)
            case .scenario(let event): output.show(event, board: board)
            }
        }
        // SIGHUP too: a scenario owns the beacons, so a hangup stops it as SIGINT does.
        let stop = StopSignals.withHangup()
        defer { stop.cancel() }
        stop.onStopSayingHangup { run.requestStop() }
        PlaybackOutput.announce(timeline, window: window)
        do throws(MQTTError) { try await run.run() } catch {
            throw CommandFailure.exit("\(error)")
        }
        LineOutput.err("site \(site.name) keeps the scenario's last step on air; beacon site \(file) puts the site file's beacons back")
    }
}
