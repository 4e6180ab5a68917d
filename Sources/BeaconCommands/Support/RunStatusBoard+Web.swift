// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconConsole
import BeaconEmulator
import BeaconMaps
import BeaconWeb
import Synchronization

extension RunStatusBoard {
    /// The live page's snapshot: the table the terminal shows, each beacon's state (its row's
    /// STATE words; `m-NAME` on the map, `beacon-NAME` in the table) and the map's SVG.
    func webSnapshot(map svg: String) -> LivePageSnapshot {
        let rows = self.rows
        let screen = liveScreen()
        let beacons = zip(rows, screen.rows).map { LivePageSnapshot.Beacon(id: $0.beacon.text, state: $0.state, status: $1.status) }
        return LivePageSnapshot(screen: screen, beacons: beacons, beaconOfRow: { $0 < rows.count ? rows[$0].beacon.text : nil }, svg: svg)
    }

    /// Feeds `page` from this board until cancelled, at each change the board shows and once a
    /// second for the summary's elapsed time and a scenario's clock (they have no event); the
    /// map is the plan's (``PlanMap``) with a scenario's beacons off air (``offAirBeacons``) in
    /// the off-air style, drawn again only when a reload or a step changes the layout.
    func feed(_ page: LivePageServer, fleet: RunningFleet, files: [String]) -> Task<Void, Never> {
        let drawn = Mutex<(plan: FleetPlan, offAir: [String], svg: String)?>(nil)
        let changes = LivePageChanges()
        onChange { changes.changed() }
        return page.follow(changes, refreshingEvery: .seconds(1)) { [self] in
            let offAir = offAirBeacons
            let svg = fleet.currentPlan.map { plan in
                drawn.withLock { d in
                    if let d, d.plan.hasSameLayout(as: plan), d.offAir == offAir.map(\.name) { return d.svg }
                    let svg = SVGMap(forLivePage: PlanMap.scene(plan, files: files, offAir: offAir)).render()
                    d = (plan, offAir.map(\.name), svg)
                    return svg
                }
            } ?? ""
            return webSnapshot(map: svg)
        }
    }
}
