#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Advertise one extended advertising set on a kernel adapter, independently of beacon.

    hci_ext_adv.py --dev 0 --handle 0 --address D9:EA:F0:DE:76:63 --data HEX [--legacy-pdu]
    hci_ext_adv.py --dev 0 --handle 0 --remove

The kernel test uses it to prove its receiver's extended-scanning path on its own, so that a
failure of `beacon advertise` cannot be blamed on the receiver. Commands (Core Vol 4 Part E):
LE Set Extended Advertising Parameters (§7.8.53, the 25-byte form of Core 5.0-5.3), LE Set
Advertising Set Random Address (§7.8.52), LE Set Extended Advertising Data (§7.8.54, one complete
fragment), LE Set Extended Advertising Enable (§7.8.56); --remove disables the set and removes it
(LE Remove Advertising Set, §7.8.59). Exit status 0 when every command answered 0x00.
"""

import argparse
import struct
import sys

from hci_raw import HCIError, RawHCI

LE = 0x08
# Advertising_Event_Properties (§7.8.53): bit 4 = use legacy PDUs. 0x0010 alone is a legacy
# ADV_NONCONN_IND; 0x0000 an extended non-connectable, non-scannable ADV_EXT_IND.
LEGACY_NONCONN = 0x0010
EXTENDED_NONCONN = 0x0000


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
            hci.command(LE, 0x0039, struct.pack("<BBBHB", 0x00, 1, h, 0, 0))
            hci.must(LE, 0x003C, bytes([h]), "LE Remove Advertising Set")
            return 0
        if not (args.address and args.data):
            parser.error("--address and --data are needed to advertise")
        interval = 0x0000A0  # 100 ms in 0.625 ms units, 3 bytes
        properties = LEGACY_NONCONN if args.legacy_pdu else EXTENDED_NONCONN
        random_own_address, no_preference_tx_power, phy_1m = 0x01, 0x7F, 0x01
        params = struct.pack("<BH", h, properties)
        params += interval.to_bytes(3, "little") * 2
        params += struct.pack("<BBB6sBbBBBBB", 0x07, random_own_address, 0x00, bytes(6), 0x00,
                              no_preference_tx_power, phy_1m, 0x00, phy_1m, 0x00, 0x00)
        hci.must(LE, 0x0036, params, "LE Set Extended Advertising Parameters")
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
