#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""SIGHUP bursts on a running station-160: how long until the last file content is on air.

Runs `beacon advertise profiles/station-160.yaml` (a copy it rewrites) on the virtual controller
and on the Bumble harness (16 sets), and for each trial writes a new measured power into the file,
sends a burst of 2–50 SIGHUPs within 10 ms, and measures the time from the last SIGHUP until all
16 sets carry the new power: on the virtual controller from our `air` JSON lines, on Bumble from
the scanner's `adv` lines (both CLOCK_MONOTONIC, like time.monotonic() here). A trial passes when
that happens within 1 s; older content coming back later fails it.

    python3 Benchmarks/reload-bench.py                 # 20 trials on each controller
    python3 Benchmarks/reload-bench.py --trials 5 --only virtual
"""
import argparse
import importlib.util
import os
import random
import signal
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("advertising_bench", os.path.join(HERE, "advertising-bench.py"))
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)


def power_byte(power):
    return f"{power & 0xFF:02X}"


def trial_runs(binary, where, trials, rng):
    original = open(bench.STATION).read()
    folder = tempfile.mkdtemp(prefix="reload-bench-")
    path = os.path.join(folder, "station.yaml")
    with open(path, "w") as f:
        f.write(original)
    harness = bench.Harness(["--max-sets", "16"]) if where == "bumble" else None
    adapter = harness.adapter if harness else "virtual"
    b = bench.Beacon(binary, [path, "-i", adapter, "--json"])
    # Air events: ours (virtual) or the harness scanner's (Bumble).
    source = harness.reader if harness else b.reader
    kind = "adv" if harness else "air"
    results = []
    try:
        if source.wait_for(lambda o, _: o.get("event") == kind, 30) is None:
            raise RuntimeError(f"{where}: nothing on air:\n{b.stderr_text()}")
        for trial in range(trials):
            power = -30 - trial
            with open(path, "w") as f:
                f.write(original.replace("measured_power: -59", f"measured_power: {power}"))
            count = rng.randint(2, 50)
            start = len(source.lines)
            for _ in range(count):
                b.proc.send_signal(signal.SIGHUP)
            sent = time.monotonic()
            suffix = power_byte(power)
            seen = set()

            def all_sets(o, _):
                if o.get("event") != kind or not o.get("data", "").upper().endswith(suffix):
                    return False
                seen.add(o.get("advertiser") or o.get("address"))
                return len(seen) >= 16
            deadline = time.monotonic() + 10
            line = None
            while time.monotonic() < deadline and line is None:
                with source.cond:
                    for t, o, text in source.lines[start:]:
                        if o and all_sets(o, text):
                            line = (t, o)
                            break
                    if line is None:
                        source.cond.wait(0.05)
            # The event's own time: the controller's clock (virtual) or the harness's (Bumble).
            at = line[1].get("time", line[0]) if line and harness else (line[0] if line else None)
            results.append({"trial": trial, "sighups": count, "latency_s": None if at is None else at - sent})
    finally:
        b.proc.send_signal(signal.SIGINT)
        b.wait(30)
        if harness:
            harness.stop()
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trials", type=int, default=20)
    parser.add_argument("--only", nargs="+", choices=["virtual", "bumble"], default=["virtual", "bumble"])
    parser.add_argument("--beacon", help="a beacon binary to use instead of building one")
    parser.add_argument("--scratch", default=".build-bench2")
    parser.add_argument("--build-flags", default="")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    binary = bench.build(args)
    rng = random.Random(args.seed)
    for where in args.only:
        results = trial_runs(binary, where, args.trials, rng)
        latencies = [r["latency_s"] for r in results if r["latency_s"] is not None]
        within = sum(1 for x in latencies if x <= 1.0)
        print(f"{where}: {within} of {len(results)} trials on air within 1 s; "
              f"latency ms min {min(latencies) * 1000:.0f} median {sorted(latencies)[len(latencies) // 2] * 1000:.0f} "
              f"max {max(latencies) * 1000:.0f}; SIGHUPs per burst {min(r['sighups'] for r in results)}–{max(r['sighups'] for r in results)}",
              flush=True)


if __name__ == "__main__":
    sys.exit(main())
