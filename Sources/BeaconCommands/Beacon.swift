// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import BeaconSystem

/// The `beacon` command: the root of every subcommand.
///
/// `main()` is our own rather than ArgumentParser's so that usage errors exit with 2 (the shell
/// convention) instead of ArgumentParser's `EX_USAGE` (64); see ``ExitStatus``.
struct Beacon: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "beacon",
        abstract: "Turn a Linux box into one or many beacons (iBeacon, AltBeacon, Eddystone), and encode, decode and check their payloads.",
        discussion: """
            Offline commands (encode, decode, validate, list) need no Bluetooth adapter. \
            advertise, cycle, play, walk, scan, locate --live, stop and doctor drive a controller, \
            chosen with -i: hci0 (or 0: the kernel management API when bluetoothd runs, else the \
            raw socket), raw:hci0, user:hci0, mgmt:hci0, tcp:HOST:PORT, \
            serial:/dev/ttyACM0, virtual (the built-in virtual \
            controller, no hardware needed), hci0,hci1 or all (scan and locate --live listen \
            on one); without -i, the first kernel \
            adapter. adapters lists the kernel's adapters.

            Files: every profile, trace or capture argument may be - (standard input) or a \
            pipe such as <(cat FILE). Output files (--save, --air-log, --btsnoop) are regular \
            files only, never written through a symbolic link; a write that fails is reported \
            and the exit status is 1.

            ENVIRONMENT
              BEACON_AIR  the shared virtual air's directory (default
                          $XDG_RUNTIME_DIR/beacon-air, else /tmp/beacon-air-UID);
                          it must be yours, mode 0700, not a symbolic link;
                          off keeps -i virtual to its own process
              XDG_RUNTIME_DIR  where the virtual air lives when BEACON_AIR is unset
              TERM        unset or dumb: plain lines instead of the live view
              NO_COLOR    set: a live view without colour

            Shell completion: beacon --generate-completion-script bash (or zsh, fish).

            Data goes to standard output, errors and diagnostics to standard error. Every \
            command takes -q (no plan, notes or progress; -qq: errors only), -v (more: -vv \
            debug, -vvv every HCI packet) and --log-level LEVEL (trace, debug, info, notice, \
            warning, error, critical), anywhere on the line.

            EXIT STATUS
              0   success
              1   runtime failure (unreadable file, I/O error, an adapter that
                  cannot be opened or does not answer, a teardown that failed:
                  the message names what may still be on air)
              2   usage error: an unknown option, a missing argument, or an
                  out-of-range value such as --major 70000 or --power 200
                  (the message names the allowed range)
              65  invalid payload or profile (sysexits EX_DATAERR): decode found
                  no valid iBeacon, or a profile file has issues
              130 a second Ctrl-C while advertising stops without waiting
                  for the teardown

            FILES
              profiles/*.yaml        the example profiles (bm1, room-2m,
                                     station-160, example: every field)
              scenarios/*.yaml       the example scenarios for play
              /etc/beacon/NAME.yaml  the profile of the service beacon@NAME
                                     (contrib/systemd/beacon@.service)
              /etc/beacon/NAME.env   that service's options:
                                     BEACON_OPTIONS="-i hci1 ..."
              $BEACON_AIR            the shared virtual air: one UNIX datagram
                                     socket per scanning virtual controller

            EXAMPLES
              Try it without hardware (terminal 1), and hear it (terminal 2):
                beacon advertise profiles/room-2m.yaml -i virtual --duration 10
                beacon scan -i virtual --at 0.5,0.2 --duration 5s
              Check files, and print a beacon's packets:
                beacon validate profiles/*.yaml
                beacon encode profiles/bm1.yaml --format hcitool
              Every command's --help ends with its own examples.

            SEE ALSO
              beacon COMMAND --help; README.md and docs/ in the source (profiles,
              ranging, positioning, scenarios, tutorials); btmgmt(1), btmon(1),
              hcitool(1), bluetoothd(8), systemd.service(5)
            """,
        version: BeaconVersion.string,
        subcommands: [
            EncodeCommand.self,
            DecodeCommand.self,
            ValidateCommand.self,
            ListCommand.self,
            AdvertiseCommand.self,
            CycleCommand.self,
            StopCommand.self,
            AdaptersCommand.self,
            DoctorCommand.self,
            ScanCommand.self,
            LocateCommand.self,
            PlayCommand.self,
            WalkCommand.self,
            SiteCommand.self,
            AgentCommand.self,
        ]
    )

    static func main() async {
        LineOutput.ignoreBrokenPipes()
        OutputFailures.reportFileSizeLimitAsAnError()
        let arguments: [String]
        do throws(LogSettings.Problem) {
            let (settings, rest) = try LogSettings.extract(Array(CommandLine.arguments.dropFirst()))
            Log.bootstrap(settings)
            arguments = rest
        } catch {
            LineOutput.err("error: \(error)")
            LiveSystemCalls().exit(ExitStatus.usage.rawValue)
        }
        await ExitStatus.run(Self.self, arguments: arguments)
    }
}
