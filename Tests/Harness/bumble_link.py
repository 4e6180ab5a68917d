#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Two Bumble virtual controllers on one link: A is served to `beacon` as H4 over TCP, B scans
(driven by a Bumble host, or with `--scanner-port` served as a second H4-over-TCP server).

Prints JSON lines on stdout (and nothing else there; logs go to stderr). See README.md for the
protocol. Exits on SIGTERM/SIGINT, on EOF of a piped stdin, when its parent process dies, or after
`--duration` seconds.
"""
from __future__ import annotations

import os

#: Our parent at start-up, read before the slow imports below so a parent that dies while we start
#: is still noticed.
PARENT_PID = os.getppid()

import argparse
import asyncio
import importlib.metadata
import json
import logging
import pathlib
import signal
import socket
import stat
import sys
import time
from typing import Any

from bumble import hci
from bumble.device import Advertisement, Device
from bumble.link import LocalLink
from bumble.snoop import BtSnooper, Snooper
from bumble.transport.common import PacketParser

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from spec_controller import BUMBLE_VERSION, CommandRecord, SpecController, parse_quirks  # noqa: E402

#: Controller A's public address (what `beacon` reads with Read BD_ADDR).
ADVERTISER_ADDRESS = "F0:F1:F2:F3:F4:0A"
#: Controller B's public address and the scanner host's static random address.
SCANNER_ADDRESS = "F0:F1:F2:F3:F4:0B"
SCANNER_RANDOM_ADDRESS = "C0:5C:A2:00:00:0B"


class Emitter:
    """Writes one JSON object per line to stdout, flushed at once (the Swift side reads a pipe)."""

    def __init__(self) -> None:
        self.closed = False

    def emit(self, event: str, **fields: Any) -> None:
        if self.closed:
            return
        line = json.dumps({"event": event, **fields}, separators=(",", ":"))
        try:
            sys.stdout.write(line + "\n")
            sys.stdout.flush()
        except (BrokenPipeError, ValueError):
            self.closed = True  # nobody is listening any more


class FlushingBtSnooper(BtSnooper):
    """Bumble's BtSnooper never flushes, so its file is empty until it is closed; this one flushes
    every record, so the capture survives a SIGKILL and can be read while the harness runs."""

    def snoop(self, hci_packet: bytes, direction: Snooper.Direction) -> None:
        super().snoop(hci_packet, direction)
        self.output.flush()


def parse_hci_version(text: str) -> int:
    """`5.0`, `4.2`, … or the raw HCI version number (`9` is 5.0)."""
    if "." in text:
        name = "BLUETOOTH_CORE_" + text.replace(".", "_")
        for member in hci.SpecificationVersion:
            if member.name == name or member.name.startswith(name + "_"):
                return int(member)
        raise argparse.ArgumentTypeError(f"unknown Bluetooth version {text}")
    return int(text, 0)


# --------------------------------------------------------------------------------------------------
class H4Server:
    """Serves a controller as H4 over TCP. One host at a time: a new connection replaces the old.
    `label` (e.g. "B") is added to its `connected`/`disconnected` lines; A's carry none."""

    def __init__(self, controller: SpecController, emitter: Emitter, snooper: Snooper | None, label: str | None = None) -> None:
        self.controller = controller
        self.emitter = emitter
        self.snooper = snooper
        self.label = {"controller": label} if label else {}
        self.transport: asyncio.Transport | None = None
        self.server: asyncio.base_events.Server | None = None
        controller.host = self  # controller → host packets arrive in on_packet

    # Controller → host.
    def on_packet(self, packet: bytes) -> None:
        if self.snooper:
            self.snooper.snoop(packet, Snooper.Direction.CONTROLLER_TO_HOST)
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(packet)

    async def start(self, port: int) -> int:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", port))
        self.server = await asyncio.get_running_loop().create_server(lambda: _H4Protocol(self), sock=sock)
        return sock.getsockname()[1]

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()
        if self.server is not None:
            self.server.close()


class _H4Protocol(asyncio.Protocol):
    def __init__(self, server: H4Server) -> None:
        self.server = server
        self.parser = PacketParser(self)
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport) -> None:
        old = self.server.transport
        if old is not None and not old.is_closing():
            old.close()
        self.transport = transport
        self.server.transport = transport
        transport.get_extra_info("socket").setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.server.emitter.emit("connected", **self.server.label, time=time.monotonic())

    def connection_lost(self, exc) -> None:
        if self.server.transport is self.transport:
            self.server.transport = None
        self.server.emitter.emit("disconnected", **self.server.label, time=time.monotonic())

    def data_received(self, data: bytes) -> None:
        try:
            self.parser.feed_data(data)
        except Exception as error:  # a bad packet type byte: H4 framing is lost for good
            self.server.emitter.emit("error", message=f"H4 framing: {error}", time=time.monotonic())
            self.parser.reset()
            if self.transport:
                self.transport.close()

    # Host → controller, one whole H4 packet at a time (called by the parser).
    def on_packet(self, packet: bytes) -> None:
        if self.server.snooper:
            self.server.snooper.snoop(packet, Snooper.Direction.HOST_TO_CONTROLLER)
        try:
            self.server.controller.on_packet(packet)
        except Exception as error:  # e.g. a command whose parameters Bumble cannot parse
            self.server.emitter.emit(
                "error", message=f"{type(error).__name__}: {error}", packet=packet.hex().upper(), time=time.monotonic()
            )


# --------------------------------------------------------------------------------------------------
class Scanner:
    """The Bumble host on controller B: scans passively (actively with --active-scan) and emits one `adv` line per advertisement
    (fragments of one extended advertisement are joined first)."""

    def __init__(self, device: Device, emitter: Emitter) -> None:
        self.device = device
        self.emitter = emitter
        self.partial: dict[tuple[str, int, int], bytes] = {}
        device.on("advertisement", self.on_advertisement)

    def on_advertisement(self, adv: Advertisement) -> None:
        key = (adv.address.to_string(False), adv.address.address_type, adv.sid)
        data = self.partial.pop(key, b"") + adv.data_bytes
        if not adv.is_complete and not adv.is_truncated:
            self.partial[key] = data
            return
        self.emitter.emit(
            "adv",
            address=adv.address.to_string(False),
            address_type=int(adv.address.address_type),
            legacy=adv.is_legacy,
            connectable=adv.is_connectable,
            scannable=adv.is_scannable,
            directed=adv.is_directed,
            scan_response=adv.is_scan_response,
            sid=None if adv.is_legacy else adv.sid,
            tx_power=None if adv.tx_power == Advertisement.TX_POWER_NOT_AVAILABLE else adv.tx_power,
            truncated=adv.is_truncated,
            data=data.hex().upper(),
            rssi=adv.rssi,
            time=time.monotonic(),
        )


# --------------------------------------------------------------------------------------------------
async def run(args: argparse.Namespace) -> int:
    loop = asyncio.get_running_loop()
    emitter = Emitter()
    stop = asyncio.Event()
    reason = {"value": "duration"}

    def request_stop(why: str) -> None:
        if not stop.is_set():
            reason["value"] = why
            stop.set()

    snoop_file = open(args.btsnoop, "wb") if args.btsnoop else None
    snooper = FlushingBtSnooper(snoop_file) if snoop_file else None

    link = LocalLink()

    def on_command(record: CommandRecord) -> None:
        emitter.emit(
            "cmd",
            opcode=f"0x{record.opcode:04X}",
            name=record.name,
            params=record.parameters.hex().upper(),
            status=record.status,
            time=time.monotonic(),
        )

    def emit_sets(why: str) -> None:
        emitter.emit("sets", reason=why, **advertiser.sets_snapshot(), time=time.monotonic())

    extended = args.extended and args.hci_version >= hci.HCI_VERSION_BLUETOOTH_CORE_5_0
    advertiser = SpecController(
        "A",
        link=link,
        # Without a public address (Zephyr's hci_usb) Read BD_ADDR gives 00:00:00:00:00:00.
        public_address=ADVERTISER_ADDRESS if args.public_address else "00:00:00:00:00:00",
        max_sets=args.max_sets,
        extended=extended,
        hci_version=args.hci_version,
        command_observer=on_command,
        on_sets_changed=lambda: emit_sets("change"),
        reply_delay=args.reply_delay,
        adv_delay=args.adv_delay,
        honours_max_events=args.max_events,
        quirks=args.quirks,
        command_packets=args.command_packets,
        manufacturer=args.manufacturer,
        hci_revision=args.hci_revision,
        lmp_subversion=args.lmp_subversion,
        max_data_length=args.max_data_length,
        tx_power=args.tx_power,
    )
    server = H4Server(advertiser, emitter, snooper)

    scanner_controller = SpecController("B", link=link, public_address=SCANNER_ADDRESS)
    scanner_server: H4Server | None = None
    if args.scanner_port is None:
        device = Device.with_hci("scanner", hci.Address(SCANNER_RANDOM_ADDRESS), scanner_controller, scanner_controller)
        Scanner(device, emitter)  # stays alive as the device's "advertisement" listener
        await device.power_on()
        await device.start_scanning(legacy=args.scan == "legacy", active=args.active_scan, filter_duplicates=False)
    else:
        # B is left to a host over TCP (`beacon scan`): no Bumble host, so no `adv` lines.
        scanner_server = H4Server(scanner_controller, emitter, None, label="B")

    port = await server.start(args.port)
    scanner_port = await scanner_server.start(args.scanner_port) if scanner_server else None

    for sig, why in ((signal.SIGTERM, "sigterm"), (signal.SIGINT, "sigint")):
        loop.add_signal_handler(sig, request_stop, why)
    loop.add_signal_handler(signal.SIGUSR1, emit_sets, "sigusr1")
    loop.call_later(args.duration, request_stop, "duration")

    # If the process that started us dies (a crashed test run), we are re-parented: stop. Polled
    # rather than PR_SET_PDEATHSIG, which fires when the spawning *thread* exits — a Swift
    # concurrency pool thread may, long before the test ends.
    def watch_parent() -> None:
        if os.getppid() != PARENT_PID:
            request_stop("parent-exit")
        else:
            loop.call_later(0.25, watch_parent)

    loop.call_later(0.25, watch_parent)

    # Stdin EOF ends us only when stdin is a pipe (the Swift side's handle); a terminal or
    # /dev/null would otherwise end us at once.
    if args.stdin_watch and stat.S_ISFIFO(os.fstat(0).st_mode):
        def on_stdin() -> None:
            if not os.read(0, 4096):
                loop.remove_reader(0)
                request_stop("stdin-eof")

        loop.add_reader(0, on_stdin)

    emitter.emit(
        "ready",
        port=port,
        address=ADVERTISER_ADDRESS,
        scanner=scanner_controller.public_address.to_string(False),
        extended=extended,
        max_sets=args.max_sets,
        reply_delay=args.reply_delay,
        adv_delay=args.adv_delay,
        max_events=args.max_events,
        hci_version=args.hci_version,
        scan=args.scan if scanner_server is None else None,
        scanner_port=scanner_port,
        pid=os.getpid(),
        time=time.monotonic(),
    )

    await stop.wait()
    server.close()
    if scanner_server:
        scanner_server.close()
    await asyncio.sleep(0.01)  # let the closed connection report itself before the last lines
    emit_sets("exit")
    emitter.emit("exit", reason=reason["value"], time=time.monotonic())
    emitter.closed = True  # "exit" is always the last line
    if snoop_file:
        snoop_file.close()
    return 0


def parse_delay(text: str) -> float:
    """`1ms`, `500us`, `0.5ms` or plain seconds (`0.001`) -> seconds."""
    for suffix, scale in (("us", 1e-6), ("ms", 1e-3), ("s", 1.0)):
        if text.endswith(suffix):
            value = float(text[: -len(suffix)]) * scale
            break
    else:
        value = float(text)
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"--reply-delay must be from 0 to 1 s (got {text})")
    return value


def quirks_argument(text: str) -> dict[str, str]:
    try:
        return parse_quirks(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from error


CATALOGUE = pathlib.Path(__file__).with_name("controllers.json")


def load_models() -> dict[str, dict]:
    """The catalogue of real controllers beacon writes (`beacon doctor --known-controllers --json`)."""
    return {m["id"]: m for m in json.loads(CATALOGUE.read_text())["controllers"]}


def model_defaults(model: dict) -> dict:
    """What controller A becomes as `model`: every option a model of the catalogue sets."""
    extended = model["extended_advertising"]
    return {
        "max_sets": max(1, model["advertising_sets"]) if extended else 16,
        "extended": extended,
        "hci_version": model["hci_version"],
        "reply_delay": model["command_latency_ms"] / 1000.0,
        "command_packets": model["command_packets"],
        "manufacturer": model["manufacturer"],
        "hci_revision": model["hci_revision"],
        "lmp_subversion": model["lmp_subversion"],
        "max_data_length": model["maximum_advertising_data_length"] if extended else 31,
        "tx_power": None if model["tx_power_min"] is None else (model["tx_power_min"], model["tx_power_max"]),
        "model_quirks": parse_quirks(",".join(model["quirks"])),
        "public_address": model["public_address"],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", metavar="NAME",
                        help="controller A imitates a real controller of Tests/Harness/controllers.json (beacon doctor --known-controllers): "
                             "its versions, maker, sets, data length, TX power, address, command packets, latency (as --reply-delay) and quirks; "
                             "other options given change what they name, --quirks adds to the model's")
    parser.add_argument("--port", type=int, default=0, help="TCP port on 127.0.0.1 (0: pick a free one)")
    parser.add_argument("--max-sets", type=int, default=16, help="advertising sets controller A supports (1–240)")
    parser.add_argument("--no-extended", dest="extended", action="store_false", help="controller A has no LE Extended Advertising")
    parser.add_argument("--hci-version", type=parse_hci_version, default=hci.HCI_VERSION_BLUETOOTH_CORE_5_0,
                        help="HCI version A reports: 4.2, 5.0, 5.3 … or a number (default 5.0); below 5.0 implies --no-extended")
    parser.add_argument("--reply-delay", type=parse_delay, default=0.0, metavar="DELAY",
                        help="controller A takes up each command this long after it arrives, like a USB controller's round trip: 1ms, 500us, 0.001 (seconds; default 0)")
    parser.add_argument("--adv-delay", action="store_true",
                        help="controller A adds the link layer's 0-10 ms pseudo-random advDelay to every advertising event, as real controllers do")
    parser.add_argument("--max-events", action="store_true",
                        help="controller A stops a set after its Max_Extended_Advertising_Events and sends LE Advertising Set Terminated, as the spec says (Bumble ignores it)")
    parser.add_argument("--quirks", type=quirks_argument, default={}, metavar="KIND:COMMAND,…",
                        help="single misbehaviours of controller A: no-reply:COMMAND (never answered), unknown:COMMAND "
                             "(answered Unknown HCI Command although listed as supported); COMMAND as le-read-transmit-power")
    parser.add_argument("--btsnoop", metavar="FILE", help="write A's HCI traffic to FILE (btsnoop, flushed per packet)")
    parser.add_argument("--scanner-port", type=int, metavar="P",
                        help="serve controller B as H4 over TCP on 127.0.0.1:P (0: pick a free one) instead of scanning with a Bumble host")
    parser.add_argument("--scan", choices=("extended", "legacy"), default="extended", help="how B scans (default extended)")
    parser.add_argument("--active-scan", action="store_true",
                        help="B's Bumble host scans actively: scannable advertisers' scan responses come back (adv lines with scan_response true)")
    parser.add_argument("--duration", type=float, default=120.0, help="exit after this many seconds (default 120)")
    parser.add_argument("--no-stdin-watch", dest="stdin_watch", action="store_false", help="do not exit on stdin EOF")
    parser.add_argument("--verbose", action="store_true", help="Bumble debug logs on stderr")
    parser.set_defaults(command_packets=1, manufacturer=None, hci_revision=0, lmp_subversion=0, max_data_length=0x0672,
                        tx_power=None, model_quirks={}, public_address=True)
    known, _ = parser.parse_known_args(argv)
    if known.model is not None:
        models = load_models()
        if known.model not in models:
            parser.error(f"--model {known.model!r}: not in {CATALOGUE.name} (known: {', '.join(models)})")
        parser.set_defaults(**model_defaults(models[known.model]))
    args = parser.parse_args(argv)
    args.quirks = {**args.model_quirks, **args.quirks}
    if not 1 <= args.max_sets <= 240:
        parser.error("--max-sets must be 1–240")

    logging.basicConfig(stream=sys.stderr, level=logging.DEBUG if args.verbose else logging.WARNING)
    if not args.verbose:
        # bumble.hci logs every unparseable packet; the controller answers those itself and the
        # `cmd` line names them UNPARSEABLE_COMMAND.
        logging.getLogger("bumble.hci").setLevel(logging.CRITICAL)
    installed = importlib.metadata.version("bumble")
    if installed != BUMBLE_VERSION:
        print(f"warning: bumble {installed} installed; the patches were checked against {BUMBLE_VERSION}", file=sys.stderr)
    return asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main())
