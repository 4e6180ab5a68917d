// SPDX-License-Identifier: GPL-2.0-or-later
import TextLayout
import BeaconSystem
import ArgumentParser
import BeaconCodec
import BeaconAdapters
import BeaconProfiles
import BeaconScanner
import Foundation
import HCITransport
import VirtualController
import Synchronization
import BeaconRadio
import BeaconWeb

/// `beacon scan`: listens for beacons (iBeacon, AltBeacon, Eddystone) the way a phone does — ranging (smoothed RSSI, distance,
/// proximity, nearest first) and region monitoring (enter/exit) — until the duration passes or
/// Ctrl-C, then turns scanning off again.
struct ScanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Scan for beacons: ranging and region enter/exit, like a phone; --save clones them into a fleet profile.",
        discussion: """
            Scans passively on one controller (extended scanning where the controller has LE \
            Extended Advertising, legacy scanning otherwise; a controller beacon owns — user:, \
            tcp:, serial:, virtual — is reset first) and decodes every advertising report \
            strictly as a beacon of any format the codec knows: iBeacon, AltBeacon, \
            Eddystone-UID, -URL and -TLM (TLM frames are reported, not ranged: they carry no \
            identity). Other formats than iBeacon show as FORMAT and ID in the table, and with \
            "format" and their own fields in JSON; their power is the power at 1 m (Eddystone's \
            TX power at 0 m less 41 dB).

            --uuid [--major [--minor]] define the region (as CLBeaconRegion and the Android \
            Beacon Library's Region do): iBeacons, and AltBeacons whose 20-byte ID is the UUID, \
            major and minor; --namespace [--instance] a region of Eddystone-UID beacons; without \
            them every beacon of every format is in it. Only \
            the region's beacons are reported and ranged. A beacon \
            enters when it is first heard and exits after --exit-after of silence (default 30s); \
            the region enters with its first beacon and exits with its last.

            Ranging, about once a second: per beacon the mean RSSI of the reports of the last \
            second, the measured power, an accuracy in metres (--model altbeacon: AltBeacon's \
            curve fit, the default; pathloss: log-distance path loss with \
            --path-loss-exponent, default 2), the proximity (immediate < 0.5 m, near < 3 m, far; \
            unknown without a report in the last second), when it was last seen and its reports \
            per second; nearest first. docs/RANGING.md explains the models.

            --as picks the phone the ranging imitates: raw (the above, the default); ios \
            (CoreLocation: RSSI over the second, accuracy from the last 20 s, -1 and unknown in a \
            second without a report, at most 20 regions); android (the Android Beacon Library's \
            defaults: 1.1 s cycles, its 20 s trimmed running average, the curve of \
            --android-device, only the beacons heard in the cycle listed, exit after 10 s). docs/AIR.md gives the \
            evidence for each.

            On a terminal: a live view that fits it (TERM=dumb: the same as plain lines at each \
            update; NO_COLOR: no colour). Otherwise, and with --json: JSON Lines — "scanning", \
            then "report" (every iBeacon report), "ranging" (the list, about once a second), \
            "enter" and "exit", and "stopped" last.

            -i virtual scans the shared virtual air: it hears `beacon advertise -i virtual` \
            (and `cycle`) running in other processes of this user, with RSSI by free-space path \
            loss (exponent 2, the beacon's measured power at 1 m) from each beacon's profile \
            position to --at X,Y (default 0,0); beacons without a position are heard as if 1 m \
            away. BEACON_AIR names the air's directory (default $XDG_RUNTIME_DIR/beacon-air, \
            else /tmp/beacon-air-UID; off: none). --air office or station (and --air-sigma, \
            --air-exponent, --air-fading, --air-loss, --air-seed) make that air noisy: \
            shadowing, fading, lost packets and collisions, seeded (docs/AIR.md). --areas FILE \
            stands the receiver in a profile or site file: its air: is the channel (the --air \
            options override it) and its areas (a site's: its profiles') are walls between the \
            beacons and --at, each taking wall_db off (as locate --live hears through its fleet's).

            --save FLEET.yaml writes what was heard, when the scan ends, as a fleet profile \
            that advertise takes as it is: each beacon's format and identity, its advertised \
            power (with --at-1m, made 1 m from the beacons: its mean RSSI instead), its address \
            when it used one random static address throughout (otherwise one is derived), and \
            for Eddystone beacons whose address sent TLM, a tlm: with its battery and \
            temperature. Names are the file's stem and a number.

            SIGINT (Ctrl-C), SIGTERM or SIGHUP (the terminal closed) stop: scanning off, \
            exit 0.

            --web [HOST:]PORT serves the live table as a page while the scan lasts (see \
            advertise --web): each beacon heard is an element beacon-ID with its proximity.

            Examples:
              beacon scan -i virtual --at 0.5,0.2 --duration 3s
              beacon scan -i virtual --json --duration 3s
              beacon scan -i virtual --model pathloss --exit-after 5s --duration 3s
            """
    )

    @OptionGroup var listening: ListeningControllerOptions
    var controller: ControllerOptions { listening.controller }

    @Option(help: ArgumentHelp("Only beacons with this proximity UUID (the region): iBeacons, and AltBeacons whose ID starts with it.", valueName: "uuid"))
    var uuid: String?

    @Option(help: ArgumentHelp("Only beacons with this major, 0 to 65535 (needs --uuid).", valueName: "major"))
    var major: Int?

    @Option(help: ArgumentHelp("Only beacons with this minor, 0 to 65535 (needs --major).", valueName: "minor"))
    var minor: Int?

    @Option(help: ArgumentHelp("Only Eddystone-UID beacons of this namespace, 20 hex digits (the region; not with --uuid).", valueName: "hex"))
    var namespace: String?

    @Option(help: ArgumentHelp("Only the Eddystone-UID beacon of this instance, 12 hex digits (needs --namespace).", valueName: "hex"))
    var instance: String?

    @Option(help: ArgumentHelp("How long to scan: 10s, 500ms, 2m, 1m30s, or seconds (default: until Ctrl-C).", valueName: "duration"))
    var duration: DurationArgument?

    @Flag(help: "JSON Lines output even on a terminal.")
    var json = false

    @Option(help: ArgumentHelp("The distance model: altbeacon or pathloss.", valueName: "model"))
    var model: ScanDistanceModel = .altbeacon

    @Option(name: .customLong("path-loss-exponent"), help: ArgumentHelp("The path-loss exponent n for --model pathloss, above 0 and at most 10 (2 is free space).", valueName: "n"))
    var pathLossExponent: Double = 2

    @Option(parsing: .unconditional, help: Point.argumentHelp)
    var at: Point?

    @Option(name: .customLong("exit-after"), help: ArgumentHelp("How long a beacon must be silent before it exits (default 30s; 10s with --as android).", valueName: "duration"))
    var exitAfter: DurationArgument?

    @OptionGroup var phone: PhoneOptions

    @OptionGroup var air: AirChannelOptions

    @Option(help: ArgumentHelp("With -i virtual: the profile or site file the receiver stands in (checked like any): its air: is the channel's base, its areas are walls (a file without air: needs --air-wall-db above 0).", valueName: "file"))
    var areas: String?

    @OptionGroup var webOptions: WebOptions

    @Option(help: ArgumentHelp("When the scan ends, write the beacons heard as a fleet profile to this file: a regular file, replaced whole (its mode and owner kept), never written through a symbolic link; checked before the scan starts.", valueName: "file"))
    var save: String?

    @Flag(name: .customLong("at-1m"), help: "With --save: the scan was made 1 m from the beacons; their mean RSSI becomes their measured power.")
    var atOneMetre = false

    func validate() throws {
        if atOneMetre, save == nil { throw ValidationError("--at-1m goes with --save (it calibrates the saved beacons)") }
        if save == "-" { throw ValidationError("--save needs a file: standard output (-) carries the scan's own lines") }
        if let uuid { try BeaconFieldOptions.checkUUID(uuid) }
        for (option, value) in [("--major", major), ("--minor", minor)] {
            if let value { try BeaconFieldOptions.check(option, value, in: BeaconFieldOptions.uint16Range) }
        }
        if major != nil, uuid == nil { throw ValidationError("--major needs --uuid (a region is a UUID, then a major, then a minor)") }
        if minor != nil, major == nil { throw ValidationError("--minor needs --major (a region is a UUID, then a major, then a minor)") }
        if namespace != nil, uuid != nil { throw ValidationError("--namespace and --uuid make two kinds of region: give one (--namespace for Eddystone-UID beacons, --uuid for iBeacons and AltBeacons)") }
        if instance != nil, namespace == nil { throw ValidationError("--instance needs --namespace (an Eddystone region is a namespace, then an instance)") }
        if let namespace, EddystoneNamespace(namespace) == nil {
            throw ValidationError("--namespace must be an Eddystone-UID namespace: 20 hex digits (10 bytes), such as 00112233445566778899 (got \(namespace.escapingControlCharacters))")
        }
        if let instance, EddystoneInstance(instance) == nil {
            throw ValidationError("--instance must be an Eddystone-UID instance: 12 hex digits (6 bytes), such as 000000000001 (got \(instance.escapingControlCharacters))")
        }
        guard pathLossExponent.isFinite, pathLossExponent > 0, pathLossExponent <= 10 else {
            throw ValidationError("--path-loss-exponent must be above 0 and at most 10 (got \(pathLossExponent))")
        }
        try Point.check(at, controller: controller)
        try air.check(controller: controller)
        try air.check(areas: areas, controller: controller)
    }

    /// Writes the fleet heard to `path` (its stem names the fleet and the beacons), checked by
    /// reading it back as `advertise` would.
    static func save(_ heard: HeardFleet, to path: String, atOneMetre: Bool) throws {
        let name = FleetWriter.fleetName(forPath: path)
        let beacons = heard.profiles(namePrefix: name, powerFromRSSI: atOneMetre)
        do throws(FleetWriter.SaveError) {
            try FleetWriter.save(name: name, beacons: beacons, comment: "Written by beacon scan --save: \(beacons.count) beacons heard.", to: path)
        } catch {
            switch error {
            case .noBeacons: throw CommandFailure.exit("no beacon was heard; \(path.escapingControlCharacters) not written")
            case .doesNotReadBack(let issues): throw CommandFailure.exit("the fleet heard does not read back as a profile (a bug): \(issues)")
            // A regular file replaced whole (mode and owner kept), never a link, device or FIFO.
            case .cannotWrite(let failure): throw CommandFailure.exit("--save: \(failure); nothing saved")
            }
        }
        LineOutput.err("saved \(Plural.of(beacons.count, "beacon")) to \(path.escapingControlCharacters)")
    }

    var region: BeaconRegion {
        // validate() has checked the constraints.
        if let namespace = namespace.flatMap({ EddystoneNamespace($0) }) {
            return BeaconRegion(namespace: namespace, instance: instance.flatMap { EddystoneInstance($0) })
        }
        return (try? BeaconRegion(uuid: uuid.flatMap { BeaconUUID($0) }, major: major.map { UInt16($0) }, minor: minor.map { UInt16($0) })) ?? .any
    }

    var distanceModel: DistanceModel {
        switch model {
        case .altbeacon: .altBeacon
        case .pathloss: .pathLoss(exponent: pathLossExponent)
        }
    }

    mutating func run() async throws {
        // A path --save cannot write is refused now, not after the scan.
        if let save {
            do throws(OutputFileError) { try AtomicOutputFile.check(save) } catch { throw CommandFailure.exit("--save: \(error)") }
        }
        let connection = try AdapterChoice.openAll(controller, receiver: at, channel: air.channel(areasFrom: areas)).get()[0]
        let style: ScanOutput.Style = json || !LineOutput.standardOutputIsTerminal ? .json : (LiveOutput.mode.isLive ? .table : .plain)
        let scanning = phone.scanning(model: distanceModel, exitAfter: exitAfter?.duration)
        let output = ScanOutput(style: style, adapter: connection.spec.description, region: region, model: scanning.ranging.model,
                                phone: phone.phone)
        let hci = try AdapterChoice.hci(connection, for: "scan")
        let session = try ScanSession(hci: hci, owned: connection.mayReset, phone: scanning, regions: [region])
        let duration = self.duration?.duration
        defer { connection.close() }  // the HCI session, and the air link's socket
        let heard = Mutex(HeardFleet())
        let page = try await webOptions.start()
        // The page: at each ranging and region change, and each second for the reports count and the elapsed time.
        let changes = LivePageChanges()
        let feeding = page?.follow(changes, refreshingEvery: .seconds(1)) { output.webSnapshot() }
        do {
            try await ScanRun.run(session, duration: duration, output: output) { update in
                if case .report(let sighting) = update { heard.withLock { $0.record(sighting) } } else { changes.changed() }
            }
        } catch {
            feeding?.cancel()
            await page?.stop()
            throw error
        }
        feeding?.cancel()
        await page?.stop()
        if let save { try Self.save(heard.withLock { $0 }, to: save, atOneMetre: atOneMetre) }
    }
}
