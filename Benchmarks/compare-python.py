#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Time the iBeacon decode in Python and set it beside the Swift codec, measured in one run.

Runs, one after the other (never at the same time: the machine has 2 cores):

1. the Swift ``CodecBenchmarks`` suite (``swift package benchmark``, all of it), unless ``--swift-output FILE`` gives the text output of an earlier run, or ``--no-swift``;
2. a plain Python decoder (a strict AD walk plus ``struct.unpack_from``) on the same payloads;
3. Bumble's ``AdvertisingData.from_bytes`` parser on the same payloads, then the same unpack of
   the Apple manufacturer data it returns.

and prints a Markdown table of median nanoseconds per operation and the Python/Swift ratios.

The payloads are built here exactly as ``Benchmarks/CodecBenchmarks/BenchmarkPayloads.swift``
builds them; keep the two in step.

Usage (from the Benchmarks/ directory)::

    python3 compare-python.py --save-swift-output swift.txt   # Swift suite, then Python (~2 min + build)
    python3 compare-python.py --swift-output run.txt   # reuse an earlier `swift package benchmark` output
    python3 compare-python.py --no-swift          # Python figures only
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import struct
import subprocess
import sys
import timeit

# --- The payloads (see BenchmarkPayloads.swift) -------------------------------------------------

UUID = bytes.fromhex("E2C56DB5DFFB48D2B060D0F5A71096E0")
# Apple manufacturer structure: length 0x1A, type 0xFF, company 0x004C little-endian, iBeacon
# type 0x02, length 0x15, UUID, major 1 and minor 2 big-endian, measured power -59 dBm.
IBEACON_STRUCTURE = bytes([0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15]) + UUID + struct.pack(">HHb", 1, 2, -59)
FLAGS = bytes([0x02, 0x01, 0x06])
SERVICE_UUIDS = bytes([0x03, 0x03, 0x0F, 0x18])  # Complete List of 16-bit UUIDs: Battery, 0x180F

PAYLOAD_30 = FLAGS + IBEACON_STRUCTURE
PAYLOAD_31 = SERVICE_UUIDS + IBEACON_STRUCTURE
FRAGMENT_254 = PAYLOAD_30 + b"".join(
    bytes([0x06, 0x16, 0xAA, 0xFE, i, (i * 7) & 0xFF, 0x00]) for i in range(32)
)
# No iBeacon: flags, Eddystone service UUID 0xFEAA, Eddystone-UID service data (see eddystoneUID31).
EDDYSTONE_31 = (
    bytes([0x02, 0x01, 0x06, 0x03, 0x03, 0xAA, 0xFE, 0x17, 0x16, 0xAA, 0xFE, 0x00, 0xE7])
    + bytes(range(10)) + bytes(0xA0 + i for i in range(6)) + bytes(2)
)
assert len(PAYLOAD_30) == 30 and len(PAYLOAD_31) == 31 and len(FRAGMENT_254) == 254 and len(EDDYSTONE_31) == 31

EXPECTED = (
    int.from_bytes(UUID[:8], "big"),
    int.from_bytes(UUID[8:], "big"),
    1,
    2,
    -59,
)

# --- Plain Python: what a small script would write -----------------------------------------------

_IBEACON = struct.Struct(">QQHHb")  # UUID high, UUID low, major, minor, power: the Swift result


def decode_plain(data: bytes, maximum: int = 31):
    """Strict decode, with the checks the Swift strict decoder makes; returns the unpacked fields."""
    n = len(data)
    if n > maximum:
        raise ValueError("too long")
    offset = 0
    saw_flags = False
    found = None
    while offset < n:
        length = data[offset]
        if length == 0:
            if any(data[offset + 1 :]):
                raise ValueError("zero length followed by data")
            break
        if offset + 1 >= n:
            raise ValueError("truncated structure")
        if offset + 1 + length > n:
            raise ValueError("length overrun")
        ad_type = data[offset + 1]
        if ad_type == 0x01:
            if saw_flags:
                raise ValueError("duplicate flags")
            saw_flags = True
        elif ad_type == 0xFF:
            if length < 3:
                raise ValueError("manufacturer data too short")
            if data[offset + 2] == 0x4C and data[offset + 3] == 0x00:
                if length < 5 or data[offset + 4] != 0x02 or data[offset + 5] != 0x15:
                    raise ValueError("not an iBeacon")
                if length != 0x1A:
                    raise ValueError("wrong manufacturer length")
                if found is not None:
                    raise ValueError("duplicate iBeacon")
                found = _IBEACON.unpack_from(data, offset + 6)
        offset += 1 + length
    if found is None:
        raise ValueError("no iBeacon")
    return found


def fails_plain(data: bytes) -> bool:
    """A failed decode, as a scanner meets it for most advertisements; True when it failed."""
    try:
        decode_plain(data)
        return False
    except ValueError:
        return True


def walk_plain(data: bytes) -> int:
    """Counts the AD structures, touching each one's type and last byte (the Swift walker benchmark)."""
    offset = 0
    n = len(data)
    count = 0
    checksum = 0
    while offset < n:
        length = data[offset]
        if length == 0 or offset + 1 + length > n:
            break
        checksum += data[offset + 1] + data[offset + length]
        count += 1
        offset += 1 + length
    return count


# --- Bumble --------------------------------------------------------------------------------------


def bumble_decoders():
    from bumble.core import AdvertisingData

    manufacturer = AdvertisingData.MANUFACTURER_SPECIFIC_DATA

    def decode_bumble(data: bytes):
        ad = AdvertisingData.from_bytes(data)
        for company, payload in ad.get_all(manufacturer):
            if company == 0x004C and len(payload) == 23 and payload[0] == 0x02 and payload[1] == 0x15:
                return _IBEACON.unpack_from(payload, 2)
        raise ValueError("no iBeacon")

    def walk_bumble(data: bytes) -> int:
        return len(AdvertisingData.from_bytes(data).ad_structures)

    def fails_bumble(data: bytes) -> bool:
        try:
            decode_bumble(data)
            return False
        except ValueError:
            return True

    return decode_bumble, walk_bumble, fails_bumble


# --- Timing --------------------------------------------------------------------------------------


def ns_per_call(function, argument, repeats: int) -> tuple[float, float]:
    """(median, minimum) over `repeats` runs of ~0.2 s each, in nanoseconds per call."""
    timer = timeit.Timer(lambda: function(argument))
    number, _ = timer.autorange()  # enough calls for 0.2 s
    runs = timer.repeat(repeat=repeats, number=number)
    return statistics.median(runs) / number * 1e9, min(runs) / number * 1e9


# --- The Swift side ------------------------------------------------------------------------------

SWIFT_CASES = {
    # Python case → Swift benchmark name (as CodecBenchmarks names them).
    "strict 30": "Decode strict: 30 B flags+iBeacon",
    "strict 31": "Decode strict: 31 B UUIDs then iBeacon",
    "lenient 30": "Decode lenient: 30 B flags+iBeacon",
    "lenient 31": "Decode lenient: 31 B UUIDs then iBeacon",
    "walk 254": "AD walker: 254 B extended fragment (34 structures)",
    "none 31": "No iBeacon, strict, typed catch: 31 B Eddystone-UID",
}


def run_swift(directory: str) -> str:
    # The whole suite, so that --save-swift-output keeps every figure BENCHMARKS.md reports.
    command = ["swift", "package", "--disable-sandbox", "benchmark", "--no-progress"]
    print("+ " + " ".join(command), file=sys.stderr)
    result = subprocess.run(command, cwd=directory, capture_output=True, text=True)
    if result.returncode != 0:
        sys.stderr.write(result.stdout[-4000:] + result.stderr[-4000:])
        raise SystemExit("swift package benchmark failed")
    return result.stdout


def parse_swift_rows(text: str) -> dict[str, dict[str, list[int]]]:
    """Benchmark name → metric row label → [p0, p25, p50, p75, p90, p99, p100, samples]."""
    rows: dict[str, dict[str, list[int]]] = {}
    name = None
    for line in re.sub(r"\x1b\[[0-9;]*m", "", text).splitlines():
        stripped = line.strip()
        if not stripped or stripped[0] in "╒╞├╘=" or stripped.startswith(("Metric", "│ Metric")):
            continue
        if stripped[0] != "│":
            name = stripped
            continue
        cells = [c.strip() for c in stripped.strip("│").split("│")]
        if name and len(cells) == 9 and all(c.isdigit() for c in cells[1:]):
            rows.setdefault(name, {})[cells[0]] = [int(c) for c in cells[1:]]
    return rows


def parse_swift(text: str) -> dict[str, tuple[int, int]]:
    """Benchmark name → (p0, p50) wall-clock nanoseconds per operation, from the text tables."""
    results: dict[str, tuple[int, int]] = {}
    for name, metrics in parse_swift_rows(text).items():
        for label, values in metrics.items():
            if label.startswith("Time (wall clock) (ns)"):
                results[name] = (values[0], values[2])
    return results


def print_swift_table(text: str) -> None:
    """Every Swift benchmark: wall clock p50 and p0 per operation, mallocs per operation (the
    largest over all samples), and the number of samples of 1,000 operations."""
    print("| Swift benchmark | p50 ns/op | min ns/op | mallocs/op (max) | samples |")
    print("|---|---:|---:|---:|---:|")
    for name, metrics in parse_swift_rows(text).items():
        time = next((v for k, v in metrics.items() if k.startswith("Time (wall clock)")), None)
        mallocs = next((v for k, v in metrics.items() if k.startswith("Malloc (total)")), None)
        if time or mallocs:
            malloc_cell = str(mallocs[6]) if mallocs else "–"
            p50, p0, samples = (time[2], time[0], time[7]) if time else ("–", "–", mallocs[7])
            print(f"| {name} | {p50} | {p0} | {malloc_cell} | {samples} |")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--swift-output", help="text output of an earlier `swift package benchmark` run")
    group.add_argument("--no-swift", action="store_true", help="time the Python decoders only")
    parser.add_argument("--save-swift-output", help="write the Swift benchmark output to this file")
    parser.add_argument("--repeats", type=int, default=7, help="timing runs per case (default 7)")
    parser.add_argument("--swift-table", action="store_true", help="also print every Swift benchmark")
    parser.add_argument("--no-python", action="store_true", help="print the Swift table only")
    args = parser.parse_args()

    here = os.path.dirname(os.path.abspath(__file__))
    text = ""
    if args.swift_output:
        with open(args.swift_output, encoding="utf-8") as f:
            text = f.read()
    elif not args.no_swift:
        text = run_swift(here)
        if args.save_swift_output:
            with open(args.save_swift_output, "w", encoding="utf-8") as f:
                f.write(text)
    swift = parse_swift(text)
    if args.swift_table or args.no_python:
        print_swift_table(text)
    if args.no_python:
        return

    decode_bumble, walk_bumble, fails_bumble = bumble_decoders()
    # Both decoders must produce what the Swift decoder produces, or the comparison means nothing.
    for payload in (PAYLOAD_30, PAYLOAD_31):
        assert decode_plain(payload) == EXPECTED, decode_plain(payload)
        assert decode_bumble(payload) == EXPECTED, decode_bumble(payload)
    assert walk_plain(FRAGMENT_254) == 34 and walk_bumble(FRAGMENT_254) == 34
    assert fails_plain(EDDYSTONE_31) and fails_bumble(EDDYSTONE_31)

    import bumble  # for the version line only

    cases = [
        ("strict 30", "decode, 30 B flags+iBeacon", decode_plain, decode_bumble, PAYLOAD_30),
        ("strict 31", "decode, 31 B UUIDs then iBeacon", decode_plain, decode_bumble, PAYLOAD_31),
        ("walk 254", "AD walk, 254 B fragment (34 structures)", walk_plain, walk_bumble, FRAGMENT_254),
        ("none 31", "decode failing: 31 B Eddystone-UID, no iBeacon", fails_plain, fails_bumble, EDDYSTONE_31),
    ]
    overhead, _ = ns_per_call(lambda _: None, None, args.repeats)
    print(f"Python {sys.version.split()[0]}, Bumble {getattr(bumble, '__version__', '?')}; "
          f"median (minimum) of {args.repeats} runs; Swift: p50 (p0) of the harness's samples; "
          f"ratios of the medians (of the minimums); Python call overhead {overhead:.0f} ns (included)\n")
    print("| Operation | Swift ns | plain Python ns | Bumble ns | plain Python ÷ Swift | Bumble ÷ Swift |")
    print("|---|---:|---:|---:|---:|---:|")
    for key, label, plain, bumble_fn, payload in cases:
        plain_ns, plain_min = ns_per_call(plain, payload, args.repeats)
        bumble_ns, bumble_min = ns_per_call(bumble_fn, payload, args.repeats)
        swift_cell, plain_ratio, bumble_ratio = "not run", "–", "–"
        if SWIFT_CASES[key] in swift:
            p0, p50 = swift[SWIFT_CASES[key]]
            swift_cell = f"{p50} ({p0})"
            if p50 > 0 and p0 > 0:
                plain_ratio = f"{plain_ns / p50:.0f}× ({plain_min / p0:.0f}×)"
                bumble_ratio = f"{bumble_ns / p50:.0f}× ({bumble_min / p0:.0f}×)"
        print(f"| {label} | {swift_cell} | {plain_ns:.0f} ({plain_min:.0f}) | {bumble_ns:.0f} ({bumble_min:.0f}) "
              f"| {plain_ratio} | {bumble_ratio} |")
    for key in ("lenient 30", "lenient 31"):
        if SWIFT_CASES[key] in swift:
            p0, p50 = swift[SWIFT_CASES[key]]
            print(f"| Swift {SWIFT_CASES[key]} (no Python counterpart) | {p50} ({p0}) | | | | |")


if __name__ == "__main__":
    main()
