// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconSystem
import ArgumentParser
import BeaconCodec
import BeaconAdapters
import BeaconEmulator
import Foundation
import HCI
import HCITransport
import VirtualController
import BeaconRadio

/// Which controllers a command opens, and opening them, with every failure explained.
enum AdapterChoice {
    /// How long a command may wait for its reply. A controller that does not answer (a silent
    /// TCP peer, a UART at the wrong baud rate) fails after this long, naming the command.
    static let commandTimeout = AdapterOpening.standardCommandTimeout

    /// The adapters `-i` names, `all` expanded; without `-i`, the first kernel adapter. Never
    /// falls back to the virtual controller: a user who wants it says `-i virtual`. A failure
    /// is printed.
    static func specs(_ options: ControllerOptions) -> Result<[AdapterSpec], ExitCode> {
        resolve(options).mapError { CommandFailure.exit($0.message) }
    }

    /// Why no adapter could be chosen, with the advice.
    struct Unavailable: Error {
        var error: TransportError
        /// What to do instead, when `-i` was not given.
        var advice: String?
        var message: TermedText { error.termedText + TermedText(advice ?? "") }
    }

    /// ``specs(_:)`` without printing.
    static func resolve(_ options: ControllerOptions) -> Result<[AdapterSpec], Unavailable> {
        do throws(TransportError) {
            return .success(try AdapterOpening.adapters(named: options.adapter))
        } catch {
            return .failure(Unavailable(error: error, advice: defaultHint(CommandLineTerms.text(describing: error), options: options)))
        }
    }

    /// What the user can do instead of a kernel adapter, when `-i` was not given (to follow `message`).
    static func defaultHint(_ message: String, options: ControllerOptions) -> String? {
        guard options.adapter == nil, !message.contains("-i virtual") else { return nil }
        return ". Without -i, beacon uses the first kernel adapter; name another with -i tcp:HOST:PORT or serial:/dev/ttyACM0, or try beacon without Bluetooth hardware with -i virtual"
    }

    /// The btsnoop writer `--btsnoop` asks for; `inputs` are the command's input files, which it
    /// must not overwrite. A write failure later in the run is printed once, the run goes on
    /// without the capture and its exit status is 1 (see the option's help).
    static func snoop(_ options: ControllerOptions, inputs: [String] = []) -> Result<BTSnoopWriter?, ExitCode> {
        guard let path = options.btsnoop else { return .success(nil) }
        if path == "-" { return .failure(CommandFailure.exit("--btsnoop: - (standard output) is not taken: the command prints there; name a file (./- for a file named -)")) }
        do throws(OutputFileError) {
            return .success(try BTSnoopWriter(path: path, inputs: inputs) { OutputFailures.report(CommandLineTerms.text($0)) })
        } catch {
            return .failure(CommandFailure.exit("--btsnoop: \(error)"))
        }
    }

    /// The HCI session of `connection`, or a failure saying why a `mgmt:` adapter cannot `purpose`.
    static func hci(_ connection: AdapterConnection, for purpose: String) throws(ExitCode) -> HCIController {
        do throws(TransportError) { return try connection.requireHCI(for: purpose) } catch {
            connection.close()
            throw CommandFailure.exit("\(error)")
        }
    }

    /// The shared virtual air `-i virtual` joins: `$BEACON_AIR` (`off`: none), else a directory
    /// of this user's (see ``SharedAir/fromEnvironment(_:)``).
    static var sharedAir: SharedAir? { SharedAir.fromEnvironment(ProcessInfo.processInfo.environment) }

    /// The adapters `-i` names and how the library opens them (``AdapterOpening``): with the
    /// command timeout, the `--btsnoop` writer, on the shared air. A virtual receiver is at
    /// `receiver` (`--at`; the origin without it); `channel`: what the air does to what it hears
    /// (`--air`); `advertising`: a plain kernel adapter (`hci0`) gets the backend
    /// ``BackendChoice`` picks. A failure is printed.
    static func opening(_ options: ControllerOptions, inputs: [String] = [], receiver: Point? = nil, advertising: Bool = false,
                        channel: AirChannel = .clean) -> Result<(specs: [AdapterSpec], opening: AdapterOpening), ExitCode> {
        specs(options).flatMap { specs in
            // A UART the controller is on is not a capture file either.
            let devices = specs.compactMap { spec -> String? in if case .serial(let path, _, _) = spec { path } else { nil } }
            return snoop(options, inputs: inputs + devices).map { snoop in
                (specs, AdapterOpening(commandTimeout: commandTimeout, btsnoop: snoop, air: sharedAir, receiver: receiver ?? Point(x: 0, y: 0),
                                       channel: channel, advertising: advertising))
            }
        }
    }

    /// Opens every adapter `-i` names (all or none, see ``AdapterOpening/open(_:)-([AdapterSpec])``);
    /// a failure, with its advice, is printed.
    static func openAll(_ options: ControllerOptions, inputs: [String] = [], receiver: Point? = nil, advertising: Bool = false,
                        channel: AirChannel = .clean) -> Result<[AdapterConnection], ExitCode> {
        opening(options, inputs: inputs, receiver: receiver, advertising: advertising, channel: channel).flatMap { choice in
            do throws(AdapterOpenError) { return .success(try choice.opening.open(choice.specs)) } catch {
                return .failure(CommandFailure.exit("\(error)"))
            }
        }
    }
}
