// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import BeaconJSON
import BeaconProfiles
import BeaconSite

/// `beacon site SITE.yaml --plan`: which radio carries which beacon of a site (docs/SITE.md).
struct SiteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "site",
        abstract: "Plan a site: many hosts and radios as one fleet.",
        discussion: """
            A site file names the broker, the radios (host, adapter, position in metres, optional \
            capacity) and the beacons (inline entries or profile files, each with a position); \
            docs/SITE.md describes it. --plan prints which radio carries each beacon: the nearest \
            within max_distance that has room (its capacity, or what the coverage planner \
            promises for a Bluetooth 5 controller with 16 sets), and the beacons no radio can \
            carry, with why. A site file with issues is reported as validate reports profiles \
            (file:line:column: field: value: message) and the exit status is 65.

            Examples:
              beacon site examples/site-lab.yaml --plan
              beacon site examples/site-lab.yaml --plan --json
            """
    )

    @Argument(help: ArgumentHelp("The site file (YAML or JSON).", valueName: "site"))
    var file: String

    @Flag(help: "Print the placement and exit.")
    var plan = false

    @Flag(help: "Print the placement as one JSON object.")
    var json = false

    func validate() throws {
        if !plan { throw ValidationError("only --plan is available yet: give --plan") }
    }

    mutating func run() async throws {
        let site: Site
        switch SiteFiles.load(file) {
        case .success(let loaded): site = loaded
        case .failure(let code): throw code
        }
        let placement = SitePlacer(maximumDistance: site.maximumDistance).place(site.beacons, on: site.radios)
        if json {
            LineOutput.out(SitePlanJSON.object(site: site, placement: placement).text)
        } else {
            for line in SitePlanText.lines(site: site, placement: placement) { LineOutput.out(line) }
        }
    }
}
