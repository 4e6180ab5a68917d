#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Measures the release `beacon` binary advertising, on the built-in virtual controller and on
Bumble through the test harness (Tests/Harness/bumble_link.py, H4 over TCP):

  startup   process start -> advertising on: the `on_air` event, the first `air` line (virtual),
            the LE Set Extended Advertising Enable command done and the first `adv` heard (Bumble)
  rotation  station-160 (160 beacons on 16 sets -> 10 slots) at --slot 20/50/100 ms: slots per
            second achieved vs requested, slot lateness p50/p99, commands per slot
  steady    16 beacons (16 sets, no rotation) for --steady-seconds: CPU (user+sys) and max RSS
  fleet     station-160 on Bumble, default slot: receptions per beacon per minute (min/median/max)

    python3 Benchmarks/advertising-bench.py                  # everything, about 6 minutes
    python3 Benchmarks/advertising-bench.py --only startup rotation --runs 5
    python3 Benchmarks/advertising-bench.py --save results.json

It builds `beacon` first (`swift build -c release --product beacon --scratch-path SCRATCH`, plus
--build-flags) unless --beacon names a binary. All times are CLOCK_MONOTONIC: Python's
time.monotonic() here and in the harness, so the harness's `time` fields compare with ours.
"""
import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HARNESS = os.path.join(ROOT, "Tests", "Harness", "bumble_link.py")
STATION = os.path.join(ROOT, "profiles", "station-160.yaml")
ONE_BEACON = os.path.join(ROOT, "profiles", "bm1.yaml")
# LE Set Extended Advertising Enable, LE Set Advertising Enable (Core Vol 4 Part E §7.8.56, §7.8.9).
ENABLE_OPCODES = {"0x2039", "0x200A"}
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def percentile(values, p):
    """Nearest-rank percentile (p in 0...100) of a non-empty list."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * p // 100))  # ceil(n * p / 100)
    return ordered[int(rank) - 1]


def cpu_seconds(pid):
    """utime + stime of a live process from /proc/PID/stat (fields 14 and 15), in seconds."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


class LineReader:
    """Reads a pipe on a thread; keeps (receipt time, parsed JSON or None, text) per line."""

    def __init__(self, stream):
        self.lines = []
        self.cond = threading.Condition()
        self.thread = threading.Thread(target=self._run, args=(stream,), daemon=True)
        self.thread.start()

    def _run(self, stream):
        for raw in stream:
            now = time.monotonic()
            text = raw.decode(errors="replace").rstrip("\n")
            try:
                obj = json.loads(text) if text.startswith("{") else None
            except ValueError:
                obj = None
            with self.cond:
                self.lines.append((now, obj, text))
                self.cond.notify_all()
        with self.cond:
            self.lines.append((time.monotonic(), {"event": "__eof__"}, ""))
            self.cond.notify_all()

    def wait_for(self, predicate, timeout):
        """The first line (time, obj, text) that satisfies predicate(obj, text), or None."""
        deadline = time.monotonic() + timeout
        index = 0
        with self.cond:
            while True:
                while index < len(self.lines):
                    line = self.lines[index]
                    index += 1
                    if predicate(line[1] or {}, line[2]):
                        return line
                    if line[1] and line[1].get("event") == "__eof__":
                        return None
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self.cond.wait(left)

    def events(self, name):
        with self.cond:
            return [(t, o) for t, o, _ in self.lines if o and o.get("event") == name]

    def drain(self):
        """Returns the lines so far and forgets them, so that a long run (Benchmarks/soak.py)
        holds only what came since the last call. wait_for() afterwards sees only newer lines."""
        with self.cond:
            lines, self.lines = self.lines, []
            return lines


class Harness:
    """bumble_link.py with a fresh pair of controllers; stopped by closing its stdin."""

    def __init__(self, extra=()):
        self.proc = subprocess.Popen(
            [sys.executable, HARNESS, "--port", "0", "--duration", "600", *extra],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.reader = LineReader(self.proc.stdout)
        ready = self.reader.wait_for(lambda o, _: o.get("event") == "ready", 60)
        if ready is None:
            self.stop()
            raise RuntimeError("the Bumble harness did not become ready")
        self.port = ready[1]["port"]
        self.adapter = f"tcp:127.0.0.1:{self.port}"

    def cpu(self):
        return cpu_seconds(self.proc.pid)

    def stop(self):
        try:
            self.proc.stdin.close()
            self.proc.wait(timeout=10)
        except (subprocess.TimeoutExpired, OSError):
            self.proc.kill()
            self.proc.wait()
        self.reader.thread.join(timeout=5)


class Beacon:
    """One `beacon advertise …` process; wait() returns its own rusage (os.wait4)."""

    def __init__(self, binary, args, stdout=subprocess.PIPE):
        self.started = time.monotonic()
        self.proc = subprocess.Popen([binary, "advertise", *args], stdin=subprocess.DEVNULL,
                                     stdout=stdout, stderr=subprocess.PIPE)
        self.reader = LineReader(self.proc.stdout) if stdout == subprocess.PIPE else None
        self.err = LineReader(self.proc.stderr)

    def wait(self, timeout):
        """Waits for the exit; returns the child's rusage and keeps its peak RSS in `peak_rss_kib`.

        The peak comes from VmHWM in /proc/PID/status, read every 50 ms while it runs (it only
        grows): rusage's ru_maxrss is no use here, because Linux carries the parent's high-water
        mark over a vfork+exec, so it reports this Python process's peak."""
        deadline = time.monotonic() + timeout
        self.peak_rss_kib = 0
        while time.monotonic() < deadline:
            try:
                with open(f"/proc/{self.proc.pid}/status") as f:
                    for line in f:
                        if line.startswith("VmHWM:"):
                            self.peak_rss_kib = max(self.peak_rss_kib, int(line.split()[1]))
            except OSError:
                pass
            pid, status, usage = os.wait4(self.proc.pid, os.WNOHANG)
            if pid:
                self.proc.returncode = os.waitstatus_to_exitcode(status)
                self.ended = time.monotonic()
                for r in (self.reader, self.err):
                    if r:
                        r.thread.join(timeout=5)
                return usage
            time.sleep(0.05)
        self.proc.send_signal(signal.SIGKILL)
        raise RuntimeError(f"beacon did not exit within {timeout} s")

    def stderr_text(self):
        return "\n".join(t for _, _, t in self.err.lines if t)


def build(args):
    if args.beacon:
        return args.beacon
    scratch = os.path.join(ROOT, args.scratch)
    command = ["swift", "build", "-c", "release", "--product", "beacon", "--scratch-path", scratch, *args.build_flags.split()]
    print("building:", " ".join(command), file=sys.stderr)
    subprocess.run(command, cwd=ROOT, check=True, stdout=sys.stderr)
    out = subprocess.run([*command, "--show-bin-path"], cwd=ROOT, check=True, capture_output=True, text=True)
    return os.path.join(out.stdout.strip(), "beacon")


def summary(values, unit="ms", scale=1000.0):
    v = [x * scale for x in values]
    return {"median": statistics.median(v), "min": min(v), "max": max(v), "runs": len(v), "unit": unit}


# MARK: - start-up

def startup(binary, runs):
    virtual_on_air, virtual_air = [], []
    for _ in range(runs):
        b = Beacon(binary, [ONE_BEACON, "-i", "virtual", "--duration", "1s", "--json"])
        on_air = b.reader.wait_for(lambda o, _: o.get("event") == "on_air", 30)
        air = b.reader.wait_for(lambda o, _: o.get("event") == "air", 30)
        b.wait(30)
        if b.proc.returncode != 0 or not on_air or not air:
            raise RuntimeError("virtual start-up run failed:\n" + b.stderr_text())
        virtual_on_air.append(on_air[0] - b.started)
        virtual_air.append(air[0] - b.started)

    bumble_enable, bumble_adv, bumble_on_air = [], [], []
    for _ in range(runs):
        h = Harness()
        try:
            b = Beacon(binary, [ONE_BEACON, "-i", h.adapter, "--duration", "1s", "--json"])
            on_air = b.reader.wait_for(lambda o, _: o.get("event") == "on_air", 30)
            # Enable = 0x01 is the first parameter of both commands; the clean start sends an
            # Enable = 0x00 (everything off) before the setup, which must not count.
            enable = h.reader.wait_for(lambda o, _: o.get("event") == "cmd" and o.get("opcode") in ENABLE_OPCODES
                                       and o.get("params", "").startswith("01") and o.get("status") == 0, 30)
            adv = h.reader.wait_for(lambda o, _: o.get("event") == "adv", 30)
            b.wait(30)
        finally:
            h.stop()
        if b.proc.returncode != 0 or not (on_air and enable and adv):
            raise RuntimeError("Bumble start-up run failed:\n" + b.stderr_text())
        bumble_on_air.append(on_air[0] - b.started)
        bumble_enable.append(enable[1]["time"] - b.started)
        bumble_adv.append(adv[1]["time"] - b.started)
    return {
        "profile": "profiles/bm1.yaml (1 beacon, 100 ms)",
        "virtual": {"on_air_event": summary(virtual_on_air), "first_air_line": summary(virtual_air)},
        "bumble": {"on_air_event": summary(bumble_on_air), "enable_command_done": summary(bumble_enable),
                   "first_adv_heard": summary(bumble_adv)},
    }


# MARK: - rotation

def rotation_run(binary, adapter, slot_ms, seconds, harness=None):
    b = Beacon(binary, [STATION, "-i", adapter, "--slot", f"{slot_ms}ms", "--duration", f"{seconds}s", "--json"])
    b.wait(seconds + 60)
    if b.proc.returncode != 0:
        raise RuntimeError(f"rotation run on {adapter} failed:\n" + b.stderr_text())
    slots = [o for _, o in b.reader.events("slot")]
    if len(slots) < 2:
        raise RuntimeError(f"rotation run on {adapter}: fewer than 2 slots")
    first, last = slots[0], slots[-1]
    achieved = (last["index"] - first["index"]) / (last["time"] - first["time"])
    lateness = [s["lateness_ms"] for s in slots]
    result = {
        "slot_ms": slot_ms, "requested_per_s": 1000.0 / slot_ms, "achieved_per_s": achieved,
        "slots": len(slots), "commands_per_slot": statistics.median(s["commands"] for s in slots),
        "lateness_ms": {"p50": percentile(lateness, 50), "p99": percentile(lateness, 99), "max": max(lateness)},
        "plan": [t for _, _, t in b.err.lines if t][:6],
    }
    if harness:
        # Consecutive commands inside one slot's burst: the time one command takes end to end
        # (beacon sends, the harness's controller handles it, Command Complete comes back).
        times = [o["time"] for _, o in harness.reader.events("cmd")]
        gaps = [b2 - a for a, b2 in zip(times, times[1:]) if b2 - a < slot_ms / 2000.0]
        if gaps:
            result["bumble_command_ms"] = {"p50": percentile(gaps, 50) * 1000, "p99": percentile(gaps, 99) * 1000}
        result["adv_heard_per_s"] = len(harness.reader.events("adv")) / seconds
    return result


def rotation(binary, seconds, slots=(20, 50, 100)):
    out = {"profile": "profiles/station-160.yaml (160 beacons, 16 sets -> 10 slots)", "seconds": seconds, "virtual": [], "bumble": []}
    for slot in slots:
        out["virtual"].append(rotation_run(binary, "virtual", slot, seconds))
    for slot in slots:
        h = Harness()
        try:
            out["bumble"].append(rotation_run(binary, h.adapter, slot, seconds, harness=h))
        finally:
            h.stop()
    return out


# MARK: - steady state: CPU and memory

SIXTEEN = [f"station-{i:03}" for i in range(1, 17)]


def steady_run(binary, adapter, seconds, harness=None):
    harness_cpu = harness.cpu() if harness else None
    b = Beacon(binary, [STATION, "-i", adapter, "--duration", f"{seconds}s", "--only", *SIXTEEN], stdout=subprocess.DEVNULL)
    usage = b.wait(seconds + 60)
    if b.proc.returncode != 0:
        raise RuntimeError(f"steady run on {adapter} failed:\n" + b.stderr_text())
    wall = b.ended - b.started
    cpu = usage.ru_utime + usage.ru_stime
    result = {"wall_s": wall, "user_s": usage.ru_utime, "sys_s": usage.ru_stime, "cpu_percent": 100 * cpu / wall,
              "max_rss_mib": b.peak_rss_kib / 1024}
    if harness:
        result["harness_cpu_percent"] = 100 * (harness.cpu() - harness_cpu) / wall
        result["adv_heard_per_s"] = len(harness.reader.events("adv")) / seconds
    return result


def steady(binary, seconds):
    out = {"beacons": 16, "seconds": seconds, "virtual": steady_run(binary, "virtual", seconds)}
    h = Harness()
    try:
        out["bumble"] = steady_run(binary, h.adapter, seconds, harness=h)
    finally:
        h.stop()
    return out


# MARK: - station-160 receptions on Bumble

def ibeacon_minor(data_hex):
    """The minor of the first Apple iBeacon structure (4C 00 02 15) in advertising data, or None."""
    data = bytes.fromhex(data_hex)
    i = 0
    while i < len(data) and data[i] > 0:
        length = data[i]
        structure = data[i + 1:i + 1 + length]
        if len(structure) == 26 and structure[:5] == b"\xff\x4c\x00\x02\x15":
            return int.from_bytes(structure[23:25], "big")  # FF 4C 00 02 15, UUID 16, major 2, minor 2
        i += 1 + length
    return None


def fleet(binary, seconds, warmup=3):
    h = Harness()
    try:
        b = Beacon(binary, [STATION, "-i", h.adapter, "--duration", f"{seconds + warmup + 1}s"], stdout=subprocess.DEVNULL)
        b.wait(seconds + warmup + 60)
    finally:
        h.stop()
    if b.proc.returncode != 0:
        raise RuntimeError("fleet run failed:\n" + b.stderr_text())
    advs = [o for _, o in h.reader.events("adv")]
    if not advs:
        raise RuntimeError("fleet run: nothing heard")
    start = advs[0]["time"] + warmup
    counts = {minor: 0 for minor in range(1, 161)}
    for o in advs:
        if start <= o["time"] < start + seconds:
            minor = ibeacon_minor(o["data"])
            if minor in counts:
                counts[minor] += 1
    per_minute = [c * 60.0 / seconds for c in counts.values()]
    return {
        "seconds": seconds, "beacons_heard": sum(1 for c in counts.values() if c), "receptions": sum(counts.values()),
        "per_beacon_per_minute": {"min": min(per_minute), "median": statistics.median(per_minute), "max": max(per_minute)},
        "per_beacon": counts,
        "plan": [t for _, _, t in b.err.lines if t][:6],
    }


# MARK: - report

def report(results):
    def ms(s):
        return f"{s['median']:.0f} ms (min {s['min']:.0f}, max {s['max']:.0f})"

    if "startup" in results:
        r = results["startup"]
        print(f"## start-up, {r['profile']}, {r['virtual']['on_air_event']['runs']} runs each (median, min, max)")
        print(f"virtual: on_air event {ms(r['virtual']['on_air_event'])}; first air line {ms(r['virtual']['first_air_line'])}")
        print(f"Bumble:  enable done {ms(r['bumble']['enable_command_done'])}; on_air event {ms(r['bumble']['on_air_event'])};"
              f" first adv heard {ms(r['bumble']['first_adv_heard'])}")
    if "rotation" in results:
        r = results["rotation"]
        print(f"## rotation, {r['profile']}, {r['seconds']} s per run")
        print("controller | slot | requested/s | achieved/s | ratio | lateness p50 | p99 | max | commands/slot | Bumble command p50")
        for name in ("virtual", "bumble"):
            for x in r[name]:
                cmd = f"{x['bumble_command_ms']['p50']:.2f} ms" if "bumble_command_ms" in x else "-"
                print(f"{name} | {x['slot_ms']} ms | {x['requested_per_s']:.1f} | {x['achieved_per_s']:.2f} |"
                      f" {x['achieved_per_s'] / x['requested_per_s']:.2f} | {x['lateness_ms']['p50']:.1f} ms |"
                      f" {x['lateness_ms']['p99']:.1f} ms | {x['lateness_ms']['max']:.1f} ms | {x['commands_per_slot']:g} | {cmd}")
    if "steady" in results:
        r = results["steady"]
        print(f"## steady state, {r['beacons']} beacons, {r['seconds']} s")
        for name in ("virtual", "bumble"):
            x = r[name]
            extra = f"; harness {x['harness_cpu_percent']:.1f} % CPU, {x['adv_heard_per_s']:.0f} adv/s heard" if "harness_cpu_percent" in x else ""
            print(f"{name}: user {x['user_s']:.2f} s + sys {x['sys_s']:.2f} s over {x['wall_s']:.1f} s ="
                  f" {x['cpu_percent']:.2f} % of a core; max RSS {x['max_rss_mib']:.1f} MiB{extra}")
    if "fleet" in results:
        r = results["fleet"]
        p = r["per_beacon_per_minute"]
        print(f"## station-160 on Bumble, {r['seconds']} s: {r['beacons_heard']}/160 beacons heard, {r['receptions']} receptions;"
              f" per beacon per minute min {p['min']:.0f}, median {p['median']:.0f}, max {p['max']:.0f}")
        for line in r["plan"]:
            print("   ", line)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", nargs="+", choices=["startup", "rotation", "steady", "fleet"], default=["startup", "rotation", "steady", "fleet"])
    parser.add_argument("--runs", type=int, default=7, help="start-up runs per controller (default 7)")
    parser.add_argument("--rotation-seconds", type=int, default=10)
    parser.add_argument("--steady-seconds", type=int, default=60)
    parser.add_argument("--fleet-seconds", type=int, default=60)
    parser.add_argument("--beacon", help="a beacon binary to use instead of building one")
    parser.add_argument("--scratch", default=".build-bench2", help="scratch path of the release build (default .build-bench2)")
    parser.add_argument("--build-flags", default="", help='extra swift build arguments, e.g. "-Xswiftc -no-whole-module-optimization"')
    parser.add_argument("--save", help="write every figure as JSON to this file")
    args = parser.parse_args()

    try:
        binary = build(args)
    except subprocess.CalledProcessError:
        sys.exit("advertising-bench: the release build of beacon failed (output above); --beacon PATH uses an existing binary")
    results = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "load_average_at_start": os.getloadavg()}
    if "startup" in args.only:
        results["startup"] = startup(binary, args.runs)
    if "rotation" in args.only:
        results["rotation"] = rotation(binary, args.rotation_seconds)
    if "steady" in args.only:
        results["steady"] = steady(binary, args.steady_seconds)
    if "fleet" in args.only:
        results["fleet"] = fleet(binary, args.fleet_seconds)
    results["load_average_at_end"] = os.getloadavg()
    show(results, report, args.save)


def show(results, report, save=None):
    """Prints a run's report and the load average around it; writes its figures as JSON to `save`."""
    report(results)
    print(f"load average: start {results['load_average_at_start'][0]:.1f}, end {results['load_average_at_end'][0]:.1f}")
    if save:
        with open(save, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
