#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Self-test of bumble_link.py: drives controller A with Bumble's own host over TCP and checks what
the scanner reports, the `cmd`/`sets` lines, and the spec behaviours the harness patches in.

Prints one line per check and a closing `N passed, N failed`; exits 1 on any failure.
"""
from __future__ import annotations

import asyncio
import json
import os
import signal
import struct
import sys
import tempfile
import time
from typing import Any, Callable

from bumble import hci
from bumble.host import Host
from bumble.transport import open_transport

HERE = os.path.dirname(os.path.abspath(__file__))
HARNESS = os.path.join(HERE, "bumble_link.py")

E = hci.HCI_ErrorCode
ADVERTISER = "F0:F1:F2:F3:F4:0A"
SET_ADDRESS_1 = "C0:11:22:33:44:55"
SET_ADDRESS_2 = "D1:22:33:44:55:66"

# An iBeacon: flags 02 01 06, then 1A FF 4C 00 02 15, UUID, major 1, minor 2, power -59 (0xC5).
UUID = bytes.fromhex("E2C56DB5DFFB48D2B060D0F5A71096E0")
IBEACON = bytes.fromhex("0201061AFF4C000215") + UUID + struct.pack(">HHb", 1, 2, -59)
IBEACON_2 = bytes.fromhex("1AFF4C000215") + UUID + struct.pack(">HHb", 7, 8, -60)


class Results:
    def __init__(self) -> None:
        self.passed = 0
        self.failed = 0

    def check(self, name: str, ok: bool, detail: Any = "") -> bool:
        if ok:
            self.passed += 1
            print(f"PASS {name}")
        else:
            self.failed += 1
            print(f"FAIL {name} {detail}")
        return ok


class Harness:
    """One bumble_link.py subprocess and the JSON lines it printed so far."""

    def __init__(self, *args: str) -> None:
        self.args = args
        self.lines: list[dict] = []
        self.changed = asyncio.Event()

    async def __aenter__(self) -> "Harness":
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, HARNESS, "--duration", "30", *self.args,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        )
        self.reader = asyncio.create_task(self._read())
        ready = await self.wait(lambda l: l["event"] == "ready", 10)
        self.port = ready["port"]
        return self

    async def __aexit__(self, *exc) -> None:
        if self.proc.returncode is None:
            self.proc.kill()
            await self.proc.wait()

    async def _read(self) -> None:
        assert self.proc.stdout
        async for raw in self.proc.stdout:
            self.lines.append(json.loads(raw))  # a non-JSON line fails the run loudly
            self.changed.set()

    async def wait(self, predicate: Callable[[dict], bool], timeout: float, start: int = 0) -> dict:
        """The first line from index `start` on that satisfies `predicate`; raises on timeout."""
        deadline = time.monotonic() + timeout
        index = start
        while True:
            while index < len(self.lines):
                if predicate(self.lines[index]):
                    return self.lines[index]
                index += 1
            remaining = deadline - time.monotonic()
            if remaining <= 0 or self.reader.done():
                raise TimeoutError("no matching line")
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), remaining)
            except asyncio.TimeoutError:
                pass

    def mark(self) -> int:
        return len(self.lines)


async def connect_host(port: int):
    transport = await open_transport(f"tcp-client:127.0.0.1:{port}")
    host = Host(transport.source, transport.sink)
    await host.reset()
    return transport, host


async def status_of(host: Host, command: hci.HCI_Command) -> int:
    response = await host.send_command(command, response_timeout=3)
    params = response.return_parameters
    return int(params.status if hasattr(params, "status") else params[0])


def legacy_params(adv_type: int, interval: int = 0x00A0, own: int = 0, lo: int | None = None) -> hci.HCI_Command:
    return hci.HCI_LE_Set_Advertising_Parameters_Command(
        advertising_interval_min=interval if lo is None else lo,
        advertising_interval_max=interval,
        advertising_type=adv_type,
        own_address_type=own,
        peer_address_type=0,
        peer_address=hci.Address("00:00:00:00:00:00"),
        advertising_channel_map=0x07,
        advertising_filter_policy=0,
    )


def ext_params(handle: int, props: int, own: int = 1, sid: int = 0) -> hci.HCI_Command:
    return hci.HCI_LE_Set_Extended_Advertising_Parameters_Command(
        advertising_handle=handle,
        advertising_event_properties=props,
        primary_advertising_interval_min=0x00A0,
        primary_advertising_interval_max=0x00A0,
        primary_advertising_channel_map=0x07,
        own_address_type=own,
        peer_address_type=0,
        peer_address=hci.Address("00:00:00:00:00:00"),
        advertising_filter_policy=0,
        advertising_tx_power=0x7F,
        primary_advertising_phy=1,
        secondary_advertising_max_skip=0,
        secondary_advertising_phy=1,
        advertising_sid=sid,
        scan_request_notification_enable=0,
    )


def ext_enable(enable: int, handles: list[int]) -> hci.HCI_Command:
    return hci.HCI_LE_Set_Extended_Advertising_Enable_Command(
        enable=enable, advertising_handles=handles, durations=[0] * len(handles),
        max_extended_advertising_events=[0] * len(handles),
    )


def ext_data(handle: int, data: bytes) -> hci.HCI_Command:
    return hci.HCI_LE_Set_Extended_Advertising_Data_Command(
        advertising_handle=handle, operation=3, fragment_preference=1, advertising_data=data
    )


def is_adv_from(address: str, data: bytes) -> Callable[[dict], bool]:
    return lambda l: l["event"] == "adv" and l["address"] == address and l["data"] == data.hex().upper()


# --------------------------------------------------------------------------------------------------
async def test_default(r: Results, snoop_path: str) -> None:
    async with Harness("--btsnoop", snoop_path) as h:
        transport, host = await connect_host(h.port)

        # Legacy ADV_NONCONN_IND carrying an iBeacon, from the public address, every 100 ms.
        mark = h.mark()
        r.check("legacy params accepted", await status_of(host, legacy_params(3)) == 0)
        r.check("legacy data accepted", await status_of(host, hci.HCI_LE_Set_Advertising_Data_Command(advertising_data=IBEACON)) == 0)
        r.check("legacy enable accepted", await status_of(host, hci.HCI_LE_Set_Advertising_Enable_Command(advertising_enable=1)) == 0)
        cmd = await h.wait(lambda l: l["event"] == "cmd" and l["opcode"] == "0x2006", 2, mark)
        r.check("cmd line shows the advertising type the controller was told (0x03)", bytes.fromhex(cmd["params"])[4] == 0x03, cmd)
        try:
            adv = await h.wait(is_adv_from(ADVERTISER, IBEACON), 2, mark)
            r.check("ADV_NONCONN_IND delivered with exact bytes", True)
            r.check("reported as legacy, not connectable, not scannable, public",
                    adv["legacy"] and not adv["connectable"] and not adv["scannable"] and adv["address_type"] == 0, adv)
        except TimeoutError:
            r.check("ADV_NONCONN_IND delivered with exact bytes", False, "nothing received")
        sets = await h.wait(lambda l: l["event"] == "sets", 2, mark)
        r.check("sets line reports legacy advertising on", sets["legacy_enabled"] is True, sets)

        # Timing: 0x00A0 × 0.625 ms = 100 ms, so about 10 events a second (Bumble alone: 160 ms).
        mark = h.mark()
        await asyncio.sleep(1.0)
        count = sum(1 for l in h.lines[mark:] if l["event"] == "adv" and l["address"] == ADVERTISER)
        r.check("legacy interval in 0.625 ms units (~10 events/s)", 8 <= count <= 12, count)
        r.check("no invented scan responses", not any(l["event"] == "adv" and l["scan_response"] for l in h.lines), "")

        # Parameter validation a real controller does.
        r.check("params while advertising → 0x0C", await status_of(host, legacy_params(3)) == E.COMMAND_DISALLOWED_ERROR)
        r.check("set random address while advertising → 0x0C",
                await status_of(host, hci.HCI_LE_Set_Random_Address_Command(random_address=hci.Address(SET_ADDRESS_1))) == E.COMMAND_DISALLOWED_ERROR)

        # Reset stops advertising.
        mark = h.mark()
        r.check("reset accepted", await status_of(host, hci.HCI_Reset_Command()) == 0)
        sets = await h.wait(lambda l: l["event"] == "sets", 2, mark)
        r.check("reset clears legacy advertising", sets["legacy_enabled"] is False, sets)
        await asyncio.sleep(0.05)  # let an advert already queued on the link drain
        mark = h.mark()
        await asyncio.sleep(0.4)
        r.check("no adverts after reset", not any(l["event"] == "adv" for l in h.lines[mark:]))
        r.check("min > max interval → 0x12", await status_of(host, legacy_params(3, lo=0x0100, interval=0x00A0)) == E.INVALID_COMMAND_PARAMETERS_ERROR)
        r.check("interval below 0x20 → 0x12", await status_of(host, legacy_params(3, interval=0x10)) == E.INVALID_COMMAND_PARAMETERS_ERROR)
        r.check("random own address never set → enable 0x12",
                await status_of(host, legacy_params(3, own=1)) == 0
                and await status_of(host, hci.HCI_LE_Set_Advertising_Enable_Command(advertising_enable=1)) == E.INVALID_COMMAND_PARAMETERS_ERROR)
        await status_of(host, hci.HCI_Reset_Command())

        # Extended: one non-legacy set and one legacy-PDU set, each with its own random address.
        r.check("random address on unknown set → 0x42",
                await status_of(host, hci.HCI_LE_Set_Advertising_Set_Random_Address_Command(advertising_handle=1, random_address=hci.Address(SET_ADDRESS_1))) == E.UNKNOWN_ADVERTISING_IDENTIFIER_ERROR)
        mark = h.mark()
        ok = all([
            await status_of(host, ext_params(1, 0x00, sid=3)) == 0,
            await status_of(host, hci.HCI_LE_Set_Advertising_Set_Random_Address_Command(advertising_handle=1, random_address=hci.Address(SET_ADDRESS_1))) == 0,
            await status_of(host, ext_data(1, IBEACON)) == 0,
            await status_of(host, ext_params(2, 0x10)) == 0,
            await status_of(host, hci.HCI_LE_Set_Advertising_Set_Random_Address_Command(advertising_handle=2, random_address=hci.Address(SET_ADDRESS_2))) == 0,
            await status_of(host, ext_data(2, IBEACON_2)) == 0,
            await status_of(host, ext_enable(1, [1, 2])) == 0,
        ])
        r.check("extended sets configured", ok)
        try:
            adv = await h.wait(is_adv_from(SET_ADDRESS_1, IBEACON), 2, mark)
            r.check("extended set 1 delivered from its own random address",
                    adv["address_type"] == 1 and not adv["legacy"] and not adv["connectable"] and adv["sid"] == 3, adv)
        except TimeoutError:
            r.check("extended set 1 delivered from its own random address", False, "nothing received")
        try:
            adv = await h.wait(is_adv_from(SET_ADDRESS_2, IBEACON_2), 2, mark)
            r.check("legacy-PDU set 2 reported as legacy ADV_NONCONN_IND", adv["legacy"] and not adv["connectable"] and adv["address_type"] == 1, adv)
        except TimeoutError:
            r.check("legacy-PDU set 2 reported as legacy ADV_NONCONN_IND", False, "nothing received")
        sets = await h.wait(lambda l: l["event"] == "sets" and l["active"] == [1, 2], 2, mark)
        r.check("sets line lists both active sets", sets["existing"] == [1, 2], sets)
        r.check("legacy set with 32 bytes → 0x12", await status_of(host, ext_data(2, IBEACON + b"\x00\x00")) == E.INVALID_COMMAND_PARAMETERS_ERROR)
        r.check("connectable+scannable extended → 0x12", await status_of(host, ext_params(3, 0x03)) == E.INVALID_COMMAND_PARAMETERS_ERROR)
        r.check("remove an enabled set → 0x0C",
                await status_of(host, hci.HCI_LE_Remove_Advertising_Set_Command(advertising_handle=1)) == E.COMMAND_DISALLOWED_ERROR)
        r.check("enable an unknown set → 0x42", await status_of(host, ext_enable(1, [9])) == E.UNKNOWN_ADVERTISING_IDENTIFIER_ERROR)

        # Disable set 1 and remove it; set 2 keeps advertising until SIGTERM.
        mark = h.mark()
        await status_of(host, ext_enable(0, [1]))
        r.check("remove a disabled set", await status_of(host, hci.HCI_LE_Remove_Advertising_Set_Command(advertising_handle=1)) == 0)
        sets = await h.wait(lambda l: l["event"] == "sets" and l["existing"] == [2], 2, mark)
        r.check("sets line after remove", sets["active"] == [2], sets)

        # The btsnoop file is readable while the harness runs.
        with open(snoop_path, "rb") as f:
            head = f.read()
        r.check("btsnoop written while running", head.startswith(b"btsnoop\0") and len(head) > 16 + 24, len(head))

        # SIGTERM: exits within a second, with a final sets line.
        mark = h.mark()
        started = time.monotonic()
        h.proc.send_signal(signal.SIGTERM)
        code = await asyncio.wait_for(h.proc.wait(), 3)
        elapsed = time.monotonic() - started
        await h.reader
        r.check("SIGTERM exits cleanly within 1 s", code == 0 and elapsed < 1.0, (code, elapsed))
        final = [l for l in h.lines[mark:] if l["event"] == "sets"]
        r.check("final sets line at exit", bool(final) and final[-1]["reason"] == "exit" and final[-1]["active"] == [2], final)
        r.check("exit is the last line", h.lines[-1]["event"] == "exit" and h.lines[-1]["reason"] == "sigterm", h.lines[-1])
        await transport.close()


async def test_max_sets(r: Results) -> None:
    async with Harness("--max-sets", "2") as h:
        transport, host = await connect_host(h.port)
        response = await host.send_command(hci.HCI_LE_Read_Number_Of_Supported_Advertising_Sets_Command())
        r.check("--max-sets 2 reported", response.return_parameters.num_supported_advertising_sets == 2)
        r.check("set 0 created", await status_of(host, ext_params(0, 0x10, own=0)) == 0)
        r.check("set 5 created", await status_of(host, ext_params(5, 0x10, own=0)) == 0)
        r.check("third set → 0x07", await status_of(host, ext_params(7, 0x10, own=0)) == E.MEMORY_CAPACITY_EXCEEDED_ERROR)
        r.check("re-parameterising an existing set still works", await status_of(host, ext_params(5, 0x00, own=0)) == 0)
        # A Duration of 20 × 10 ms ends set 0 by itself, with LE Advertising Set Terminated.
        terminated = asyncio.get_running_loop().create_future()
        host.on("advertising_set_termination", lambda *a: terminated.done() or terminated.set_result(a))
        mark = h.mark()
        enable = hci.HCI_LE_Set_Extended_Advertising_Enable_Command(
            enable=1, advertising_handles=[0], durations=[20], max_extended_advertising_events=[0])
        r.check("enable with a duration", await status_of(host, enable) == 0)
        on = await h.wait(lambda l: l["event"] == "sets" and l["active"] == [0], 2, mark)
        off = await h.wait(lambda l: l["event"] == "sets" and l["active"] == [] and l["existing"] == [0, 5], 2, mark)
        r.check("duration ends the set after 200 ms", 0.19 <= off["time"] - on["time"] < 0.4, off["time"] - on["time"])
        try:
            args = await asyncio.wait_for(terminated, 1)
            r.check("LE Advertising Set Terminated, Advertising Timeout", args[0] == E.ADVERTISING_TIMEOUT_ERROR and args[1] == 0, args)
        except asyncio.TimeoutError:
            r.check("LE Advertising Set Terminated, Advertising Timeout", False, "no event")
        # Stdin EOF ends the harness.
        assert h.proc.stdin
        h.proc.stdin.close()
        code = await asyncio.wait_for(h.proc.wait(), 3)
        await h.reader
        r.check("stdin EOF exits", code == 0 and h.lines[-1].get("reason") == "stdin-eof", h.lines[-1])
        await transport.close()


async def test_no_extended(r: Results) -> None:
    async with Harness("--no-extended", "--scan", "legacy", "--hci-version", "4.2") as h:
        transport, host = await connect_host(h.port)
        features = (await host.send_command(hci.HCI_LE_Read_Local_Supported_Features_Command())).return_parameters.le_features
        r.check("feature bit 12 cleared", not int.from_bytes(features, "little") & (1 << 12))
        version = (await host.send_command(hci.HCI_Read_Local_Version_Information_Command())).return_parameters.hci_version
        r.check("--hci-version 4.2 reported", version == hci.HCI_VERSION_BLUETOOTH_CORE_4_2, version)
        mark = h.mark()
        r.check("extended params → 0x01", await status_of(host, ext_params(0, 0x10)) == E.UNKNOWN_HCI_COMMAND_ERROR)
        cmd = await h.wait(lambda l: l["event"] == "cmd" and l["opcode"] == "0x2036", 2, mark)
        r.check("cmd line carries the status", cmd["status"] == 1, cmd)
        r.check("4.2: ADV_NONCONN_IND below 100 ms → 0x12", await status_of(host, legacy_params(3, interval=0x40)) == E.INVALID_COMMAND_PARAMETERS_ERROR)
        mark = h.mark()
        await status_of(host, legacy_params(3))
        await status_of(host, hci.HCI_LE_Set_Advertising_Data_Command(advertising_data=IBEACON))
        await status_of(host, hci.HCI_LE_Set_Advertising_Enable_Command(advertising_enable=1))
        try:
            adv = await h.wait(is_adv_from(ADVERTISER, IBEACON), 2, mark)
            r.check("legacy scanner sees ADV_NONCONN_IND", adv["legacy"] and not adv["connectable"], adv)
        except TimeoutError:
            r.check("legacy scanner sees ADV_NONCONN_IND", False, "nothing received")
        await transport.close()

        # Raw H4: an opcode Bumble has no class for gets Command Complete, Unknown HCI Command.
        reader, writer = await asyncio.open_connection("127.0.0.1", h.port)
        writer.write(bytes.fromhex("0101FC00"))
        reply = await asyncio.wait_for(reader.readexactly(7), 2)
        r.check("unknown vendor opcode → Command Complete 0x01", reply == bytes.fromhex("040E040101FC01"), reply.hex())
        writer.write(bytes.fromhex("010A2000"))  # LE Set Advertising Enable without its parameter
        reply = await asyncio.wait_for(reader.readexactly(7), 2)
        r.check("malformed standard command → Command Complete 0x12", reply == bytes.fromhex("040E04010A2012"), reply.hex())
        mark = h.mark()
        writer.write(b"\x09")  # not an H4 packet type
        line = await h.wait(lambda l: l["event"] == "error", 2, mark)
        r.check("bad H4 packet type reported as an error line", "framing" in line["message"], line)
        writer.close()


async def test_quirks(r: Results) -> None:
    async with Harness("--quirks", "no-reply:le-read-transmit-power,unknown:le-set-extended-advertising-data") as h:
        transport, host = await connect_host(h.port)
        r.check("unknown: extended data → 0x01 although listed", await status_of(host, ext_data(0, IBEACON)) == E.UNKNOWN_HCI_COMMAND_ERROR)
        r.check("unknown: extended params still taken", await status_of(host, ext_params(0, 0x10)) == E.SUCCESS)
        await transport.close()
        # no-reply: neither Command Complete nor Command Status; the next command is answered.
        reader, writer = await asyncio.open_connection("127.0.0.1", h.port)
        # LE Read Transmit Power, then Read Local Version Information: the first reply that comes
        # is the second command's (an order, not a wait that happens to be long enough).
        writer.write(bytes.fromhex("014B2000") + bytes.fromhex("01011000"))
        reply = await asyncio.wait_for(reader.readexactly(6), 2)
        r.check("no-reply: LE Read Transmit Power unanswered, the next command answered",
                reply[:2] == bytes.fromhex("040E") and reply[4:6] == bytes.fromhex("0110"), reply.hex())
        writer.close()
    # A misspelt command is an error at the start, not a quirk that never fires.
    proc = await asyncio.create_subprocess_exec(sys.executable, HARNESS, "--quirks", "no-reply:le-read-transmit-powr",
                                                stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
    _, err = await proc.communicate()
    r.check("a misspelt quirk is refused", proc.returncode == 2 and b"no HCI command named" in err, err.decode(errors="replace"))


async def test_models(r: Results) -> None:
    # The catalogue beacon writes (controllers.json): a CSR8510 clone reports what the catalogue
    # says and keeps 4.x's 100 ms floor although it claims 5.0.
    async with Harness("--model", "csr8510-clone") as h:
        reader, writer = await asyncio.open_connection("127.0.0.1", h.port)
        writer.write(bytes.fromhex("01011000"))  # Read Local Version Information
        reply = await asyncio.wait_for(reader.readexactly(15), 2)
        # 04 0E 0C ncmd 01 10 status, version 5.0, revision 0x3120, LMP 5.0, CSR (10), subversion 0x22BB
        r.check("model: the clone's version information", reply[6:] == bytes.fromhex("00092031090A00BB22"), reply.hex())
        writer.close()
        transport, host = await connect_host(h.port)
        r.check("model: the clone refuses 20 ms non-connectable", await status_of(host, legacy_params(0x03, 0x0020)) == E.INVALID_COMMAND_PARAMETERS_ERROR)
        r.check("model: the clone takes 100 ms", await status_of(host, legacy_params(0x03, 0x00A0)) == E.SUCCESS)
        await transport.close()
    async with Harness("--model", "intel-ax201") as h:
        reader, writer = await asyncio.open_connection("127.0.0.1", h.port)
        writer.write(bytes.fromhex("013B2000"))  # LE Read Number of Supported Advertising Sets
        reply = await asyncio.wait_for(reader.readexactly(8), 2)
        r.check("model: AX201's 6 sets, Num_HCI_Command_Packets 2", reply[3] == 2 and reply[6:] == bytes.fromhex("0006"), reply.hex())
        writer.close()
    proc = await asyncio.create_subprocess_exec(sys.executable, HARNESS, "--model", "intel-ax999",
                                                stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
    _, err = await proc.communicate()
    r.check("an unknown model is refused", proc.returncode == 2 and b"not in controllers.json" in err, err.decode(errors="replace"))


async def main() -> int:
    r = Results()
    with tempfile.TemporaryDirectory() as tmp:
        for test in (lambda: test_default(r, os.path.join(tmp, "a.btsnoop")), lambda: test_max_sets(r), lambda: test_no_extended(r),
                     lambda: test_quirks(r), lambda: test_models(r)):
            try:
                await asyncio.wait_for(test(), 15)
            except Exception as error:  # a crashed scenario is a failure, not a traceback
                r.check("scenario completed", False, f"{type(error).__name__}: {error}")
    print(f"{r.passed} passed, {r.failed} failed")
    return 1 if r.failed else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
