#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Dense fleets on the controllers people own: how often each beacon is heard.

For each controller below, runs `beacon advertise` (release build) with a fleet on controller A of
the Bumble harness (Tests/Harness/bumble_link.py) and counts, from the scanner's `adv` lines, every
beacon's receptions after a warm-up: receptions per beacon per second (min, median) and the
longest silence of any beacon (the longest gap between two receptions of one beacon, the start
and end of the window included). Also HCI commands per second, beacon's CPU use, and who timed
the turns: the controller (it stopped each set after the events its enable asked for, LE
Advertising Set Terminated) or the host's timer.

    python3 Benchmarks/coverage-bench.py                          # every controller, 60 s each
    python3 Benchmarks/coverage-bench.py --seconds 20 --only 4-sets legacy-5.0
    python3 Benchmarks/coverage-bench.py --save results.json

Controllers: 240, 16, 12 and 4 sets (HCI 5.0), each also with a 1 ms reply delay (like USB); and
legacy-only advertising at HCI 5.0 (45 beacons of station-160: the most a legacy advertiser can
give one event per second at 20 ms) and HCI 4.2 (all 160: the plan says what it reaches); and the
built-in virtual controller with 4 sets (`virtual-4-sets`: receptions are its air log, and it
counts each turn's events itself).
"""
import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("advertising_bench", os.path.join(HERE, "advertising-bench.py"))
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)

STATION_45 = [f"station-{i:03d}" for i in range(1, 46)]
CONTROLLERS = {
    "240-sets": (["--max-sets", "240"], None),
    "16-sets": (["--max-sets", "16"], None),
    "12-sets": (["--max-sets", "12"], None),
    "4-sets": (["--max-sets", "4"], None),
    "240-sets-1ms": (["--max-sets", "240", "--reply-delay", "1ms"], None),
    "16-sets-1ms": (["--max-sets", "16", "--reply-delay", "1ms"], None),
    "12-sets-1ms": (["--max-sets", "12", "--reply-delay", "1ms"], None),
    "4-sets-1ms": (["--max-sets", "4", "--reply-delay", "1ms"], None),
    "1-set-1ms": (["--max-sets", "1", "--reply-delay", "1ms"], STATION_45),
    "6-sets-1ms": (["--max-sets", "6", "--reply-delay", "1ms"], None),
    "16-sets-3ms": (["--max-sets", "16", "--reply-delay", "3ms"], None),
    "12-sets-3ms": (["--max-sets", "12", "--reply-delay", "3ms"], None),
    "6-sets-3ms": (["--max-sets", "6", "--reply-delay", "3ms"], None),
    "4-sets-3ms": (["--max-sets", "4", "--reply-delay", "3ms"], None),
    "1-set-3ms": (["--max-sets", "1", "--reply-delay", "3ms"], STATION_45),
    "legacy-5.0": (["--no-extended"], STATION_45),
    "legacy-5.0-1ms": (["--no-extended", "--reply-delay", "1ms"], STATION_45),
    "legacy-5.0-3ms": (["--no-extended", "--reply-delay", "3ms"], STATION_45),
    "legacy-4.2": (["--hci-version", "4.2"], None),
    # The built-in virtual controller (with the link layer's 0-10 ms advDelay): it stops a set after
    # the events its enable asked for, so the turns are counted by the controller. Receptions are
    # its air log (`air` lines, at their controller time), not a scanner's.
    "virtual-4-sets": (None, None),
    "virtual-16-sets": (None, None),
}
VIRTUAL = {"virtual-4-sets": "virtual:sets=4,advdelay=yes", "virtual-16-sets": "virtual:sets=16,advdelay=yes"}


def run(binary, name, seconds, warmup, realistic=False):
    harness_args, only = CONTROLLERS[name]
    # --realistic: the harness's controller adds advDelay to every event and honours
    # Max_Extended_Advertising_Events, as real controllers do.
    extra = ["--adv-delay", "--max-events"] if realistic else []
    h = bench.Harness(harness_args + extra) if name not in VIRTUAL else None
    adapter = VIRTUAL[name] if h is None else h.adapter
    args = [bench.STATION, "-i", adapter, "--duration", f"{seconds + warmup + 1}s", "--json"]
    if only:
        args += ["--only", *only]
    if h is None:
        # The virtual controller's air log, as JSON lines among the run's events.
        args += ["--air-log", "-"]
    try:
        b = bench.Beacon(binary, args)
        usage = b.wait(seconds + warmup + 120)
    finally:
        if h:
            h.stop()
    if b.proc.returncode != 0:
        raise RuntimeError(f"{name}: beacon failed:\n{b.stderr_text()}")
    expected = {int(n.split("-")[1]) for n in only} if only else set(range(1, 161))
    events = [o for _, o, _ in b.reader.lines if o]
    if h:
        advs = [o for _, o in h.reader.events("adv")]
    else:
        advs = [{"time": o["controller_time"], "data": o["data"]} for o in events if o.get("event") == "air"]
    if not advs:
        raise RuntimeError(f"{name}: nothing heard")
    start = advs[0]["time"] + warmup
    end = start + seconds
    times = {minor: [] for minor in expected}
    for o in advs:
        if start <= o["time"] < end:
            minor = bench.ibeacon_minor(o["data"])
            if minor in times:
                times[minor].append(o["time"])
    per_second = [len(t) / seconds for t in times.values()]
    silences = []
    for t in times.values():
        edges = [start, *t, end]
        silences.append(max(b - a for a, b in zip(edges, edges[1:])))
    if h:
        commands = len([o for _, o in h.reader.events("cmd") if start <= o["time"] < end]) / seconds
    else:
        slots = [o for o in events if o.get("event") == "slot"]
        span = slots[-1]["time"] - slots[0]["time"] if len(slots) > 1 else 0
        commands = sum(o["commands"] for o in slots[1:]) / span if span else 0
    plan = [t for _, _, t in b.err.lines if t][:4]
    # Controller-timed turns: did the enables ask for a number of events (Max_Extended_Advertising_Events,
    # the 4th octet of each 4-octet set entry after Enable and Num_Sets), and did the controller stop
    # the sets after them (beacon's `turn_timing` events)?
    limited = 0 if h else None  # the virtual controller's commands are not logged
    for _, o in (h.reader.events("cmd") if h else []):
        p = bytes.fromhex(o["params"])
        if o["opcode"] == "0x2039" and len(p) >= 2 and p[0] == 1 and any(p[2 + 4 * i + 3] for i in range(p[1])):
            limited += 1
    timing = [o["by_controller"] for o in events if o.get("event") == "turn_timing"]
    # What the plan promised (its `plan` event), and the latest any turn started.
    # The plan in force at the end: the first, or the last one the run made again for the
    # command time it measured (`replanned`).
    plans = [o for o in events if o.get("event") in ("plan", "replanned")]
    promised = next((o for o in events if o.get("event") == "plan"), {}).get("plan", {})
    final = next((o for o in events if o.get("event") == "coverage" and o.get("final")), {})
    last = plans[-1] if plans else {}
    planned_silence_ms = last.get("longest_silence_ms") if last.get("event") == "replanned" else promised.get("longest_silence_ms", 0)
    lateness = [o.get("lateness_ms", 0) for o in events if o.get("event") == "slot"]
    return {
        "controller": name, "harness": harness_args, "beacons": len(expected), "seconds": seconds,
        "heard": sum(1 for t in times.values() if t),
        "receptions_per_beacon_per_second": {"min": min(per_second), "median": statistics.median(per_second)},
        "longest_silence_s": max(silences),
        "plan_longest_silence_s": planned_silence_ms / 1000,
        "plan_meets_goal": promised.get("meets_goal"),
        "plan_command_ms": final.get("planned_command_ms") or max((a.get("command_ms", 0) for a in promised.get("adapters", [])), default=0),
        "replans": len(plans) - 1,
        "measured_longest_silence_s": final.get("longest_silence_ms", 0) / 1000,
        "coverage_message": final.get("message"),
        "latest_turn_ms": max(lateness, default=0),
        "commands_per_second": commands,
        "beacon_cpu_percent": 100.0 * (usage.ru_utime + usage.ru_stime) / (b.ended - b.started),
        "plan": plan,
        "enables_with_event_limit": limited,
        "controller_timed_turns": bool(timing) and timing[-1],
        "turn_timing_events": timing,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", nargs="+", choices=list(CONTROLLERS), default=list(CONTROLLERS))
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--beacon", help="a beacon binary to use instead of building one")
    parser.add_argument("--scratch", default=".build-bench2")
    parser.add_argument("--build-flags", default="")
    parser.add_argument("--save", help="write the figures as JSON to this file")
    parser.add_argument("--realistic", action="store_true",
                        help="the harness's controller adds the 0-10 ms advDelay to every event and honours Max_Extended_Advertising_Events")
    args = parser.parse_args()
    binary = bench.build(args)
    results = []
    print(f"{'controller':16} {'beacons':>7} {'heard':>5} {'rx/s min':>8} {'rx/s med':>8} {'silence':>8} {'planned':>8} {'late':>7} {'cmd ms':>6} {'cmd/s':>7} {'cpu %':>6} {'turns timed by':>14}")
    for name in args.only:
        r = run(binary, name, args.seconds, args.warmup, args.realistic)
        results.append(r)
        rx = r["receptions_per_beacon_per_second"]
        print(f"{name:16} {r['beacons']:7} {r['heard']:5} {rx['min']:8.2f} {rx['median']:8.2f} "
              f"{r['longest_silence_s']:7.2f}s {r['plan_longest_silence_s']:7.2f}s {r['latest_turn_ms']:5.0f}ms {r['plan_command_ms']:6.2f} {r['commands_per_second']:7.0f} {r['beacon_cpu_percent']:6.1f} "
              f"{'controller' if r['controller_timed_turns'] else 'host':>14}", flush=True)
    if args.save:
        with open(args.save, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
