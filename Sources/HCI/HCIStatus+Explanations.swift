// SPDX-License-Identifier: GPL-2.0-or-later

extension HCIStatus {
    /// The table behind `name` and `explanation`, one entry per code of Core Vol 1 Part F §1.3.
    /// Explanations favour what an advertiser or scanner sees; connection-oriented codes say so,
    /// because beacon never opens a connection and meeting one hints at another program.
    var entry: (name: String, explanation: TermedText)? {
        switch rawValue {
        case 0x00: ("Success", "the command succeeded.")
        case 0x01: ("Unknown HCI Command",
            "the controller does not implement this command; it is probably too old for it (for example Bluetooth 4.x has no extended advertising). Use legacy advertising or a Bluetooth 5 adapter.")
        case 0x02: ("Unknown Connection Identifier",
            "the connection or handle named in the command does not exist (any more).")
        case 0x03: ("Hardware Failure",
            "the controller reported a hardware fault. Unplug and replug the adapter or reset it with \(FrontEndTerm.stop); check dmesg for USB errors.")
        case 0x04: ("Page Timeout", "the remote device did not answer a page (BR/EDR connection attempt).")
        case 0x05: ("Authentication Failure", "pairing or authentication with a remote device failed.")
        case 0x06: ("PIN or Key Missing", "pairing failed because the PIN or link key was missing or wrong.")
        case 0x07: ("Memory Capacity Exceeded",
            "the controller has no room for another advertising set or for this much data. Run fewer beacons at once, or shorten the data.")
        case 0x08: ("Connection Timeout", "the link supervision timeout expired on a connection.")
        case 0x09: ("Connection Limit Exceeded", "the controller cannot hold any more connections.")
        case 0x0A: ("Synchronous Connection Limit To A Device Exceeded",
            "no more SCO/eSCO (audio) links to this device are possible.")
        case 0x0B: ("Connection Already Exists", "a connection to this device already exists.")
        case 0x0C: ("Command Disallowed",
            "the controller refused the command in its current state: advertising or scanning is already on and its parameters or address cannot change while enabled, or legacy and extended advertising commands were mixed since the last reset. Run \(FrontEndTerm.stop) (or reset the adapter) and try again; make sure no other program (bluetoothd, another beacon) drives the same adapter.")
        case 0x0D: ("Connection Rejected due to Limited Resources", "the remote side has no resources for a connection.")
        case 0x0E: ("Connection Rejected Due To Security Reasons", "the remote side rejected the connection for security reasons.")
        case 0x0F: ("Connection Rejected due to Unacceptable BD_ADDR", "the remote side does not accept connections from this address.")
        case 0x10: ("Connection Accept Timeout Exceeded", "an incoming connection was not accepted in time.")
        case 0x11: ("Unsupported Feature or Parameter Value",
            "the controller does not support a feature or a parameter value in this command (for example the Coded PHY, a TX power, or an option newer than the adapter). Use plainer settings: LE 1M PHY, no TX power preference.")
        case 0x12: ("Invalid HCI Command Parameters",
            "a parameter is out of the range this controller accepts (interval, data length, handle, channel map …). Check the values against the limits `beacon` prints, and the adapter's own limits.")
        case 0x13: ("Remote User Terminated Connection", "the remote user ended the connection.")
        case 0x14: ("Remote Device Terminated Connection due to Low Resources", "the remote device ended the connection for lack of resources.")
        case 0x15: ("Remote Device Terminated Connection due to Power Off", "the remote device is powering off.")
        case 0x16: ("Connection Terminated By Local Host", "this host ended the connection.")
        case 0x17: ("Repeated Attempts", "pairing is refused for now because of too many recent attempts; wait and retry.")
        case 0x18: ("Pairing Not Allowed", "the device does not allow pairing at the moment.")
        case 0x19: ("Unknown LMP PDU", "the remote controller sent a link-manager message this one does not know.")
        case 0x1A: ("Unsupported Remote Feature", "the remote device lacks a feature the procedure needs.")
        case 0x1B: ("SCO Offset Rejected", "the remote side rejected the requested SCO offset.")
        case 0x1C: ("SCO Interval Rejected", "the remote side rejected the requested SCO interval.")
        case 0x1D: ("SCO Air Mode Rejected", "the remote side rejected the requested SCO air mode.")
        case 0x1E: ("Invalid LMP Parameters / Invalid LL Parameters", "the remote link layer received parameters it considers invalid.")
        case 0x1F: ("Unspecified Error",
            "the controller failed without saying why. Reset the adapter (\(FrontEndTerm.stop), or unplug it) and retry; if it persists, try plainer parameters.")
        case 0x20: ("Unsupported LMP Parameter Value / Unsupported LL Parameter Value", "the remote link layer does not support a requested value.")
        case 0x21: ("Role Change Not Allowed", "a role switch is not allowed now.")
        case 0x22: ("LMP Response Timeout / LL Response Timeout", "the remote link layer did not answer in time.")
        case 0x23: ("LMP Error Transaction Collision / LL Procedure Collision", "two link-layer procedures collided; retry.")
        case 0x24: ("LMP PDU Not Allowed", "a link-manager message was sent when not allowed.")
        case 0x25: ("Encryption Mode Not Acceptable", "the requested encryption mode is not acceptable.")
        case 0x26: ("Link Key cannot be Changed", "the link key cannot be changed because a fixed unit key is in use.")
        case 0x27: ("Requested QoS Not Supported", "the requested quality of service is not supported.")
        case 0x28: ("Instant Passed", "a link-layer instant was already in the past.")
        case 0x29: ("Pairing With Unit Key Not Supported", "pairing with a unit key is not supported.")
        case 0x2A: ("Different Transaction Collision", "a link-layer transaction collided with a different one; retry.")
        case 0x2C: ("QoS Unacceptable Parameter", "a quality-of-service parameter is not acceptable.")
        case 0x2D: ("QoS Rejected", "the quality-of-service request was rejected.")
        case 0x2E: ("Channel Classification Not Supported", "the device does not support channel classification.")
        case 0x2F: ("Insufficient Security", "the link is not secure enough for the request.")
        case 0x30: ("Parameter Out Of Mandatory Range", "a parameter is outside the range the specification makes mandatory.")
        case 0x32: ("Role Switch Pending", "a role switch is in progress; retry later.")
        case 0x34: ("Reserved Slot Violation", "a synchronous-link slot reservation was violated.")
        case 0x35: ("Role Switch Failed", "the role switch failed.")
        case 0x36: ("Extended Inquiry Response Too Large", "the extended inquiry response data is too large for the packet.")
        case 0x37: ("Secure Simple Pairing Not Supported By Host", "the remote host does not support Secure Simple Pairing.")
        case 0x38: ("Host Busy - Pairing", "the host is busy pairing; retry later.")
        case 0x39: ("Connection Rejected due to No Suitable Channel Found", "no suitable channel could be found for the connection.")
        case 0x3A: ("Controller Busy",
            "the controller is busy (often scanning, or serving another program); retry, or stop what else uses the adapter.")
        case 0x3B: ("Unacceptable Connection Parameters", "the connection parameters are not acceptable.")
        case 0x3C: ("Advertising Timeout",
            "advertising stopped because its duration or maximum number of events was reached. Give a longer duration, or 0 for no limit.")
        case 0x3D: ("Connection Terminated due to MIC Failure", "the connection ended because a message integrity check failed.")
        case 0x3E: ("Connection Failed to be Established / Synchronization Timeout",
            "a connection or periodic-advertising synchronisation could not be established in time.")
        case 0x40: ("Coarse Clock Adjustment Rejected but Will Try to Adjust Using Clock Dragging", "a coarse clock adjustment was rejected.")
        case 0x41: ("Type0 Submap Not Defined", "the Type 0 submap is not defined.")
        case 0x42: ("Unknown Advertising Identifier",
            "no advertising set has this handle: it was never configured, or was removed or cleared (for example by a reset). Set the parameters for the set first.")
        case 0x43: ("Limit Reached",
            "the controller reached a limit, such as its maximum number of advertising sets or of periodic advertisers. Run fewer beacons at once.")
        case 0x44: ("Operation Cancelled by Host", "the host cancelled the operation.")
        case 0x45: ("Packet Too Long",
            "the data is longer than the controller can send in one advertising event. Shorten it, or lengthen the interval.")
        case 0x46: ("Too Late", "the data arrived too late for the event it was meant for.")
        case 0x47: ("Too Early", "the data arrived too early for the event it was meant for.")
        case 0x48: ("Insufficient Channels", "too few radio channels are usable for the procedure.")
        default: nil
        }
    }
}

extension HCIStatus {
    /// The explanation for a failure of the command `opcode`. The table's explanations of these
    /// codes speak of advertising, true only of LE controller commands (OGF 0x08); a failed
    /// Read Local Version Information must not send the user off to count advertising sets.
    /// Its advice names actions as ``FrontEndTerm``s, which the front end presenting it names.
    func explanation(for opcode: HCIOpcode) -> TermedText? {
        guard opcode.ogf != 0x08 else { return explanation }
        switch rawValue {
        case 0x01: return "the controller does not implement this command, which every Bluetooth controller should; it may not be a Bluetooth controller, or it is faulty. Check the adapter (\(FrontEndTerm.examineAdapter))."
        case 0x07: return "the controller ran out of memory. Reset the adapter (\(FrontEndTerm.stopWithReset), or unplug it) and retry."
        case 0x0C: return "the controller refused the command in its current state. Make sure no other program (bluetoothd, another beacon) drives the same adapter, reset it (\(FrontEndTerm.stopWithReset)) and retry."
        case 0x3C, 0x42, 0x43, 0x45: return "the controller gave an advertising error code to a command that is not about advertising: it is misbehaving. Reset the adapter (\(FrontEndTerm.stopWithReset), or unplug it) and retry."
        default: return explanation
        }
    }
}

