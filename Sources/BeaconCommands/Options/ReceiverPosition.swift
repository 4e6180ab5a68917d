// SPDX-License-Identifier: GPL-2.0-or-later
import ArgumentParser
import BeaconRadio
import HCITransport
import VirtualController

/// `--at X,Y[,Z]`: where the receiver of `-i virtual` stands on the shared virtual air (metres,
/// the frame of the profiles' `position:`).
extension Point: ExpressibleByArgument {
    public init?(argument: String) { self.init(parsing: argument) }

    static let argumentHelp = ArgumentHelp(
        "With -i virtual: where the receiver is on the shared virtual air, in metres: x,y or x,y,z (z its height; default 0,0,0, and for locate a z left out or 0 is the fleet's receiver_height). RSSI follows free-space path loss over the slant distance to each beacon's position, its z the mounting height.",
        valueName: "x,y[,z]")

    /// `--at` means something only to the virtual controller.
    static func check(_ at: Point?, controller: ControllerOptions) throws {
        guard at != nil else { return }
        if !isVirtual(controller) { throw ValidationError("--at places the receiver on the shared virtual air: it needs -i virtual") }
    }

    /// Whether every controller `-i` names is the virtual one (the shared air's).
    static func isVirtual(_ controller: ControllerOptions) -> Bool {
        controller.specs?.allSatisfy { if case .virtual = $0 { true } else { false } } ?? false
    }
}
