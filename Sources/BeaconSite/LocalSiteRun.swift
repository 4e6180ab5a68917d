// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import BeaconEmulator
import BeaconProfiles
import HCI

/// A site of one host runs without a broker: its radios (adapters on cables) are opened here,
/// the beacons placed on them as `beacon site --plan` shows, and each radio's share put on air by
/// a `RunningFleet` (BeaconEmulator) of its own until ``requestStop()``.
public final class LocalSiteRun: Sendable {
    public enum Event: Sendable {
        /// The radio's share is on air: `beacons` of them, each beacon's set (or legacy
        /// advertiser) by its identity (``SiteBeaconID``) in `seats`.
        case onAir(radio: SiteRadio.ID, beacons: Int, seats: [String: AdvertiserSeat] = [:])
        case unplaced(id: String, name: String, reason: String)
        case failed(radio: SiteRadio.ID, reason: String)
    }

    public let site: Site
    public let radios: [SiteAgent.Radio]
    public let placement: SitePlacement
    private let fleets: [RunningFleet]
    private let report: @Sendable (Event) -> Void
    private let naming: @Sendable (FrontEndTerm) -> String?

    /// `radios`: the site's radios, opened (a site of one host has them all). `naming`: the front
    /// end's names for the terms in a radio's failure, in the reasons the events give (nil for a
    /// term: its concept in words).
    public init(site: Site, radios: [SiteAgent.Radio], planner: FleetPlanner = FleetPlanner(),
                naming: @escaping @Sendable (FrontEndTerm) -> String? = { _ in nil }, report: @escaping @Sendable (Event) -> Void = { _ in }) {
        self.site = site
        self.radios = radios
        self.report = report
        self.naming = naming
        placement = SitePlacer(maximumDistance: site.maximumDistance, planner: planner).place(site.beacons, on: site.radios)
        fleets = radios.map { RunningFleet(connections: [$0.connection], planner: planner) }
    }

    /// Puts every radio's share on air and waits until ``requestStop()`` (or every radio has
    /// failed); returns each radio's teardown.
    /// - Throws: ``SiteAgentError/radio(_:_:)`` when a radio cannot start; the ones started are
    ///   stopped first.
    public func run() async throws(SiteAgentError) -> [(radio: SiteRadio.ID, outcome: FleetOutcome)] {
        for u in placement.unplaced { report(.unplaced(id: u.id, name: u.beacon.name, reason: u.reason)) }
        let byRadio = placement.assignmentsByRadio()
        for (radio, fleet) in zip(radios, fleets) {
            let beacons = (byRadio[radio.id] ?? []).map(\.beacon)
            if let link = radio.connection.airLink, let p = radio.position {
                for beacon in beacons { link.place(address: beacon.address, at: p, calibrationError: beacon.calibrationError) }
            }
            let plan: FleetPlan
            do throws(AdapterError) { plan = try await fleet.start(beacons) } catch {
                for f in fleets { _ = await f.stop() }
                throw .radio(radio.id, error.termedText)
            }
            report(.onAir(radio: radio.id, beacons: beacons.count, seats: SiteBeaconID.seats(in: plan)))
        }
        var outcomes: [(radio: SiteRadio.ID, outcome: FleetOutcome)] = []
        for (radio, fleet) in zip(radios, fleets) {
            let outcome = await fleet.outcome()
            if let failure = outcome.failure { report(.failed(radio: radio.id, reason: failure.text(namedBy: naming))) }
            outcomes.append((radio.id, outcome))
        }
        return outcomes
    }

    public func requestStop() {
        for fleet in fleets { fleet.requestStop() }
    }
}
