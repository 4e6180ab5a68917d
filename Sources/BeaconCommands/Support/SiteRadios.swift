// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import BeaconAdapters
import BeaconEmulator
import BeaconSite

/// Opening a site's radios on this host, and saying how their teardown went: for `beacon agent`
/// and a broker-less `beacon site`.
enum SiteRadios {
    /// Opens `radios` (BeaconSite's ``SiteAgent/Radio/open(_:with:)``) on the shared air; a
    /// failure is printed, exit 1. `positioned`: whether the radios' positions are known (a site
    /// file's), so that the virtual air hears their beacons from there.
    static func open(_ radios: [SiteRadio], positioned: Bool = true) throws(ExitCode) -> [SiteAgent.Radio] {
        let opening = AdapterOpening(commandTimeout: AdapterChoice.commandTimeout, air: AdapterChoice.sharedAir, advertising: true)
        do throws(SiteRadioOpenError) { return try SiteAgent.Radio.open(radios, with: opening, positioned: positioned) } catch {
            throw CommandFailure.exit("\(error)")
        }
    }

    /// Prints each failure and what may still be on air; exit 1 if anything did.
    static func reportTeardowns(_ outcomes: [(radio: SiteRadio.ID, outcome: FleetOutcome)]) throws(ExitCode) {
        var clean = true
        for (radio, outcome) in outcomes {
            if let failure = outcome.failure { LineOutput.err("error: \(radio): \(CommandLineTerms.text(failure))"); clean = false }
            for left in outcome.leftOnAir {
                LineOutput.err("error: \(radio): may still be on air: \(left.what) (\(CommandLineTerms.text(left.reason)))")
                clean = false
            }
        }
        if !clean { throw ExitStatus.runtimeFailure }
    }
}
