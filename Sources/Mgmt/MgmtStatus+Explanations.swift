// SPDX-License-Identifier: GPL-2.0-or-later
import HCI

extension MgmtStatus {
    /// The table behind `name` and `explanation`, one entry per code of doc/mgmt-api.txt
    /// "Error Codes". The advice is for advertising, the only thing beacon asks the kernel for;
    /// pairing and connection codes say so, since meeting one hints at a confused kernel.
    var entry: (name: String, explanation: TermedText)? {
        switch rawValue {
        case 0x00: ("Success", "the command succeeded.")
        case 0x01: ("Unknown Command",
            "this kernel does not know the command: it is older than the management API version that added it (Add Extended Advertising Parameters needs kernel 5.10, management 1.19). beacon falls back to Add Advertising where it can; otherwise use \(FrontEndTerm.adapter("raw:hci0")) or a newer kernel.")
        case 0x02: ("Not Connected", "the command needs a connection that does not exist (beacon never connects).")
        case 0x03: ("Failed",
            "the kernel could not carry out the command; the controller refused what the kernel sent it. Check dmesg and `btmon` for the HCI error behind it.")
        case 0x04: ("Connect Failed", "a connection attempt failed (beacon never connects).")
        case 0x05: ("Authentication Failed", "pairing or authentication failed (beacon never pairs).")
        case 0x06: ("Not Paired", "the device is not paired (beacon never pairs).")
        case 0x07: ("No Resources",
            "the kernel has no room for another advertising instance: the adapter's instances are all taken (by beacon or other programs). Run fewer beacons, or remove other programs' advertisements.")
        case 0x08: ("Timeout", "the controller did not answer the kernel in time. Check the adapter (dmesg, \(FrontEndTerm.examineAdapter)).")
        case 0x09: ("Already Connected", "a connection already exists (beacon never connects).")
        case 0x0A: ("Busy",
            "another advertising or LE command is still in progress in the kernel (bluetoothd or another program is changing the adapter right now). Retry in a moment.")
        case 0x0B: ("Rejected",
            "the kernel rejected the command in the adapter's state: LE is off or the adapter is powered off. Power it on with `bluetoothctl power on` (or `btmgmt --index 0 power on`) and make sure LE is enabled (`btmgmt --index 0 le on`).")
        case 0x0C: ("Not Supported",
            "the adapter or kernel does not support this: no LE, or no advertising. Use another adapter, or \(FrontEndTerm.adapter("raw:hci0")).")
        case 0x0D: ("Invalid Parameters",
            "the kernel refused a parameter: an instance outside 1…max instances, an interval or TX power out of range, flags it does not support, or advertising data it will not take (too long, malformed, or a Flags structure while the kernel manages the flags).")
        case 0x0E: ("Disconnected", "a connection ended (beacon never connects).")
        case 0x0F: ("Not Powered",
            "the adapter is powered off. Power it on with `bluetoothctl power on` or `btmgmt --index 0 power on`.")
        case 0x10: ("Cancelled", "the operation was cancelled, usually because the adapter went away or was powered off meanwhile.")
        case 0x11: ("Invalid Index",
            "no such adapter: it was unplugged, or the index is wrong. Run \(FrontEndTerm.listAdapters).")
        case 0x12: ("RFKilled", "the radio is blocked by rfkill: run `rfkill unblock bluetooth`.")
        case 0x13: ("Already Paired", "the device is already paired (beacon never pairs).")
        case 0x14: ("Permission Denied",
            "the management socket was opened without CAP_NET_ADMIN, so the kernel answers only a few read-only commands (version, adapter list) and refuses the rest. Run as root, or grant it once with: sudo setcap cap_net_admin+eip \"$(readlink -f \"$(command -v beacon)\")\"")
        default: nil
        }
    }
}
