#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Scan on a kernel Bluetooth adapter and print every advertising report as one JSON line.

    hci_scan.py --dev 1 --duration 5 [--mode legacy|extended] [--ready FILE] [--restart-every S]

The receiver of the kernel test: it enables passive LE scanning on hciN through a raw HCI socket
(legacy: LE Set Scan Parameters/Enable, Core Vol 4 Part E §7.8.10-11; extended: LE Set Extended
Scan Parameters/Enable, §7.8.64-65), prints each LE (Extended) Advertising Report as
{"event", "event_type", "address", "address_type", "data" (hex), "rssi", ...} and disables
scanning again. Once scanning is on it creates the --ready file, so that the sender can wait for
it: BlueZ's emulated controllers report an advertisement once per enable, not at every interval.
Duplicate filtering is off. Each report also carries "t", the time it arrived (CLOCK_BOOTTIME
seconds, as /proc/uptime counts them, so a shell can compare its own moments with it).
--restart-every S turns scanning off and on every S seconds: btvirt re-reports every enabled
extended set when an extended scan starts, so a set still on air is seen at least every S
seconds (how the timing checks sample "on air"). SIGTERM ends the scan early (scanning is still turned off). Exit
status 0 when scanning worked (even if nothing arrived).
"""

import argparse
import json
import signal
import struct
import sys
import time

from hci_raw import EVT_LE_META, HCIError, RawHCI, parse_le_meta

LE = 0x08


def start(hci, mode):
    passive, interval, window = 0x00, 0x0010, 0x0010  # 10 ms window every 10 ms: always listening
    if mode == "legacy":
        hci.command(LE, 0x000C, b"\x00\x00")  # off first; Command Disallowed if it was off is fine
        hci.must(LE, 0x000B, struct.pack("<BHHBB", passive, interval, window, 0, 0), "LE Set Scan Parameters")
        hci.must(LE, 0x000C, b"\x01\x00", "LE Set Scan Enable")
    else:
        hci.command(LE, 0x0042, struct.pack("<BBHH", 0, 0, 0, 0))
        one_m_phy = 0x01
        hci.must(LE, 0x0041, struct.pack("<BBBBHH", 0, 0, one_m_phy, passive, interval, window),
                 "LE Set Extended Scan Parameters")
        hci.must(LE, 0x0042, struct.pack("<BBHH", 1, 0, 0, 0), "LE Set Extended Scan Enable")


def stop(hci, mode):
    if mode == "legacy":
        hci.command(LE, 0x000C, b"\x00\x00")
    else:
        hci.command(LE, 0x0042, struct.pack("<BBHH", 0, 0, 0, 0))


class Stopped(Exception):
    pass


def on_sigterm(signum, frame):
    raise Stopped()


def main():
    signal.signal(signal.SIGTERM, on_sigterm)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dev", type=int, required=True, help="adapter index (1 for hci1)")
    parser.add_argument("--duration", type=float, default=5.0)
    parser.add_argument("--mode", choices=["legacy", "extended"], default="legacy")
    parser.add_argument("--ready", help="file to create once scanning is on")
    parser.add_argument("--restart-every", type=float, help="turn scanning off and on this often (seconds)")
    args = parser.parse_args()

    hci = RawHCI(args.dev)
    try:
        start(hci, args.mode)
    except HCIError as error:
        print(f"hci_scan: {error}", file=sys.stderr)
        return 1
    if args.ready:
        open(args.ready, "w").close()
    print(f"hci_scan: hci{args.dev} scanning ({args.mode}) for {args.duration} s", file=sys.stderr)
    deadline = time.monotonic() + args.duration
    restart = time.monotonic() + args.restart_every if args.restart_every else None
    try:
        while (left := deadline - time.monotonic()) > 0:
            if restart is not None and time.monotonic() >= restart:
                restart = time.monotonic() + args.restart_every
                try:
                    stop(hci, args.mode)
                    start(hci, args.mode)
                except (OSError, HCIError) as error:
                    # The adapter may be powered off for a moment (bluetoothd restarting): the
                    # next restart tries again.
                    print(f"hci_scan: restart failed ({error}); trying again", file=sys.stderr)
            wait = left if restart is None else max(0.0, min(left, restart - time.monotonic()))
            event = hci.next_event(wait)
            if event is None:
                if restart is not None:
                    continue
                break
            code, params = event
            if code == EVT_LE_META:
                for report in parse_le_meta(params):
                    report["t"] = round(time.clock_gettime(time.CLOCK_BOOTTIME), 3)
                    print(json.dumps(report), flush=True)
    except Stopped:
        pass
    finally:
        stop(hci, args.mode)
        hci.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
