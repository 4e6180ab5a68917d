#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Advertise one extended advertising set on a kernel adapter, independently of beacon.

    hci_ext_adv.py --dev 0 --handle 0 --address D9:EA:F0:DE:76:63 --data HEX [--legacy-pdu]
    hci_ext_adv.py --dev 0 --handle 0 --remove

The kernel test uses it to prove its receiver's extended-scanning path on its own, so that a
failure of `beacon advertise` cannot be blamed on the receiver. Commands (Core Vol 4 Part E):
LE Set Extended Advertising Parameters (§7.8.53, the 25-byte form of Core 5.0-5.3), LE Set
Advertising Set Random Address (§7.8.52), LE Set Extended Advertising Data (§7.8.54, one complete
fragment), LE Set Extended Advertising Enable (§7.8.56); --remove disables every set and removes
this one (LE Remove Advertising Set, §7.8.59). Exit status 0 when every command answered 0x00.
"""

import argparse
import struct
import sys

from hci_raw import EXTENDED_NONCONN, LE, LEGACY_NONCONN, HCIError, RawHCI, extended_advertising_parameters


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dev", type=int, required=True)
    parser.add_argument("--handle", type=lambda s: int(s, 0), default=0)
    parser.add_argument("--address", help="random static address, AA:BB:CC:DD:EE:FF")
    parser.add_argument("--data", help="advertising data, hex")
    parser.add_argument("--legacy-pdu", action="store_true", help="advertise with legacy PDUs")
    parser.add_argument("--remove", action="store_true")
    args = parser.parse_args()

    hci = RawHCI(args.dev)
    h = args.handle
    try:
        if args.remove:
            # Disable ALL sets (Number_of_Sets 0): btvirt clears its legacy "advertising is on"
            # state only then, and would otherwise refuse later legacy commands with 0x0C.
            hci.command(LE, 0x0039, struct.pack("<BB", 0x00, 0))
            hci.must(LE, 0x003C, bytes([h]), "LE Remove Advertising Set")
            return 0
        if not (args.address and args.data):
            parser.error("--address and --data are needed to advertise")
        properties = LEGACY_NONCONN if args.legacy_pdu else EXTENDED_NONCONN
        hci.must(LE, 0x0036, extended_advertising_parameters(h, properties),
                 "LE Set Extended Advertising Parameters")
        address = bytes(reversed(bytes.fromhex(args.address.replace(":", ""))))
        hci.must(LE, 0x0035, bytes([h]) + address, "LE Set Advertising Set Random Address")
        data = bytes.fromhex(args.data)
        complete_fragment, no_fragmentation = 0x03, 0x01
        hci.must(LE, 0x0037, struct.pack("<BBBB", h, complete_fragment, no_fragmentation, len(data)) + data,
                 "LE Set Extended Advertising Data")
        hci.must(LE, 0x0039, struct.pack("<BBBHB", 0x01, 1, h, 0, 0), "LE Set Extended Advertising Enable")
    except HCIError as error:
        print(f"hci_ext_adv: {error}", file=sys.stderr)
        return 1
    finally:
        hci.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
