#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Send one HCI command on a kernel adapter and print its status and return parameters.

    hci_cmd.py --dev 0 OGF OCF [BYTE...]      e.g. hci_cmd.py --dev 0 0x08 0x003B
    hci_cmd.py --dev 0 --probe-sets

Prints "status=0xSS return=HEX" and exits 0 whatever the status (the caller judges it), 1 when
the command got no answer. The kernel test uses it for questions beacon does not answer, such as
"does advertising set 0 still exist?" (LE Remove Advertising Set answers Unknown Advertising
Identifier, 0x42, when it does not).

--probe-sets asks that for every advertising handle (0x00-0xEF, Core Vol 4 Part E §7.8.53) and
prints "sets: none" or "sets: 0x00 (status 0x0c), ...": the handles whose answer was not 0x42.
Beware: a set that exists and is not advertising is removed by the question.
"""

import argparse
import sys

from hci_raw import HCIError, RawHCI


UNKNOWN_ADVERTISING_IDENTIFIER = 0x42


def probe_sets(hci):
    found = []
    for handle in range(0x00, 0xF0):
        status, _ = hci.command(0x08, 0x003C, bytes([handle]))  # LE Remove Advertising Set
        if status != UNKNOWN_ADVERTISING_IDENTIFIER:
            found.append(f"0x{handle:02x} (status 0x{status:02x})")
    print("sets: " + (", ".join(found) if found else "none"))
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dev", type=int, required=True)
    parser.add_argument("--probe-sets", action="store_true")
    parser.add_argument("ogf", type=lambda s: int(s, 0), nargs="?")
    parser.add_argument("ocf", type=lambda s: int(s, 0), nargs="?")
    parser.add_argument("params", nargs="*", type=lambda s: int(s, 16))
    args = parser.parse_args()
    if not args.probe_sets and (args.ogf is None or args.ocf is None):
        parser.error("give OGF and OCF, or --probe-sets")
    hci = RawHCI(args.dev)
    try:
        if args.probe_sets:
            return probe_sets(hci)
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
