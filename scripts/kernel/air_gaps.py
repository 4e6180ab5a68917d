#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""How long each beacon of a profile went unseen on the air, from hci_scan.py's timed reports.

    air_gaps.py --beacon BIN --profile FILE --reports FILE.jsonl --max-gap S [--from T] [--to T]
                [--data HEX:LABEL]...

The timing verdict of the kernel test. For every beacon of the profile (its bytes built as
match_reports.py builds them, from `beacon list --json`, never from beacon's encoder) and every
--data payload, it takes the times ("t", CLOCK_BOOTTIME seconds) of the reports carrying exactly
those bytes, from any address, and measures the longest silence in the window [--from, --to]
(default: the first and last report of any kind): the gaps between its sightings, and from the
window's start to its first sighting and from its last to the window's end. Prints one line per
payload ("GAP name: 12 sightings, longest silence 0.62 s") and a last line "longest: 0.62 s
(name)". Exit status 0 when every payload was seen and no silence is longer than --max-gap.
The receiver restarts its scan every fraction of a second (--restart-every), so a payload on air
is seen at least that often on btvirt, which reports an enabled set once per scan start.
"""

import argparse
import json
import sys

from match_reports import expected_data, run_json


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--beacon", required=True)
    parser.add_argument("--profile")
    parser.add_argument("--reports", required=True)
    parser.add_argument("--max-gap", type=float, required=True)
    parser.add_argument("--from", dest="start", type=float)
    parser.add_argument("--to", dest="end", type=float)
    parser.add_argument("--data", action="append", default=[], help="HEX:LABEL, another payload to time")
    args = parser.parse_args()

    payloads = []
    if args.profile:
        for b in run_json([args.beacon, "list", "--json", args.profile]):
            payloads.append((b["name"], expected_data(b)))
    for item in args.data:
        hex_data, _, label = item.partition(":")
        payloads.append((label or hex_data, bytes.fromhex(hex_data)))
    with open(args.reports) as f:
        reports = [json.loads(line) for line in f if line.strip()]
    times = [r["t"] for r in reports if "t" in r]
    if not times:
        print("air_gaps: no timed report at all")
        return 1
    start = args.start if args.start is not None else min(times)
    end = args.end if args.end is not None else max(times)
    worst, worst_name, failed = 0.0, "", False
    for name, data in payloads:
        seen = sorted(r["t"] for r in reports if "t" in r and bytes.fromhex(r["data"]) == data and start <= r["t"] <= end)
        if not seen:
            print(f"  MISSING {name}: never seen between {start:.3f} and {end:.3f}")
            failed = True
            continue
        edges = [start] + seen + [end]
        gap = max(b - a for a, b in zip(edges, edges[1:]))
        print(f"  GAP {name}: {len(seen)} sightings, longest silence {gap:.2f} s")
        if gap > worst:
            worst, worst_name = gap, name
        if gap > args.max_gap:
            failed = True
    print(f"longest: {worst:.2f} s ({worst_name}) in a window of {end - start:.2f} s; allowed {args.max_gap:.2f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
