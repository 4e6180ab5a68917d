#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Send one HCI command on a kernel adapter and print its status and return parameters.

    hci_cmd.py --dev 0 OGF OCF [BYTE...]      e.g. hci_cmd.py --dev 0 0x08 0x003B
    hci_cmd.py --dev 0 --free-sets 3

Prints "status=0xSS return=HEX" and exits 0 whatever the status (the caller judges it), 1 when
the command got no answer. The kernel test uses it for questions beacon does not answer, such as
"does advertising set 0 still exist?" (LE Remove Advertising Set answers Unknown Advertising
Identifier, 0x42, when it does not).

--free-sets N counts how many advertising sets the controller can still make (at most N): it
creates sets at handles 0xEF, 0xEE, ... (LE Set Extended Advertising Parameters, §7.8.53) until
one fails, removes them again and prints "free sets: K (next status 0xSS)". On a controller
with N sets in all, K == N proves that no set is left, whatever its handle.
"""

import argparse
import sys

from hci_raw import LE, LEGACY_NONCONN, HCIError, RawHCI, extended_advertising_parameters


def count_free_sets(hci, limit):
    made, status = [], 0x00
    for handle in range(0xEF, 0xEF - limit - 1, -1):
        status, _ = hci.command(LE, 0x0036, extended_advertising_parameters(handle, LEGACY_NONCONN))
        if status != 0x00:
            break
        made.append(handle)
    for handle in made:
        hci.command(LE, 0x003C, bytes([handle]))  # LE Remove Advertising Set
    print(f"free sets: {len(made)} (next status 0x{status:02x})")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dev", type=int, required=True)
    parser.add_argument("--free-sets", type=int, metavar="N")
    parser.add_argument("ogf", type=lambda s: int(s, 0), nargs="?")
    parser.add_argument("ocf", type=lambda s: int(s, 0), nargs="?")
    parser.add_argument("params", nargs="*", type=lambda s: int(s, 16))
    args = parser.parse_args()
    if args.free_sets is None and (args.ogf is None or args.ocf is None):
        parser.error("give OGF and OCF, or --free-sets N")
    hci = RawHCI(args.dev)
    try:
        if args.free_sets is not None:
            return count_free_sets(hci, args.free_sets)
        status, rest = hci.command(args.ogf, args.ocf, bytes(args.params))
    except HCIError as error:
        print(f"hci_cmd: {error}", file=sys.stderr)
        return 1
    finally:
        hci.close()
    print(f"status=0x{status:02x} return={rest.hex().upper()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
