#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Check that the beacons of a profile arrived over the air, byte for byte.

    match_reports.py --beacon BIN --profile FILE --reports FILE.jsonl [--event KIND] [--name N]... [--any-address]

The verdict of the kernel test's air checks. For every beacon of the profile (as
`beacon list --json` describes it, or only those named with --name) it builds the expected
advertising data itself, from the listed fields and the iBeacon layout
(02 01 FLAGS | 1A FF 4C 00 02 15 | uuid | major BE | minor BE | power; Apple's Proximity Beacon
Specification, AD types from the Core Specification Supplement Part A §1.3 and §1.4), so the
check does not trust beacon's own encoder. A beacon counts as received when some report in
FILE.jsonl (hci_scan.py's output) carries exactly those bytes from the listed address, with a
random address type (the profile addresses are random static ones). Each received payload is
also decoded with `beacon decode --json` and must give back the listed uuid, major, minor and
power. With --legacy-pdu, an extended report must have its legacy-PDU bit set: an iBeacon on
extended PDUs is invisible to iPhones. Exit status 0 when every expected beacon was received and decoded correctly.
"""

import argparse
import json
import subprocess
import sys

RANDOM_ADDRESS = 0x01
# LE Extended Advertising Report event type (Core Vol 4 Part E §7.7.65.13), bit 4: legacy PDU.
EXTENDED_LEGACY_PDU = 1 << 4


def expected_data(beacon):
    flags = beacon.get("flags")
    data = bytearray()
    if flags not in (None, "none"):
        data += bytes([0x02, 0x01, int(flags, 16)])
    data += bytes([0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15])
    data += bytes.fromhex(beacon["uuid"].replace("-", ""))
    data += beacon["major"].to_bytes(2, "big") + beacon["minor"].to_bytes(2, "big")
    data += beacon["power"].to_bytes(1, "big", signed=True)
    return bytes(data)


def run_json(args):
    done = subprocess.run(args, capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        raise SystemExit(f"match_reports: {' '.join(args)} exited {done.returncode}: {done.stderr.strip()}")
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--beacon", required=True, help="the beacon binary")
    parser.add_argument("--profile", required=True)
    parser.add_argument("--reports", required=True, help="hci_scan.py output (JSON lines)")
    parser.add_argument("--event", default="any",
                        choices=["any", "le_advertising_report", "le_extended_advertising_report"])
    parser.add_argument("--name", action="append", help="only these beacons of the profile")
    parser.add_argument("--any-address", action="store_true",
                        help="accept the bytes from any address: through the kernel's management API "
                             "the kernel picks the address (a non-resolvable private one, or the "
                             "identity address when the adapter is connectable), not the profile")
    parser.add_argument("--legacy-pdu", action="store_true",
                        help="extended reports must be of legacy PDUs (phones see only those)")
    args = parser.parse_args()

    beacons = run_json([args.beacon, "list", "--json", args.profile])
    if args.name:
        beacons = [b for b in beacons if b["name"] in args.name]
    if not beacons:
        raise SystemExit("match_reports: the profile lists no (such) beacon")
    with open(args.reports) as f:
        reports = [json.loads(line) for line in f if line.strip()]
    if args.event != "any":
        reports = [r for r in reports if r["event"] == args.event]
    print(f"match_reports: {len(reports)} report(s), {len(beacons)} beacon(s) expected")

    missing = 0
    for beacon in beacons:
        want = expected_data(beacon)
        same_data = [r for r in reports if bytes.fromhex(r["data"]) == want]
        from_it = [r for r in same_data if args.any_address or
                   (r["address"] == beacon["address"] and r["address_type"] == RANDOM_ADDRESS)]
        not_legacy = [r for r in from_it if r["event"] == "le_extended_advertising_report"
                      and not r["event_type"] & EXTENDED_LEGACY_PDU]
        if args.legacy_pdu and not_legacy:
            missing += 1
            print(f"  NOT LEGACY {beacon['name']}: sent with extended PDUs (event type "
                  f"0x{not_legacy[0]['event_type']:04x}); iOS and most phones only see legacy ones")
            continue
        label = f"{beacon['name']} ({beacon['address']}, minor {beacon['minor']})"
        if not from_it:
            missing += 1
            seen = sorted({(r["address"], r["address_type"]) for r in same_data})
            hint = f"; the bytes did arrive from {seen}" if seen else ""
            print(f"  MISSING {label}: expected data {want.hex().upper()}{hint}")
            continue
        decoded = run_json([args.beacon, "decode", "--json", from_it[0]["data"]])[0]
        fields = ("uuid", "major", "minor", "power")
        wrong = [f"{k}: decoded {decoded.get(k)!r}, listed {beacon[k]!r}" for k in fields
                 if str(decoded.get(k)).upper() != str(beacon[k]).upper()]
        if wrong:
            missing += 1
            print(f"  WRONG {label}: " + "; ".join(wrong))
            continue
        kinds = sorted({r["event"] + (" (legacy PDU)" if r["event"].startswith("le_ext") and
                                      r["event_type"] & EXTENDED_LEGACY_PDU else "") for r in from_it})
        print(f"  received {label}: {len(from_it)} report(s) as {', '.join(kinds)}; decoded {decoded}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
