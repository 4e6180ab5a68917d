#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Writes a btsnoop capture (datalink 1002, H4) of LE Advertising Report events, as a scanning
host records them: iBeacons and other advertisements (other companies' data, Apple data that is
not an iBeacon, names, flags only), one report per event, from a few hundred addresses.

Independent of `beacon` (plain struct packing from the Core spec layouts), so the benchmark and
the tshark cross-check do not read a file made by the code under test.

    make-capture.py OUT.btsnoop [--packets N] [--seed S] [--ibeacon-share F]
"""
import argparse
import random
import struct

BTSNOOP_EPOCH_1970 = 0x00DCDDB30F2F8000  # µs from 0000-01-01 to 1970-01-01 (BlueZ, Wireshark)


def ibeacon(uuid: bytes, major: int, minor: int, power: int) -> bytes:
    # Flags (LE General Discoverable, BR/EDR not supported), then Apple's manufacturer data:
    # 4C 00 (company, little-endian), 02 15, UUID, major and minor big-endian, signed power.
    return bytes([2, 0x01, 0x06, 0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15]) + uuid + struct.pack(">HHb", major, minor, power)


def other_advert(rng: random.Random) -> bytes:
    kind = rng.randrange(4)
    if kind == 0:  # Nordic Semiconductor manufacturer data
        body = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 20)))
        return bytes([2, 0x01, 0x06, len(body) + 3, 0xFF, 0x59, 0x00]) + body
    if kind == 1:  # Apple, but not an iBeacon (type 0x10, "Nearby")
        return bytes([2, 0x01, 0x1A, 7, 0xFF, 0x4C, 0x00, 0x10, 0x02, 0x0B, 0x00])
    if kind == 2:  # a complete local name
        name = b"sensor-%d" % rng.randrange(1000)
        return bytes([2, 0x01, 0x06, len(name) + 1, 0x09]) + name
    return bytes([2, 0x01, 0x06])  # flags only


def report_event(address: bytes, address_type: int, data: bytes, rssi: int) -> bytes:
    # LE Meta (0x3E) / LE Advertising Report (0x02), one report: event type ADV_NONCONN_IND (3),
    # address type, address (LSB first), data length, data, RSSI.
    params = bytes([0x02, 1, 0x03, address_type]) + address + bytes([len(data)]) + data + struct.pack("b", rssi)
    return bytes([0x04, 0x3E, len(params)]) + params


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out")
    parser.add_argument("--packets", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ibeacon-share", type=float, default=0.5, help="fraction of reports that are iBeacons")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    uuids = [bytes(rng.randrange(256) for _ in range(16)) for _ in range(4)]
    beacons = [(rng.choice(uuids), rng.randrange(65536), rng.randrange(65536), rng.randrange(-75, -50)) for _ in range(200)]
    addresses = [bytes(rng.randrange(256) for _ in range(5)) + bytes([0xC0 | rng.randrange(64)]) for _ in range(len(beacons))]
    others = [bytes(rng.randrange(256) for _ in range(6)) for _ in range(300)]
    t = 1_700_000_000_000_000  # µs since 1970
    with open(args.out, "wb") as f:
        f.write(b"btsnoop\0" + struct.pack(">II", 1, 1002))
        chunk = []
        for i in range(args.packets):
            t += rng.randrange(100, 2000)
            if rng.random() < args.ibeacon_share:
                k = rng.randrange(len(beacons))
                packet = report_event(addresses[k], 1, ibeacon(*beacons[k]), rng.randrange(-95, -40))
            else:
                packet = report_event(rng.choice(others), 0, other_advert(rng), rng.randrange(-100, -40))
            # Record: original and included length, flags (bit 0 received, bit 1 command/event), drops, time.
            chunk.append(struct.pack(">IIIIQ", len(packet), len(packet), 3, 0, t + BTSNOOP_EPOCH_1970) + packet)
            if len(chunk) >= 10000:
                f.write(b"".join(chunk))
                chunk.clear()
        f.write(b"".join(chunk))


if __name__ == "__main__":
    main()
