// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import HCI

/// A command a controller would refuse, found before anything is sent: what a run checks before
/// its first command, and what a dry run reports for assumed controllers.
public struct CommandRefusal: Error, Sendable, CustomStringConvertible {
    /// The adapter (the capabilities' `adapter`).
    public var adapter: AdapterName
    /// The command's name (its type's `name`).
    public var command: String
    /// Why the controller would refuse it.
    public var error: HCIValidationError

    /// The refusal of `command` by `adapter`.
    public init(adapter: AdapterName, command: String, error: HCIValidationError) {
        self.adapter = adapter
        self.command = command
        self.error = error
    }

    public var description: String { "\(adapter): \(command) would be refused: \(error)" }

    /// Checks `commands` in order against the controller `capabilities` describe; the first one
    /// it would refuse is thrown.
    public static func check(_ commands: [any HCICommand], for capabilities: ControllerCapabilities) throws(CommandRefusal) {
        for command in commands {
            do throws(HCIValidationError) { try command.validate(for: capabilities.hciInfo) } catch {
                throw CommandRefusal(adapter: capabilities.adapter, command: type(of: command).name, error: error)
            }
        }
    }
}
