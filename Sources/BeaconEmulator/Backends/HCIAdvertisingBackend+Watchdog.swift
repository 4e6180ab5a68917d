// SPDX-License-Identifier: GPL-2.0-or-later
import BeaconAdapters
import HCI
import HCITransport

/// The raw socket's watchdog: on a kernel adapter (`hci0` without bluetoothd, `raw:hci0`) the
/// kernel drives the same controller, and its hci_sync code disables and clears advertising
/// sets (powering the adapter off and on, pausing for its own scans and connections) and
/// resumes only its own. A raw HCI socket receives the Command Complete of every command the
/// kernel sends; those that can take ours off the air start a restore.
extension HCIAdvertisingBackend {
    /// How long after the kernel's last command that can take ours off the air the restore
    /// starts: each such command moves it on, so the restore follows the end of a burst (a
    /// power-on's initialisation, a scan's pause) instead of being undone by its next command.
    public static let burstSettle: Duration = .milliseconds(100)

    /// The loss a Command Complete that answers none of our commands stands for, if any.
    public static func loss(from event: HCIEvent) -> AdvertisingLoss? {
        guard case .commandComplete(let complete) = event, complete.status == .success else { return nil }
        switch complete.opcode {
        case HCIReset.opcode:
            return AdvertisingLoss(reason: "the kernel reset the controller (HCI Reset: the adapter was powered off and on)", cleared: true, settle: Self.burstSettle, adapterBack: true)
        case LEClearAdvertisingSets.opcode:
            return AdvertisingLoss(reason: "the kernel removed every advertising set (LE Clear Advertising Sets)", cleared: true, settle: Self.burstSettle)
        case LERemoveAdvertisingSet.opcode:
            return AdvertisingLoss(reason: "the kernel removed an advertising set (LE Remove Advertising Set)", cleared: false, settle: Self.burstSettle)
        case LESetExtendedAdvertisingEnable.opcode:
            return AdvertisingLoss(reason: "the kernel switched advertising sets on or off (LE Set Extended Advertising Enable)", cleared: false, settle: Self.burstSettle)
        case LESetAdvertisingEnable.opcode:
            return AdvertisingLoss(reason: "the kernel switched advertising on or off (LE Set Advertising Enable)", cleared: false, settle: Self.burstSettle)
        default:
            return nil
        }
    }

    /// Sets each advertiser up again, one at a time. The Command Complete does not say which
    /// sets the kernel's command named, so each is tried: an advertiser still on air refuses
    /// its first command (parameters, or the legacy random address, while enabled) with Command
    /// Disallowed (Core Vol 4 Part E §7.8.53, §7.8.4, §7.8.5) and is left as it is.
    public func restore(_ state: AdvertisingState, after loss: AdvertisingLoss) async throws(AdapterError) -> [UInt8] {
        var restored: [UInt8] = []
        do throws(HCIControllerError) {
            for handle in state.keys.sorted() {
                let steps = AdvertisingProgram.steps(from: [:], to: [handle: state[handle]!], extended: extended)
                guard let first = steps.first else { continue }
                guard try await sendUnlessOnAir(first, cleared: loss.cleared) else { continue }
                try await sender.send(Array(steps.dropFirst()))
                restored.append(handle)
            }
        } catch {
            throw .hci(error)
        }
        return restored
    }

    /// Sends an advertiser's first command; false when the controller refuses it because the
    /// advertiser is still on air (Command Disallowed), which after a clearing loss cannot be.
    private func sendUnlessOnAir(_ command: any HCICommand, cleared: Bool) async throws(HCIControllerError) -> Bool {
        guard let error = await refusal(of: command) else { return true }
        if error.status == .commandDisallowed && !cleared { return false }
        throw error
    }

    /// Sends `command`; its error, if any.
    private func refusal(of command: any HCICommand) async -> HCIControllerError? {
        do throws(HCIControllerError) {
            try await sender.send([command])
            return nil
        } catch {
            return error
        }
    }
}
