# SPDX-License-Identifier: GPL-2.0-or-later
"""A raw HCI socket on a kernel Bluetooth adapter, with only what the kernel test needs.

Independent of `beacon` on purpose: the kernel test uses it to check beacon's work (what arrives
on the air) and to send the commands beacon does not. Packet layouts follow the Bluetooth Core
spec, Vol 4 Part E §5.4 (HCI packets) and §7.7.65 (LE Meta events); socket constants follow the
Linux kernel's include/net/bluetooth/hci_sock.h.
"""

import select
import socket
import struct
import time

HCI_COMMAND_PKT = 0x01
HCI_EVENT_PKT = 0x04
EVT_COMMAND_COMPLETE = 0x0E
EVT_COMMAND_STATUS = 0x0F
EVT_LE_META = 0x3E

# struct hci_ufilter { u32 type_mask; u32 event_mask[2]; __le16 opcode; }: 16 bytes with its tail
# padding, and kernels since 6.9 (and their stable backports) refuse a shorter option (EINVAL).
SOL_HCI = 0
HCI_FILTER = 2


def opcode(ogf, ocf):
    return (ogf << 10) | ocf


class HCIError(Exception):
    pass


class RawHCI:
    """A raw (HCI_CHANNEL_RAW) socket bound to adapter hciN that sees every HCI event."""

    def __init__(self, dev):
        self.dev = dev
        self.sock = socket.socket(socket.AF_BLUETOOTH, socket.SOCK_RAW, socket.BTPROTO_HCI)
        self.sock.bind((dev,))
        every_event = struct.pack("<IIIHxx", 1 << HCI_EVENT_PKT, 0xFFFFFFFF, 0xFFFFFFFF, 0)
        self.sock.setsockopt(SOL_HCI, HCI_FILTER, every_event)
        # Events that arrive while a command waits for its answer (advertising reports).
        self.pending = []

    def close(self):
        self.sock.close()

    def read_event(self, timeout):
        """The next event as (code, parameters), or None after `timeout` seconds."""
        ready, _, _ = select.select([self.sock], [], [], max(timeout, 0))
        if not ready:
            return None
        packet = self.sock.recv(1024)
        if len(packet) < 3 or packet[0] != HCI_EVENT_PKT:
            return (None, b"")
        return (packet[1], packet[3:3 + packet[2]])

    def next_event(self, timeout):
        if self.pending:
            return self.pending.pop(0)
        return self.read_event(timeout)

    def command(self, ogf, ocf, params=b"", timeout=2.0):
        """Send a command; return (status, return parameters after the status).

        Command Complete carries the status as its first return parameter; Command Status
        carries it alone (and the command's real outcome comes later as another event).
        """
        op = opcode(ogf, ocf)
        self.sock.send(struct.pack("<BHB", HCI_COMMAND_PKT, op, len(params)) + bytes(params))
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            event = self.read_event(left)
            if event is None:
                raise HCIError(f"hci{self.dev}: no answer to opcode 0x{op:04x} within {timeout} s")
            code, p = event
            if code == EVT_COMMAND_COMPLETE and len(p) >= 4 and struct.unpack_from("<H", p, 1)[0] == op:
                return p[3], bytes(p[4:])
            if code == EVT_COMMAND_STATUS and len(p) >= 4 and struct.unpack_from("<H", p, 2)[0] == op:
                return p[0], b""
            if code is not None:
                self.pending.append(event)

    def must(self, ogf, ocf, params=b"", what="command"):
        status, rest = self.command(ogf, ocf, params)
        if status != 0:
            raise HCIError(f"hci{self.dev}: {what} failed with status 0x{status:02x}")
        return rest


LE = 0x08
# Advertising_Event_Properties (Core Vol 4 Part E §7.8.53): bit 4 = use legacy PDUs. 0x0010 alone
# is a legacy ADV_NONCONN_IND; 0x0000 an extended non-connectable, non-scannable ADV_EXT_IND.
LEGACY_NONCONN = 0x0010
EXTENDED_NONCONN = 0x0000


def extended_advertising_parameters(handle, properties):
    """LE Set Extended Advertising Parameters (§7.8.53, the 25-byte form of Core 5.0-5.3):
    100 ms, all three primary channels, random own address, no TX power preference, 1M PHYs."""
    interval = 0x0000A0  # 100 ms in 0.625 ms units, 3 bytes
    random_own_address, no_preference_tx_power, phy_1m = 0x01, 0x7F, 0x01
    params = struct.pack("<BH", handle, properties) + interval.to_bytes(3, "little") * 2
    params += struct.pack("<BBB6sBbBBBBB", 0x07, random_own_address, 0x00, bytes(6), 0x00,
                          no_preference_tx_power, phy_1m, 0x00, phy_1m, 0x00, 0x00)
    return params


def address_text(raw):
    """A BD_ADDR (6 bytes, least significant first) as BlueZ prints it: AA:BB:CC:DD:EE:FF."""
    return ":".join(f"{b:02X}" for b in reversed(raw))


def parse_le_meta(p):
    """Advertising reports in an LE Meta event's parameters, as dictionaries.

    Subevent 0x02 LE Advertising Report (Core Vol 4 Part E §7.7.65.2) and 0x0D LE Extended
    Advertising Report (§7.7.65.13); reports are laid out one after another, as BlueZ's
    monitor/bt.h and every controller we know do.
    """
    if not p:
        return []
    sub, reports = p[0], []
    if sub == 0x02:
        count, i = p[1], 2
        for _ in range(count):
            event_type, address_type = p[i], p[i + 1]
            address = address_text(p[i + 2:i + 8])
            length = p[i + 8]
            data = p[i + 9:i + 9 + length]
            rssi = struct.unpack_from("<b", p, i + 9 + length)[0]
            i += 10 + length
            reports.append({
                "event": "le_advertising_report", "event_type": event_type,
                "address": address, "address_type": address_type,
                "data": data.hex().upper(), "rssi": rssi,
            })
    elif sub == 0x0D:
        count, i = p[1], 2
        for _ in range(count):
            event_type = struct.unpack_from("<H", p, i)[0]
            address_type = p[i + 2]
            address = address_text(p[i + 3:i + 9])
            primary_phy, secondary_phy, sid = p[i + 9], p[i + 10], p[i + 11]
            tx_power, rssi = struct.unpack_from("<bb", p, i + 12)
            length = p[i + 23]
            data = p[i + 24:i + 24 + length]
            i += 24 + length
            reports.append({
                "event": "le_extended_advertising_report", "event_type": event_type,
                "address": address, "address_type": address_type,
                "data": data.hex().upper(), "rssi": rssi, "tx_power": tx_power,
                "sid": sid, "primary_phy": primary_phy, "secondary_phy": secondary_phy,
            })
    return reports
