#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Cross-checks `beacon encode` / `beacon decode --json` against independent Python parsers.

    crosscheck_codec.py BEACON_BINARY [--count 300] [--seed N]
    crosscheck_codec.py --parsers-only          # no binary: check the Python side alone

Encode: random beacons (UUID, major, minor, power, flags) go through
`BEACON_BINARY encode --uuid U --major M --minor m --power P --flags F --format hex`; the hex is
parsed with Bumble's `AdvertisingData.from_bytes` and with a direct `struct.unpack('>16sHHb', …)` of
the manufacturer data, and compared with the fields asked for and with the bytes the iBeacon format
prescribes. Decode: payloads built here (valid ones, and malformed ones whose fault is known) go
through `BEACON_BINARY decode --json HEX…` and the answers must match this file's reference decoder.

The other formats (Eddystone-UID, -URL, -TLM, AltBeacon): random beacons go through `encode`
with the format's options; the hex must be byte for byte what beacon_formats.py builds from the
published specs, and must decode to the fields asked for in an independent decoder: PyPI
`beacontools` (pinned in requirements.txt) for Eddystone, and Bumble's AD parser plus a
`struct.unpack` of the AltBeacon layout (beacontools has no AltBeacon), and for AltBeacon also
Wireshark's own dissector (tshark; Wireshark 4.0 has none for Eddystone frames). Too-long URLs must be
refused saying by how much. Payloads of every format (valid, and malformed from the golden
vectors) go through `decode --json` and must match beacon_formats.py's reference decoder.

beacontools' own quirks, allowed for: it reads the TLM temperature as unsigned (so compared
modulo 2^16), its `seconds_since_boot` is the raw 0.1 s count, and its URL string runs to the end
of the data (so only payloads with the URL frame last are given to it).

Prints one line per failure and a closing `N passed, N failed`; exits 1 on any failure.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
import uuid as uuidlib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from beacontools import parse_packet
from beacontools.packet_types import EddystoneTLMFrame, EddystoneUIDFrame, EddystoneURLFrame
from bumble.core import AdvertisingData

import beacon_formats as bf

APPLE = 0x004C
FLAG_CHOICES = {"0x06": 0x06, "0x1A": 0x1A, "none": None}
LEGACY_MAXIMUM = 31


@dataclass(frozen=True)
class Beacon:
    uuid: bytes  # 16 bytes, on-air (big-endian) order
    major: int
    minor: int
    power: int  # signed dBm

    @property
    def uuid_text(self) -> str:
        return str(uuidlib.UUID(bytes=self.uuid)).upper()

    def as_json(self) -> dict:
        return {"uuid": self.uuid_text, "major": self.major, "minor": self.minor, "power": self.power}


def manufacturer_structure(b: Beacon) -> bytes:
    """`1A FF 4C 00 02 15` + UUID + major + minor + power: Apple's iBeacon layout, built from the
    format's definition (big-endian fields after a little-endian company identifier)."""
    body = struct.pack("<H", APPLE) + bytes([0x02, 0x15]) + struct.pack(">16sHHb", b.uuid, b.major, b.minor, b.power)
    return bytes([len(body) + 1, 0xFF]) + body


def payload(b: Beacon, flags: int | None) -> bytes:
    head = b"" if flags is None else bytes([0x02, 0x01, flags])
    return head + manufacturer_structure(b)


# --------------------------------------------------------------------------------------------------
# Reference parsers
# --------------------------------------------------------------------------------------------------
def parse_with_bumble(data: bytes) -> tuple[int | None, Beacon]:
    """Flags and beacon via Bumble's AD parser, then `struct.unpack` of the manufacturer data.
    Bumble's parser is lenient (a structure cut short is kept short), so lengths are checked here."""
    ad = AdvertisingData.from_bytes(data)
    structures = [(int(t), bytes(v)) for t, v in ad.ad_structures]
    flags = [v for t, v in structures if t == 0x01]
    makers = [v for t, v in structures if t == 0xFF]
    if len(makers) != 1 or len(flags) > 1:
        raise ValueError(f"expected one manufacturer structure and at most one flags, got {structures}")
    m = makers[0]
    if len(m) != 25 or struct.unpack_from("<H", m)[0] != APPLE or m[2:4] != b"\x02\x15":
        raise ValueError(f"not an iBeacon manufacturer structure: {m.hex()}")
    uuid, major, minor, power = struct.unpack(">16sHHb", m[4:])
    if flags and len(flags[0]) != 1:
        raise ValueError(f"flags structure of {len(flags[0])} bytes")
    return (flags[0][0] if flags else None), Beacon(uuid, major, minor, power)


def reference_decode(data: bytes) -> dict:
    """What `beacon decode --json` must print for `data` in strict legacy mode as an iBeacon
    decoder: the beacon's fields, or `{"error": kind, "offset": n}`. The AD rules are
    beacon_formats.reference_decode's (written from the AD format and the documented error
    kinds, Sources/BeaconCodec/BeaconDecodingError.swift), reading iBeacons only."""
    r = bf.reference_decode(data, only_ibeacon=True)
    if "error" in r:
        kind = {"no-beacon": "no-ibeacon", "duplicate-beacon": "duplicate-ibeacon"}.get(r["error"], r["error"])
        return {"error": kind, "offset": r["offset"]}
    return {k: v for k, v in r.items() if k != "format"}


# --------------------------------------------------------------------------------------------------
def random_beacon(rng: random.Random) -> Beacon:
    # Edge values often, so 0, 65535, -128 and 127 are always covered.
    def u16() -> int:
        return rng.choice([0, 1, 0xFF, 0x100, 0xFFFF, rng.randrange(0x10000), rng.randrange(0x10000)])

    power = rng.choice([-128, -59, 0, 127, rng.randrange(-128, 128), rng.randrange(-128, 128)])
    uuid = rng.choice([bytes(16), b"\xff" * 16, rng.randbytes(16), rng.randbytes(16)])
    return Beacon(uuid, u16(), u16(), power)


def decode_cases(rng: random.Random, count: int) -> list[bytes]:
    """Valid payloads in several shapes, then malformed ones of every documented kind."""
    cases: list[bytes] = []
    for _ in range(count):
        b = random_beacon(rng)
        flags = rng.choice([0x06, 0x1A, None])
        p = payload(b, flags)
        shape = rng.randrange(5)
        if shape == 1:
            p = p + bytes(LEGACY_MAXIMUM - len(p))  # zero padding, as HCI carries it
        elif shape == 2 and flags is None:
            p = bytes([0x02, 0x0A, rng.randrange(256)]) + p  # a TX Power Level structure first
        elif shape == 3 and flags is None:
            p = p + bytes([0x03, 0xFF, 0x59, 0x00])  # another company's manufacturer data
        cases.append(p)
    good = payload(random_beacon(rng), 0x06)
    bare = manufacturer_structure(random_beacon(rng))
    cases += [
        good[:-1],  # length-overrun at 3
        good[:3] + b"\x1A",  # truncated-structure at 3
        good[:3],  # flags only: no-ibeacon at 3
        b"",  # no-ibeacon at 0
        good + bytes(2),  # too-long at 31
        bare + b"\x00\x00\x01",  # zero-length-followed-by-data at 27
        bytes.fromhex("020106020106"),  # duplicate-flags at 3
        bytes.fromhex("02FF4C") + bare,  # manufacturer-data-too-short at 0
        bare[:4] + b"\x03" + bare[5:],  # not-ibeacon-type at 0 (type byte 03)
        bare[:5] + b"\x16" + bare[6:],  # not-ibeacon-type at 0 (length byte 16)
        bytes([0x1B]) + bare[1:] + b"\x00",  # wrong-manufacturer-length at 0 (iBeacon + one byte)
        bytes.fromhex("1AFF590002") + bare[5:],  # another company's data only: no-ibeacon
    ]
    return cases


def run(cmd: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, capture_output=True, text=True, timeout=30)


def run_all(cmds: list[list[str]]) -> list[subprocess.CompletedProcess]:
    """Runs independent commands, as many at once as there are cores, and returns their results in
    the order given. Starting the binary is most of this script's time (hundreds of encodes); the
    commands are drawn before any runs, so the payloads, the checks and their order are the same
    as one at a time."""
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        return list(pool.map(run, cmds))


class Tally:
    def __init__(self) -> None:
        self.passed = 0
        self.failed = 0

    def check(self, ok: bool, what: str) -> None:
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print(f"FAIL {what}")


def check_parsers(t: Tally, rng: random.Random, count: int) -> None:
    """The Python side alone: both parsers agree with the payload builder."""
    for _ in range(count):
        b = random_beacon(rng)
        name = rng.choice(list(FLAG_CHOICES))
        p = payload(b, FLAG_CHOICES[name])
        flags, parsed = parse_with_bumble(p)
        t.check(parsed == b and flags == FLAG_CHOICES[name], f"parsers: {p.hex()}: {parsed} {flags}")
        t.check(reference_decode(p) == b.as_json(), f"reference decoder: {p.hex()}")
    # The reference decoder's error cases, checked against hand-worked expectations.
    good = payload(Beacon(bytes(16), 1, 2, -59), 0x06)
    for data, expected in [
        (good[:-1], ("length-overrun", 3)),
        (good[:3] + b"\x1A", ("truncated-structure", 3)),
        (good + bytes(2), ("too-long", 31)),
        (bytes.fromhex("020106020106"), ("duplicate-flags", 3)),
        (good[:3], ("no-ibeacon", 3)),
    ]:
        got = reference_decode(data)
        t.check((got.get("error"), got.get("offset")) == expected, f"reference decoder on {data.hex()}: {got}")


def check_encode(t: Tally, binary: str, rng: random.Random, count: int) -> None:
    drawn = []
    for _ in range(count):
        b = random_beacon(rng)
        name = rng.choice(list(FLAG_CHOICES))
        uuid_arg = rng.choice([b.uuid_text, b.uuid_text.lower(), b.uuid.hex().upper()])
        cmd = [binary, "encode", "--uuid", uuid_arg, "--major", str(b.major), "--minor", str(b.minor),
               "--power", str(b.power), "--flags", name, "--format", "hex"]
        drawn.append((b, name, cmd))
    for (b, name, cmd), r in zip(drawn, run_all([cmd for _, _, cmd in drawn])):
        what = " ".join(cmd[1:])
        lines = r.stdout.splitlines()
        if r.returncode != 0 or len(lines) != 1:
            t.check(False, f"{what}: exit {r.returncode}, stdout {r.stdout!r}, stderr {r.stderr.strip()!r}")
            continue
        text = lines[0].strip()
        t.check(text == text.upper() and all(c in "0123456789ABCDEF" for c in text), f"{what}: not upper-case hex: {text}")
        try:
            data = bytes.fromhex(text)
            flags, parsed = parse_with_bumble(data)
        except ValueError as error:
            t.check(False, f"{what}: {text}: {error}")
            continue
        t.check(parsed == b, f"{what}: fields {parsed} != {b}")
        t.check(flags == FLAG_CHOICES[name], f"{what}: flags {flags} != {name}")
        t.check(data == payload(b, FLAG_CHOICES[name]), f"{what}: bytes {text} != {payload(b, FLAG_CHOICES[name]).hex().upper()}")


def check_decode(t: Tally, binary: str, rng: random.Random, count: int) -> None:
    cases = decode_cases(rng, count)
    hexes = [c.hex().upper() for c in cases]
    # A few spellings the CLI documents: lower case, separators, a 0x prefix.
    extra = {"0x" + hexes[0]: cases[0], " ".join(hexes[1][i : i + 2] for i in range(0, len(hexes[1]), 2)).lower(): cases[1]}
    inputs = hexes + list(extra)
    expected_for = cases + list(extra.values())
    r = run([binary, "decode", "--json", *inputs])
    lines = r.stdout.splitlines()
    t.check(len(lines) == len(inputs), f"decode: {len(inputs)} inputs gave {len(lines)} lines; stderr {r.stderr.strip()[:200]!r}")
    any_error = False
    for text, data, line in zip(inputs, expected_for, lines):
        expected = reference_decode(data)
        any_error = any_error or "error" in expected
        try:
            got = json.loads(line)
        except json.JSONDecodeError:
            t.check(False, f"decode {text}: not JSON: {line!r}")
            continue
        if "error" in expected:
            ok = got.get("error") == expected["error"] and got.get("offset") == expected["offset"]
        else:
            ok = {k: got.get(k) for k in expected} == expected and "error" not in got
        t.check(ok, f"decode {text}: got {got}, expected {expected}")
    # Documented: exit 65 when any input failed to decode.
    t.check(r.returncode == (65 if any_error else 0), f"decode exit status {r.returncode}")
    r = run([binary, "decode", "--json", "0G"])
    got = json.loads(r.stdout.splitlines()[0]) if r.stdout.strip() else {}
    t.check(got.get("error") == "invalid-hex" and got.get("offset") == 1, f"decode 0G: {got}")


# --------------------------------------------------------------------------------------------------
# The other formats
# --------------------------------------------------------------------------------------------------
URL_PIECES = ["a", "Z", "0", "-", "/", "?", "%", "~", ".", "com", ".com", ".com/", ".org/", ".info", ".info/", ".gov",
              "x.net", ".biz/", ".edu", "beacon"]


def random_format_beacon(rng: random.Random, fmt: str) -> tuple[list[str], dict, bytes]:
    """(encode options, expected fields, frame or structure bytes without flags/list) for one beacon."""
    if fmt == "eddystone-uid":
        ns = rng.choice([bytes(10), b"\xff" * 10, rng.randbytes(10)])
        inst = rng.choice([bytes(6), b"\xff" * 6, rng.randbytes(6)])
        tx = rng.choice([-128, -20, 0, 127, rng.randrange(-128, 128)])
        ns_text = rng.choice([ns.hex().upper(), ns.hex(), ":".join(f"{b:02x}" for b in ns)])
        fields = {"namespace": ns.hex().upper(), "instance": inst.hex().upper(), "tx_power": tx}
        return ["--namespace", ns_text, "--instance", inst.hex(), "--tx-power", str(tx)], fields, bf.uid_frame(ns.hex(), inst.hex(), tx)
    if fmt == "eddystone-url":
        while True:
            text = rng.choice(bf.URL_SCHEMES) + "".join(rng.choice(URL_PIECES) for _ in range(rng.randrange(0, 8)))
            if len(bf.encode_url(text)[1]) <= bf.URL_MAXIMUM:
                break
        tx = rng.randrange(-128, 128)
        return ["--url", text, "--tx-power", str(tx)], {"url": text, "tx_power": tx}, bf.url_frame(text, tx)
    if fmt == "eddystone-tlm":
        battery = rng.choice([0, 65535, rng.randrange(65536)])
        temperature = rng.choice([-32768, -32767, 32767, 0, rng.randrange(-32767, 32768)])
        count = rng.choice([0, 0xFFFFFFFF, rng.randrange(1 << 32)])
        uptime = rng.choice([0, 0xFFFFFFFF, rng.randrange(1 << 32)])
        args = ["--tlm", "--battery", str(battery), "--advertising-count", str(count), "--uptime", f"{uptime // 10}.{uptime % 10}"]
        if temperature != -32768:  # not supported: the option is left out
            args += ["--temperature", repr(temperature / 256)]
        fields = {"battery_mv": battery, "temperature": temperature, "advertising_count": count, "uptime_tenths": uptime}
        return args, fields, bf.tlm_frame(battery, temperature, count, uptime)
    beacon_id = rng.choice([bytes(20), b"\xff" * 20, rng.randbytes(20)])
    manufacturer = rng.choice([0x0118, 0, 0xFFFF, rng.randrange(0x10000)])
    rssi, reserved = rng.randrange(-128, 128), rng.randrange(256)
    id_text = rng.choice([bf.altbeacon_id_text(beacon_id), beacon_id.hex()])
    args = ["--altbeacon", id_text, "--manufacturer", rng.choice([f"0x{manufacturer:04X}", str(manufacturer)]),
            "--rssi", str(rssi), "--reserved", f"0x{reserved:02x}"]
    fields = {"id": bf.altbeacon_id_text(beacon_id), "manufacturer": manufacturer, "rssi": rssi, "reserved": reserved}
    return args, fields, bf.altbeacon_structure(manufacturer, beacon_id, rssi, reserved)


def format_payload(fmt: str, body: bytes, flags: str) -> bytes:
    return bf.flags_structure(flags) + body if fmt == "altbeacon" else bf.eddystone(body, flags)


def parse_independently(fmt: str, data: bytes) -> dict:
    """The fields as beacontools (Eddystone) or Bumble + struct (AltBeacon) read them."""
    if fmt == "altbeacon":
        ad = AdvertisingData.from_bytes(data)
        makers = [bytes(v) for t, v in ad.ad_structures if int(t) == 0xFF]
        if len(makers) != 1 or len(makers[0]) != 26 or makers[0][2:4] != b"\xBE\xAC":
            raise ValueError(f"not one AltBeacon structure: {ad.ad_structures}")
        manufacturer, _, beacon_id, rssi, reserved = struct.unpack("<H2s20sbB", makers[0])
        return {"id": bf.altbeacon_id_text(beacon_id), "manufacturer": manufacturer, "rssi": rssi, "reserved": reserved}
    frame = parse_packet(data)
    if fmt == "eddystone-uid" and isinstance(frame, EddystoneUIDFrame):
        return {"namespace": frame.namespace.upper(), "instance": frame.instance.upper(), "tx_power": frame.tx_power}
    if fmt == "eddystone-url" and isinstance(frame, EddystoneURLFrame):
        return {"url": frame.url, "tx_power": frame.tx_power}
    if fmt == "eddystone-tlm" and isinstance(frame, EddystoneTLMFrame):
        raw = round(frame.temperature * 256)  # beacontools reads the signed field as unsigned
        return {"battery_mv": frame.voltage, "temperature": raw - 65536 if raw >= 32768 else raw,
                "advertising_count": frame.advertising_count, "uptime_tenths": frame.seconds_since_boot}
    raise ValueError(f"beacontools read {frame!r}")


FORMATS = ["eddystone-uid", "eddystone-url", "eddystone-tlm", "altbeacon"]


def check_format_parsers(t: Tally, rng: random.Random, count: int) -> None:
    """The Python side alone: the builders, beacontools/Bumble and the reference decoder agree."""
    for _ in range(count):
        fmt = rng.choice(FORMATS)
        _, fields, body = random_format_beacon(rng, fmt)
        data = format_payload(fmt, body, rng.choice(list(FLAG_CHOICES)))
        try:
            t.check(parse_independently(fmt, data) == fields, f"{fmt} parsers: {data.hex()}")
        except ValueError as error:
            t.check(False, f"{fmt} parsers: {data.hex()}: {error}")
        t.check(bf.reference_decode(data) == dict(fields, format=fmt), f"{fmt} reference decoder: {data.hex()}")


def check_altbeacons_with_tshark(t: Tally, encoded: list[tuple[bytes, dict]]) -> None:
    """Wireshark's own AltBeacon dissector (tshark 4.0: applied per company identifier through
    "Decode As") reads every encoded AltBeacon, carried in LE Set Advertising Data commands of a
    pcap (link type 201, H4 with direction)."""
    tshark = shutil.which("tshark")
    if tshark is None:
        t.check(False, "tshark is missing (scripts/setup --tests installs it)")
        return
    if not encoded:
        return
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "altbeacons.pcap"
        out = struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 201)
        for i, (data, _) in enumerate(encoded):
            packet = struct.pack(">I", 0) + bytes([0x01, 0x08, 0x20, 32, len(data)]) + data + bytes(31 - len(data))
            out += struct.pack("<IIII", 1_700_000_000 + i, 0, len(packet), len(packet)) + packet
        path.write_bytes(out)
        companies = sorted({fields["manufacturer"] for _, fields in encoded})
        decode_as = [arg for c in companies for arg in ("-d", f"btcommon.eir_ad.manufacturer_company_id==0x{c:04x},alt_beacon")]
        r = subprocess.run([tshark, "-r", str(path), *decode_as, "-T", "fields", "-e", "btcommon.eir_ad.entry.company_id",
                            "-e", "bluetooth.alt_beacon.code", "-e", "bluetooth.alt_beacon.id",
                            "-e", "bluetooth.alt_beacon.reference_rssi", "-e", "bluetooth.alt_beacon.manufacturer_data"],
                           capture_output=True, text=True, timeout=120)
    lines = r.stdout.splitlines()
    t.check(len(lines) == len(encoded), f"tshark: {len(encoded)} AltBeacons gave {len(lines)} lines: {r.stderr.strip()[:200]!r}")
    for (data, fields), line in zip(encoded, lines):
        company, code, beacon_id, rssi, reserved = (line.split("\t") + [""] * 5)[:5]
        got = {"id": bf.altbeacon_id_text(bytes.fromhex(beacon_id)) if len(beacon_id) == 40 else beacon_id,
               "manufacturer": int(company, 16) if company else None, "rssi": int(rssi) if rssi else None,
               "reserved": int(reserved, 16) if reserved else None}
        t.check(code == "0xbeac" and got == fields, f"tshark on {data.hex().upper()}: {line!r} != {fields}")


def check_format_encode(t: Tally, binary: str, rng: random.Random, count: int) -> None:
    altbeacons: list[tuple[bytes, dict]] = []
    drawn = []
    for _ in range(count):
        fmt = rng.choice(FORMATS)
        args, fields, body = random_format_beacon(rng, fmt)
        flags = rng.choice(list(FLAG_CHOICES))
        drawn.append((fmt, fields, body, flags, [binary, "encode", *args, "--flags", flags, "--format", "hex"]))
    for (fmt, fields, body, flags, cmd), r in zip(drawn, run_all([d[-1] for d in drawn])):
        what = " ".join(cmd[1:])
        lines = r.stdout.splitlines()
        if r.returncode != 0 or len(lines) != 1:
            t.check(False, f"{what}: exit {r.returncode}, stdout {r.stdout!r}, stderr {r.stderr.strip()!r}")
            continue
        data = bytes.fromhex(lines[0])
        t.check(data == format_payload(fmt, body, flags), f"{what}: {lines[0]} != {format_payload(fmt, body, flags).hex().upper()}")
        try:
            t.check(parse_independently(fmt, data) == fields, f"{what}: {parse_independently(fmt, data)} != {fields}")
        except ValueError as error:
            t.check(False, f"{what}: {lines[0]}: {error}")
        if fmt == "altbeacon":
            altbeacons.append((data, fields))
    check_altbeacons_with_tshark(t, altbeacons)
    # URLs over the limit are refused, saying how long they are and by how much.
    too_long = []
    for _ in range(max(5, count // 20)):
        text = "https://" + "".join(rng.choice(URL_PIECES) for _ in range(rng.randrange(12, 20)))
        length = len(bf.encode_url(text)[1])
        if length > bf.URL_MAXIMUM:
            too_long.append((text, length))
    for (text, length), r in zip(too_long, run_all([[binary, "encode", "--url", text] for text, _ in too_long])):
        said = f"encodes to {length} bytes after the scheme, {length - bf.URL_MAXIMUM} over the 17-byte limit"
        t.check(r.returncode == 2 and said in r.stderr, f"encode --url {text}: exit {r.returncode}, {r.stderr.strip()[:300]!r}")


def check_format_decode(t: Tally, binary: str, rng: random.Random, count: int) -> None:
    cases = []
    for _ in range(count):
        fmt = rng.choice(FORMATS)
        _, _, body = random_format_beacon(rng, fmt)
        cases.append(format_payload(fmt, body, rng.choice(list(FLAG_CHOICES))))
    # The golden vectors' malformed payloads, and a few damaged random ones.
    for items in bf.vectors().values():
        cases += [v["hex"] for v in items if len(v["hex"]) <= bf.LEGACY_MAXIMUM]
    for data in cases[:count]:
        i = rng.randrange(len(data))
        cases.append(data[:i] + bytes([rng.randrange(256)]) + data[i + 1:])
    r = run([binary, "decode", "--json", *[c.hex() for c in cases]])
    lines = r.stdout.splitlines()
    t.check(len(lines) == len(cases), f"decode: {len(cases)} inputs gave {len(lines)} lines")
    for data, line in zip(cases, lines):
        # decode reads iBeacon first, as it always did; only data without an iBeacon is read as
        # any format, and "no-ibeacon" stays the answer when there is no beacon at all.
        as_ibeacon, as_any = reference_decode(data), bf.reference_decode(data)
        expected = as_ibeacon if as_ibeacon.get("error") != "no-ibeacon" or as_any.get("error") == "no-beacon" else as_any
        got = json.loads(line)
        if "error" in expected:
            ok = (got.get("error"), got.get("offset")) == (expected["error"], expected["offset"])
        else:
            ok = {k: got.get(k) for k in expected} == expected
        t.check(ok, f"decode {data.hex().upper()}: got {got}, expected {expected}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary", nargs="?", help="the beacon executable")
    parser.add_argument("--count", type=int, default=300, help="random beacons to encode and to decode (default 300)")
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: random, printed)")
    parser.add_argument("--parsers-only", action="store_true", help="only check the Python parsers (no binary)")
    args = parser.parse_args()
    if not args.binary and not args.parsers_only:
        parser.error("give BEACON_BINARY, or --parsers-only")
    seed = args.seed if args.seed is not None else random.randrange(1 << 32)
    print(f"seed {seed}")
    rng = random.Random(seed)
    t = Tally()
    check_parsers(t, rng, args.count)
    check_format_parsers(t, rng, args.count)
    if args.binary:
        check_encode(t, args.binary, rng, args.count)
        check_decode(t, args.binary, rng, args.count)
        check_format_encode(t, args.binary, rng, args.count)
        check_format_decode(t, args.binary, rng, args.count)
    print(f"{t.passed} passed, {t.failed} failed")
    return 1 if t.failed else 0


if __name__ == "__main__":
    sys.exit(main())
