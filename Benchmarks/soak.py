#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Soak test (not part of CI): station-160 (160 beacons) rotating on a 4-set controller for a
long run, to catch what a short benchmark cannot: memory that grows with every slot, and slot
lateness that drifts as the run goes on.

  beacon advertise profiles/station-160.yaml -i tcp:127.0.0.1:PORT --json --duration N
  against Tests/Harness/bumble_link.py --max-sets 4 (Bumble 0.0.236)

Reported: beacon's RSS (VmRSS from /proc/PID/status, sampled every --sample-seconds) when the
first beacon is on air, after the warm-up, at the end, the growth in between and its least-squares
slope per hour; slot lateness (the `slot` events of --json) as percentiles over the whole run and
per window; receptions per beacon per minute from the harness's `adv` lines.

    python3 Benchmarks/soak.py                       # 30 minutes, builds beacon (release) first
    python3 Benchmarks/soak.py --minutes 2 --beacon .build/release/beacon
    python3 Benchmarks/soak.py --save soak.json
    python3 Benchmarks/soak.py --report soak.json   # the report of a saved run again

The harness, the process handling and the build come from Benchmarks/advertising-bench.py (one
owner); this file only adds the long-run sampling.
"""
import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def load_bench():
    """advertising-bench.py as a module (its file name has a dash, so no plain import)."""
    spec = importlib.util.spec_from_file_location("advertising_bench", os.path.join(HERE, "advertising-bench.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


bench = load_bench()


def proc_status_kib(pid, field):
    """A `field:` line of /proc/PID/status in KiB (VmRSS, VmHWM), or None once the process is gone."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def slope_per_hour(samples):
    """Least-squares slope of (seconds, KiB) samples, in KiB per hour; None for fewer than 2."""
    if len(samples) < 2:
        return None
    ts = [t for t, _ in samples]
    vs = [v for _, v in samples]
    mt, mv = statistics.fmean(ts), statistics.fmean(vs)
    var = sum((t - mt) ** 2 for t in ts)
    if var == 0:
        return None
    return 3600 * sum((t - mt) * (v - mv) for t, v in samples) / var


def lateness_summary(values):
    if not values:
        return None
    return {"slots": len(values), "p50": bench.percentile(values, 50), "p90": bench.percentile(values, 90),
            "p99": bench.percentile(values, 99), "p99.9": bench.percentile(values, 99.9), "max": max(values)}


class Tally:
    """Folds the lines drained from beacon's and the harness's pipes into counts, so a 30-minute
    run keeps numbers, not a million parsed JSON lines."""

    def __init__(self, warmup_seconds):
        self.warmup = warmup_seconds
        self.first_on_air = None
        self.slots = []              # (beacon's elapsed time, lateness ms)
        self.first_slot = self.last_slot = None
        self.errors = []
        self.heard_from = None       # the harness's time of the first adv line + the warm-up
        self.heard_last = None
        self.adv_minors = {}         # minor -> adv lines heard after the warm-up
        self.last_heard = {}         # minor -> the harness's time of its last adv line
        self.longest_silence = {}    # minor -> its longest gap between two adv lines after the warm-up
        self.harness_errors = 0
        self.plan = {}               # the run's plan event
        self.coverage = None         # the run's final coverage event
        self.replans = 0             # its replanned events

    def beacon_lines(self, lines):
        for now, obj, text in lines:
            event = (obj or {}).get("event")
            if event == "on_air" and self.first_on_air is None:
                self.first_on_air = now
            elif event == "slot":
                self.slots.append((obj["time"], obj["lateness_ms"]))
                self.first_slot = self.first_slot or obj
                self.last_slot = obj
            elif event == "error":
                self.errors.append(obj.get("message", text))
            elif event == "plan":
                self.plan = obj["plan"]
            elif event == "coverage" and obj.get("final"):
                self.coverage = obj
            elif event == "replanned":
                self.replans += 1

    def harness_lines(self, lines):
        for _, obj, _ in lines:
            event = (obj or {}).get("event")
            if event == "adv":
                if self.heard_from is None:
                    self.heard_from = obj["time"] + self.warmup
                minor = bench.ibeacon_minor(obj["data"])
                if minor is not None and obj["time"] >= self.heard_from:
                    self.adv_minors[minor] = self.adv_minors.get(minor, 0) + 1
                    self.heard_last = obj["time"]
                    if minor in self.last_heard:
                        gap = obj["time"] - self.last_heard[minor]
                        self.longest_silence[minor] = max(self.longest_silence.get(minor, 0), gap)
                if minor is not None:
                    self.last_heard[minor] = obj["time"]
            elif event == "error":
                self.harness_errors += 1


def soak(binary, seconds, sample_seconds, warmup_seconds, window_seconds, harness_args=()):
    # The harness must outlive beacon's run and its teardown.
    h = bench.Harness(extra=["--max-sets", "4", *harness_args, "--duration", str(seconds + 300)])
    tally = Tally(warmup_seconds)
    rss = []          # (seconds since start, VmRSS KiB)
    peak = 0
    try:
        b = bench.Beacon(binary, [bench.STATION, "-i", h.adapter, "--duration", f"{seconds}s", "--json"])
        started = b.started
        while b.proc.poll() is None:
            now = time.monotonic()
            value = proc_status_kib(b.proc.pid, "VmRSS")
            hwm = proc_status_kib(b.proc.pid, "VmHWM")
            if value is not None:
                rss.append((now - started, value))
                peak = max(peak, hwm or 0)
            tally.beacon_lines(b.reader.drain())
            tally.harness_lines(h.reader.drain())
            if now - started > seconds + 120:
                b.proc.kill()
                raise RuntimeError(f"beacon did not stop within 120 s of its --duration {seconds}s")
            time.sleep(min(sample_seconds, max(0.05, started + seconds + 0.5 - time.monotonic())))
        b.reader.thread.join(timeout=10)
        b.err.thread.join(timeout=10)
        tally.beacon_lines(b.reader.drain())
    finally:
        h.stop()
    tally.harness_lines(h.reader.drain())
    if b.proc.returncode != 0:
        raise RuntimeError(f"beacon exited with {b.proc.returncode}:\n" + b.stderr_text())
    if tally.first_on_air is None or len(tally.slots) < 2 or len(rss) < 2:
        raise RuntimeError("the run produced no on_air event, fewer than 2 slots or 2 RSS samples:\n" + b.stderr_text())
    return summarise(tally, rss, peak, started, seconds, warmup_seconds, window_seconds, b.stderr_text())


def summarise(tally, rss, peak, started, seconds, warmup_seconds, window_seconds, stderr):
    on_air_at = tally.first_on_air - started
    at_on_air = next((v for t, v in rss if t >= on_air_at), rss[0][1])
    after_warmup = [(t, v) for t, v in rss if t >= warmup_seconds] or rss[-1:]
    lateness = [ms for _, ms in tally.slots]
    windows = []
    for start in range(0, int(seconds), window_seconds):
        values = [ms for t, ms in tally.slots if start <= t < start + window_seconds]
        if values:
            windows.append({"from_s": start, **lateness_summary(values)})
    first, last = tally.first_slot, tally.last_slot
    # Receptions per beacon per minute, from the end of the warm-up to the last one heard.
    span = max((tally.heard_last or 0) - (tally.heard_from or 0), 1)
    per_minute = [tally.adv_minors.get(minor, 0) * 60.0 / span for minor in range(1, 161)]
    return {
        "seconds": seconds, "samples": len(rss),
        "rss_kib": {"on_air": at_on_air, "after_warmup": after_warmup[0][1], "end": rss[-1][1],
                    "growth_after_warmup": rss[-1][1] - after_warmup[0][1], "min": min(v for _, v in rss),
                    "max": max(v for _, v in rss), "peak_hwm": peak,
                    "slope_kib_per_hour_after_warmup": slope_per_hour(after_warmup)},
        "lateness_ms": lateness_summary(lateness), "lateness_windows": windows,
        "slots_per_s": (last["index"] - first["index"]) / (last["time"] - first["time"]),
        "errors": tally.errors, "harness_errors": tally.harness_errors,
        "receptions": {"total": sum(tally.adv_minors.values()), "beacons_heard": sum(1 for c in per_minute if c),
                       "per_beacon_per_minute": {"min": min(per_minute), "median": statistics.median(per_minute),
                                                 "max": max(per_minute)}},
        "plan": [line for line in stderr.splitlines() if line][:6],
        # The scanner's longest silence of any beacon against the plan's bound and the run's own measurement.
        "longest_silence_s": max(tally.longest_silence.values(), default=0),
        # The plan in force at the end (the run may have planned the turns again for the command
        # time it measured): the final coverage report's.
        "plan_longest_silence_s": (tally.coverage or {}).get("planned_silence_ms", tally.plan.get("longest_silence_ms", 0)) / 1000,
        "first_plan_longest_silence_s": tally.plan.get("longest_silence_ms", 0) / 1000,
        "plan_command_ms": (tally.coverage or {}).get("planned_command_ms") or max((a.get("command_ms", 0) for a in tally.plan.get("adapters", [])), default=0),
        "replans": tally.replans,
        "measured_longest_silence_s": (tally.coverage or {}).get("longest_silence_ms", 0) / 1000,
        "coverage_message": (tally.coverage or {}).get("message"),
    }


def report(r):
    m = r["rss_kib"]
    mib = lambda kib: f"{kib / 1024:.1f} MiB"
    slope = m["slope_kib_per_hour_after_warmup"]
    print(f"## soak: station-160 on Bumble --max-sets 4, {r['seconds'] / 60:.0f} min, {r['samples']} RSS samples")
    print(f"RSS: on air {mib(m['on_air'])}, after warm-up {mib(m['after_warmup'])}, end {mib(m['end'])};"
          f" growth after warm-up {m['growth_after_warmup']:+d} KiB; slope {slope:+.0f} KiB/h;"
          f" min {mib(m['min'])}, max {mib(m['max'])}, VmHWM {mib(m['peak_hwm'])}")
    late = r["lateness_ms"]
    print(f"slots: {late['slots']} ({r['slots_per_s']:.2f}/s); lateness p50 {late['p50']:.1f} ms, p90 {late['p90']:.1f},"
          f" p99 {late['p99']:.1f}, p99.9 {late['p99.9']:.1f}, max {late['max']:.1f}")
    print("window | slots | p50 | p99 | max (ms)")
    for w in r["lateness_windows"]:
        print(f"{w['from_s'] // 60:>3} min | {w['slots']} | {w['p50']:.1f} | {w['p99']:.1f} | {w['max']:.1f}")
    rec = r["receptions"]
    p = rec["per_beacon_per_minute"]
    print(f"receptions: {rec['total']}, {rec['beacons_heard']}/160 beacons heard; per beacon per minute"
          f" min {p['min']:.1f}, median {p['median']:.1f}, max {p['max']:.1f}")
    print(f"beacon error events: {len(r['errors'])}; harness parse errors: {r['harness_errors']}")
    if "longest_silence_s" in r:
        print(f"longest silence of any beacon: {r['longest_silence_s']:.3f} s heard by the scanner,"
              f" {r['measured_longest_silence_s']:.3f} s measured by the run, plan {r['plan_longest_silence_s']:.3f} s at the end"
              f" (first plan {r.get('first_plan_longest_silence_s', 0):.3f} s; commands planned at {r['plan_command_ms']:.2f} ms;"
              f" {r.get('replans', 0)} re-plans)")
        print(f"the run said: {r['coverage_message']}")
    for line in r["plan"]:
        print("   ", line)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--sample-seconds", type=float, default=5, help="RSS sampling period (default 5)")
    parser.add_argument("--warmup-seconds", type=int, default=60, help="left out of growth and slope (default 60)")
    parser.add_argument("--window-minutes", type=int, default=5, help="lateness reported per window (default 5)")
    parser.add_argument("--beacon", help="a beacon binary to use instead of building one")
    parser.add_argument("--scratch", default=".build", help="scratch path of the release build (default .build)")
    parser.add_argument("--build-flags", default="", help="extra swift build arguments")
    parser.add_argument("--save", help="write every figure as JSON to this file")
    parser.add_argument("--reply-delay", help="the harness's reply delay per command, e.g. 1ms (default none)")
    parser.add_argument("--realistic", action="store_true",
                        help="the harness's controller adds the 0-10 ms advDelay to every event and honours Max_Extended_Advertising_Events")
    parser.add_argument("--report", metavar="JSON", help="print the report of a run saved with --save, run nothing")
    args = parser.parse_args()
    if args.report:
        with open(args.report) as f:
            return bench.show(json.load(f), report)
    try:
        binary = bench.build(args)
    except subprocess.CalledProcessError:
        sys.exit("soak: the release build of beacon failed (output above); --beacon PATH uses an existing binary")
    seconds = int(args.minutes * 60)
    load_start = os.getloadavg()
    harness_args = (["--reply-delay", args.reply_delay] if args.reply_delay else []) + (["--adv-delay", "--max-events"] if args.realistic else [])
    result = soak(binary, seconds, args.sample_seconds, min(args.warmup_seconds, seconds // 2), args.window_minutes * 60, harness_args)
    result.update(reply_delay=args.reply_delay, realistic=args.realistic)
    result.update(date=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), load_average_at_start=load_start,
                  load_average_at_end=os.getloadavg())
    bench.show(result, report, args.save)


if __name__ == "__main__":
    main()
