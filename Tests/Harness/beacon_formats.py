#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Eddystone (UID, URL, TLM) and AltBeacon payloads built from the published specs, independently
of the Swift codec: google/eddystone protocol-specification.md, eddystone-url, eddystone-tlm
tlm-plain.md, and AltBeacon/spec README (v1.0).

Used by crosscheck_codec.py (what `beacon encode` must write) and to write the golden vectors:

    beacon_formats.py --write-vectors Tests/BeaconCodecTests/Vectors

Every malformed vector states its error kind and offset by hand; writing the files checks them
against this file's reference decoder (`reference_decode`), so the two readings must agree.
"""
from __future__ import annotations

import argparse
import json
import struct
import sys
import uuid as uuidlib
from pathlib import Path

FLAG_BYTES = {"0x06": 0x06, "0x1A": 0x1A, "none": None}
EDDYSTONE_UUID_LE = b"\xAA\xFE"  # 0xFEAA, little-endian like every 16-bit UUID on the air
URL_SCHEMES = ["http://www.", "https://www.", "http://", "https://"]
URL_EXPANSIONS = [".com/", ".org/", ".edu/", ".net/", ".info/", ".biz/", ".gov/",
                  ".com", ".org", ".edu", ".net", ".info", ".biz", ".gov"]
URL_MAXIMUM = 17
LEGACY_MAXIMUM = 31


# --------------------------------------------------------------------------------------------------
# Builders
# --------------------------------------------------------------------------------------------------
def flags_structure(flags: str) -> bytes:
    f = FLAG_BYTES[flags]
    return b"" if f is None else bytes([0x02, 0x01, f])


def uuid_list() -> bytes:
    return bytes([0x03, 0x03]) + EDDYSTONE_UUID_LE


def service_data(frame: bytes) -> bytes:
    return bytes([len(frame) + 3, 0x16]) + EDDYSTONE_UUID_LE + frame


def eddystone(frame: bytes, flags: str = "0x06") -> bytes:
    return flags_structure(flags) + uuid_list() + service_data(frame)


def uid_frame(namespace: str, instance: str, tx_power: int, rfu: bytes = b"\x00\x00") -> bytes:
    return bytes([0x00]) + struct.pack("b", tx_power) + bytes.fromhex(namespace) + bytes.fromhex(instance) + rfu


def encode_url(url: str) -> tuple[int, bytes]:
    """Scheme byte and URL bytes: the longest scheme, then at each position the longest expansion."""
    scheme = max((i for i, s in enumerate(URL_SCHEMES) if url.startswith(s)), key=lambda i: len(URL_SCHEMES[i]))
    rest, out, i = url[len(URL_SCHEMES[scheme]):], bytearray(), 0
    while i < len(rest):
        matches = [c for c, e in enumerate(URL_EXPANSIONS) if rest.startswith(e, i)]
        if matches:
            code = max(matches, key=lambda c: len(URL_EXPANSIONS[c]))
            out.append(code)
            i += len(URL_EXPANSIONS[code])
        else:
            assert 0x21 <= ord(rest[i]) <= 0x7E, rest[i]
            out.append(ord(rest[i]))
            i += 1
    return scheme, bytes(out)


def url_frame(url: str, tx_power: int) -> bytes:
    scheme, encoded = encode_url(url)
    return bytes([0x10]) + struct.pack("b", tx_power) + bytes([scheme]) + encoded


def tlm_frame(battery_mv: int, temperature: int, advertising_count: int, uptime_tenths: int, version: int = 0) -> bytes:
    return bytes([0x20, version]) + struct.pack(">HhII", battery_mv, temperature, advertising_count, uptime_tenths)


def altbeacon_structure(manufacturer: int, beacon_id: bytes, rssi: int, reserved: int) -> bytes:
    body = struct.pack("<H", manufacturer) + b"\xBE\xAC" + beacon_id + struct.pack("bB", rssi, reserved)
    return bytes([len(body) + 1, 0xFF]) + body


def altbeacon_id_text(beacon_id: bytes) -> str:
    return str(uuidlib.UUID(bytes=beacon_id[:16])).upper() + "-" + beacon_id[16:].hex().upper()


def altbeacon_id_bytes(text: str) -> bytes:
    return bytes.fromhex(text.replace("-", ""))


# --------------------------------------------------------------------------------------------------
# Reference decoder: the strict rules of the vector README, written from the specs
# --------------------------------------------------------------------------------------------------
def expand_url(scheme: int, encoded: bytes) -> str:
    return URL_SCHEMES[scheme] + "".join(URL_EXPANSIONS[b] if b < len(URL_EXPANSIONS) else chr(b) for b in encoded)


def eddystone_fields(frame: bytes) -> tuple[str | None, dict]:
    """(error kind or None, fields) for an Eddystone frame (after the service UUID), strictly."""
    if not frame:
        return "eddystone-wrong-length", {}
    kind = frame[0]
    if kind == 0x00:
        if len(frame) != 20:
            return "eddystone-wrong-length", {}
        if frame[18:20] != b"\x00\x00":
            return "eddystone-reserved-not-zero", {}
        return None, {"format": "eddystone-uid", "namespace": frame[2:12].hex().upper(),
                      "instance": frame[12:18].hex().upper(), "tx_power": struct.unpack("b", frame[1:2])[0]}
    if kind == 0x10:
        if not 3 <= len(frame) <= 3 + URL_MAXIMUM:
            return "eddystone-wrong-length", {}
        if frame[2] > 3:
            return "eddystone-url-scheme", {}
        if any(not (b < len(URL_EXPANSIONS) or 0x21 <= b <= 0x7E) for b in frame[3:]):
            return "eddystone-url-character", {}
        return None, {"format": "eddystone-url", "url": expand_url(frame[2], frame[3:]),
                      "tx_power": struct.unpack("b", frame[1:2])[0]}
    if kind == 0x20:
        if len(frame) < 2:
            return "eddystone-wrong-length", {}
        if frame[1] != 0x00:
            return "eddystone-tlm-version", {}
        if len(frame) != 14:
            return "eddystone-wrong-length", {}
        battery, temperature, count, uptime = struct.unpack(">HhII", frame[2:14])
        return None, {"format": "eddystone-tlm", "battery_mv": battery, "temperature": temperature,
                      "advertising_count": count, "uptime_tenths": uptime}
    return "eddystone-unknown-frame", {}


def reference_decode(data: bytes, maximum: int = LEGACY_MAXIMUM, only_ibeacon: bool = False) -> dict:
    """The beacon's fields (with "format"), or {"error": kind, "offset": n}. With `only_ibeacon`,
    the iBeacon decoder's reading: other formats' structures are not judged (they are foreign data)."""
    def error(kind: str, offset: int) -> dict:
        return {"error": kind, "offset": offset}

    if len(data) > maximum:
        return error("too-long", maximum)
    i, seen_flags, listed, eddystone_at, found = 0, False, False, None, None
    while i < len(data):
        length = data[i]
        if length == 0:
            if any(data[i + 1:]):
                return error("zero-length-followed-by-data", i)
            break
        if i + 1 >= len(data):
            return error("truncated-structure", i)
        if i + 1 + length > len(data):
            return error("length-overrun", i)
        ad_type, body = data[i + 1], data[i + 2:i + 1 + length]
        beacon = None
        if ad_type == 0x01:
            if seen_flags:
                return error("duplicate-flags", i)
            seen_flags = True
        elif only_ibeacon and ad_type != 0xFF:
            pass
        elif ad_type in (0x02, 0x03):
            listed = listed or any(body[j:j + 2] == EDDYSTONE_UUID_LE for j in range(0, len(body) - 1, 2))
        elif ad_type == 0xFF:
            if len(body) >= 4 and body[2:4] == b"\xBE\xAC" and not only_ibeacon:
                if length != 0x1B:
                    return error("altbeacon-wrong-length", i)
                beacon = {"format": "altbeacon", "manufacturer": struct.unpack("<H", body[:2])[0],
                          "id": altbeacon_id_text(body[4:24]), "rssi": struct.unpack("b", body[24:25])[0],
                          "reserved": body[25]}
            elif len(body) < 2:
                return error("manufacturer-data-too-short", i)
            elif body[:2] == b"\x4C\x00":
                if len(body) < 4 or body[2:4] != b"\x02\x15":
                    return error("not-ibeacon-type", i)
                if length != 0x1A:
                    return error("wrong-manufacturer-length", i)
                u, major, minor, power = struct.unpack(">16sHHb", body[4:])
                beacon = {"format": "ibeacon", "uuid": str(uuidlib.UUID(bytes=u)).upper(), "major": major,
                          "minor": minor, "power": power}
        elif ad_type == 0x16:
            if len(body) < 2:
                return error("service-data-too-short", i)
            if body[:2] == EDDYSTONE_UUID_LE:
                kind, beacon = eddystone_fields(body[2:])
                if kind:
                    return error(kind, i)
                eddystone_at = i
        if beacon is not None:
            if found is not None:
                return error("duplicate-beacon", i)
            found = beacon
        i += 1 + length
    if found is None:
        return error("no-beacon", len(data))
    if eddystone_at is not None and not listed:
        return error("eddystone-uuid-not-listed", eddystone_at)
    return found


# --------------------------------------------------------------------------------------------------
# Golden vectors
# --------------------------------------------------------------------------------------------------
NS = "EDD1EBEAC04E5DEFA017"  # a namespace in the style of Google's examples (any 10 bytes will do)
INST = "0BDB87539B67"
ALT_ID = "2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6-00010002"
NO_BEACON = {"lenient_error": "no-beacon"}


def uid(name, ns=NS, inst=INST, tx=-20, flags="0x06", **extra):
    return dict(name=name, hex=eddystone(uid_frame(ns, inst, tx), flags), namespace=ns, instance=inst, tx_power=tx, flags=flags, **extra)


def url(name, text, tx=-20, flags="0x06", **extra):
    return dict(name=name, hex=eddystone(url_frame(text, tx), flags), url=text, tx_power=tx, flags=flags, **extra)


def tlm(name, battery, temperature, count, uptime, flags="0x06", **extra):
    return dict(name=name, hex=eddystone(tlm_frame(battery, temperature, count, uptime), flags), battery_mv=battery,
                temperature=temperature, advertising_count=count, uptime_tenths=uptime, flags=flags, **extra)


def alt(name, manufacturer=0x0118, beacon_id=ALT_ID, rssi=-59, reserved=0, flags="0x06", **extra):
    data = flags_structure(flags) + altbeacon_structure(manufacturer, altbeacon_id_bytes(beacon_id), rssi, reserved)
    return dict(name=name, hex=data, manufacturer=manufacturer, id=beacon_id, rssi=rssi, reserved=reserved, flags=flags, **extra)


def bad(name, data, error, offset, **extra):
    return dict(name=name, hex=data, error=error, offset=offset, **extra)


def vectors() -> dict[str, list[dict]]:
    good_uid = eddystone(uid_frame(NS, INST, -20))
    good_url = eddystone(url_frame("https://example.com", -20))
    good_tlm = eddystone(tlm_frame(3000, 6528, 12345, 36000))
    good_alt = flags_structure("0x06") + altbeacon_structure(0x0118, altbeacon_id_bytes(ALT_ID), -59, 0)
    uid_fields = {"namespace": NS, "instance": INST, "tx_power": -20}
    url_fields = {"url": "https://example.com", "tx_power": -20}
    tlm_fields = {"battery_mv": 3000, "temperature": 6528, "advertising_count": 12345, "uptime_tenths": 36000}
    alt_fields = {"manufacturer": 0x0118, "id": ALT_ID, "rssi": -59, "reserved": 0}
    return {
        "eddystone-uid": [
            uid("uid-flags-06"),
            uid("uid-flags-1a", flags="0x1A", tx=-8),
            uid("uid-no-flags", flags="none"),
            uid("uid-edge-zero-tx-min", ns="00" * 10, inst="00" * 6, tx=-128),
            uid("uid-edge-ff-tx-max", ns="FF" * 10, inst="FF" * 6, tx=127, flags="none"),
            uid("uid-byte-order", ns="00112233445566778899", inst="AABBCCDDEEFF", tx=0),
            dict(uid("uid-padded-to-31-no-flags", flags="none"), canonical=False,
                 hex=eddystone(uid_frame(NS, INST, -20), "none") + bytes(3)),
            dict(uid("uid-incomplete-uuid-list"), canonical=False,
                 hex=flags_structure("0x06") + bytes([0x03, 0x02]) + EDDYSTONE_UUID_LE + service_data(uid_frame(NS, INST, -20))),
            dict(uid("uid-list-of-two-after-frame", flags="none"), canonical=False,
                 hex=service_data(uid_frame(NS, INST, -20)) + bytes([0x05, 0x03, 0x0F, 0x18]) + EDDYSTONE_UUID_LE),
            bad("uid-without-rfu", eddystone(uid_frame(NS, INST, -20, rfu=b"")), "eddystone-wrong-length", 7, lenient=uid_fields),
            bad("uid-rfu-not-zero", eddystone(uid_frame(NS, INST, -20, rfu=b"\x01\x00")), "eddystone-reserved-not-zero", 7, lenient=uid_fields),
            bad("uid-no-uuid-list", flags_structure("0x06") + service_data(uid_frame(NS, INST, -20)), "eddystone-uuid-not-listed", 3, lenient=uid_fields),
            bad("uid-other-uuid-listed", flags_structure("0x06") + bytes([0x03, 0x03, 0x0F, 0x18]) + service_data(uid_frame(NS, INST, -20)),
                "eddystone-uuid-not-listed", 7, lenient=uid_fields),
            bad("uid-missing-last-byte", good_uid[:-1], "length-overrun", 7, **NO_BEACON),
            bad("uid-plus-one-byte", good_uid + b"\x00", "too-long", 31, lenient=uid_fields),
            bad("uid-eid-frame", eddystone(bytes([0x30, 0xEC]) + bytes(8)), "eddystone-unknown-frame", 7, **NO_BEACON),
            bad("eddystone-empty-frame", eddystone(b""), "eddystone-wrong-length", 7, **NO_BEACON),
            bad("service-data-one-byte", flags_structure("0x06") + bytes([0x02, 0x16, 0xAA]), "service-data-too-short", 3, **NO_BEACON),
            bad("uid-duplicate-flags", flags_structure("0x06") + flags_structure("0x06") + uuid_list() + service_data(uid_frame(NS, INST, -20))[:-4],
                "duplicate-flags", 3, **NO_BEACON),
            bad("uid-and-tlm-extended", good_uid + service_data(tlm_frame(3000, 6528, 12345, 36000)), "duplicate-beacon", 31,
                max_length=254, lenient=uid_fields),
            bad("uuid-list-only", flags_structure("0x06") + uuid_list(), "no-beacon", 7, **NO_BEACON),
            bad("uid-zero-length-then-data", eddystone(uid_frame(NS, INST, -20), "none") + b"\x00\x00\x01", "zero-length-followed-by-data", 28,
                lenient=uid_fields),
        ],
        "eddystone-url": [
            url("url-https-example-com", "https://example.com"),
            url("url-http-www-com-slash", "http://www.google.com/", flags="0x1A"),
            url("url-https-www-org-slash-path", "https://www.eff.org/about", tx=-128),
            url("url-slash-codes", "http://a.edu/b.net/c.info/d.biz/e.gov/", tx=127, flags="none"),
            url("url-plain-codes", "https://a.com.org.edu.net.info.biz.gov", tx=0),
            url("url-17-bytes", "https://abcdefghijklmnopq"),
            url("url-empty-after-scheme", "https://", flags="none"),
            url("url-punctuation", "http://x.io/?a=1&b=~%7E"),
            dict(url("url-padded", "https://example.com"), canonical=False,
                 hex=eddystone(url_frame("https://example.com", -20)) + bytes(31 - len(good_url))),
            dict(url("url-unexpanded-com", "https://example.com"), canonical=False,
                 hex=eddystone(bytes([0x10, 0xEC, 0x03]) + b"example.com")),
            bad("url-scheme-04", eddystone(bytes([0x10, 0xEC, 0x04]) + b"example"), "eddystone-url-scheme", 7, **NO_BEACON),
            bad("url-space", eddystone(bytes([0x10, 0xEC, 0x03]) + b"a b"), "eddystone-url-character", 7, **NO_BEACON),
            bad("url-reserved-0e", eddystone(bytes([0x10, 0xEC, 0x03]) + b"a\x0e"), "eddystone-url-character", 7, **NO_BEACON),
            bad("url-byte-80", eddystone(bytes([0x10, 0xEC, 0x03]) + b"a\x80"), "eddystone-url-character", 7, **NO_BEACON),
            bad("url-18-bytes", eddystone(bytes([0x10, 0xEC, 0x03]) + b"abcdefghijklmnopqr", "none"), "eddystone-wrong-length", 4, **NO_BEACON),
            bad("url-no-scheme-byte", eddystone(bytes([0x10, 0xEC])), "eddystone-wrong-length", 7, **NO_BEACON),
            bad("url-truncated-structure", good_url + b"\x05", "truncated-structure", len(good_url), lenient=url_fields),
            bad("url-no-uuid-list", service_data(url_frame("https://example.com", -20)), "eddystone-uuid-not-listed", 0, lenient=url_fields),
        ],
        "eddystone-tlm": [
            tlm("tlm-typical", 3000, 6528, 12345, 36000),
            tlm("tlm-not-supported", 0, -32768, 0, 0, flags="0x1A"),
            tlm("tlm-negative-temperature", 2950, -2624, 1, 1, flags="none"),
            tlm("tlm-edge-max", 65535, 32767, 0xFFFFFFFF, 0xFFFFFFFF),
            tlm("tlm-byte-order", 0x0102, 0x0304, 0x05060708, 0x090A0B0C),
            dict(tlm("tlm-padded", 3000, 6528, 12345, 36000), canonical=False, hex=good_tlm + bytes(6)),
            dict(tlm("tlm-extended", 3000, 6528, 12345, 36000), canonical=False, max_length=254,
                 hex=good_tlm + bytes([0x09, 0x09]) + b"beacon-1" + bytes(200)),
            bad("tlm-encrypted", eddystone(bytes([0x20, 0x01]) + bytes(16)), "eddystone-tlm-version", 7, **NO_BEACON),
            bad("tlm-13-bytes", eddystone(tlm_frame(3000, 6528, 12345, 36000)[:-1]), "eddystone-wrong-length", 7, **NO_BEACON),
            bad("tlm-15-bytes", eddystone(tlm_frame(3000, 6528, 12345, 36000) + b"\x00"), "eddystone-wrong-length", 7, lenient=tlm_fields),
            bad("tlm-type-only", eddystone(bytes([0x20])), "eddystone-wrong-length", 7, **NO_BEACON),
            bad("tlm-service-length-overrun", good_tlm[:7] + bytes([0x13]) + good_tlm[8:], "length-overrun", 7, **NO_BEACON),
            bad("tlm-twice-extended", good_tlm + service_data(tlm_frame(1, 2, 3, 4)), "duplicate-beacon", 25, max_length=254, lenient=tlm_fields),
            bad("tlm-duplicate-flags-after", good_tlm + flags_structure("0x06"), "duplicate-flags", 25, lenient=tlm_fields),
        ],
        "altbeacon": [
            alt("altbeacon-spec-layout"),
            alt("altbeacon-no-flags", flags="none"),
            alt("altbeacon-flags-1a", flags="0x1A", rssi=-127, reserved=0xFF),
            alt("altbeacon-edge-zero", manufacturer=0, beacon_id="00000000-0000-0000-0000-000000000000-00000000", rssi=0),
            alt("altbeacon-edge-ff", manufacturer=0xFFFF, beacon_id="FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF-FFFFFFFF", rssi=127, flags="none"),
            alt("altbeacon-byte-order", manufacturer=0x0102, beacon_id="00010203-0405-0607-0809-0A0B0C0D0E0F-10111213", rssi=-1, reserved=0x80),
            dict(alt("altbeacon-padded", flags="none"), canonical=False, hex=good_alt[3:] + bytes(3)),
            dict(alt("altbeacon-after-tx-power", flags="none"), canonical=False, hex=bytes([0x02, 0x0A, 0x00]) + good_alt[3:]),
            dict(alt("altbeacon-after-other-company-extended", flags="none"), canonical=False, max_length=254,
                 hex=bytes([0x04, 0xFF, 0x59, 0x00, 0x01]) + good_alt[3:]),
            bad("altbeacon-length-1a", good_alt[:3] + bytes([0x1A]) + good_alt[4:-1], "altbeacon-wrong-length", 3, **NO_BEACON),
            bad("altbeacon-length-1c", bytes([0x1C]) + good_alt[4:] + b"\x00", "altbeacon-wrong-length", 0, lenient=alt_fields),
            bad("altbeacon-missing-last-byte", good_alt[:-1], "length-overrun", 3, **NO_BEACON),
            bad("altbeacon-plus-one-byte", good_alt + b"\x00", "too-long", 31, lenient=alt_fields),
            bad("altbeacon-company-only", flags_structure("0x06") + bytes([0x02, 0xFF, 0x18]), "manufacturer-data-too-short", 3, **NO_BEACON),
            bad("altbeacon-twice-extended", good_alt + good_alt[3:], "duplicate-beacon", 31, max_length=254, lenient=alt_fields),
            bad("altbeacon-code-reversed", good_alt[:7] + b"\xAC\xBE" + good_alt[9:], "no-beacon", 31, **NO_BEACON),
        ],
    }


def json_line(v: dict) -> str:
    out = dict(v)
    out["hex"] = v["hex"].hex().upper()
    return json.dumps(out)


def write_vectors(folder: Path) -> int:
    failures = 0
    for fmt, items in vectors().items():
        names = set()
        for v in items:
            assert v["name"] not in names, v["name"]
            names.add(v["name"])
            got = reference_decode(v["hex"], v.get("max_length", LEGACY_MAXIMUM))
            if "error" in v:
                expected = {"error": v["error"], "offset": v["offset"]}
            else:
                expected = {k: v[k] for k in v if k not in ("name", "hex", "flags", "canonical", "max_length")}
                expected["format"] = fmt
                if v.get("canonical", True) and v["hex"][:3] != flags_structure(v["flags"]) and v["flags"] != "none":
                    print(f"{fmt} {v['name']}: canonical vector without its flags first")
                    failures += 1
            if got != expected:
                print(f"{fmt} {v['name']}: reference decoder says {got}, the vector {expected}")
                failures += 1
        (folder / f"{fmt}.jsonl").write_text("".join(json_line(v) + "\n" for v in items))
    return failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write-vectors", metavar="FOLDER", required=True)
    args = parser.parse_args()
    failures = write_vectors(Path(args.write_vectors))
    print(f"{failures} disagreements")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
