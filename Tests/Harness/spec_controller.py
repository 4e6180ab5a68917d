# SPDX-License-Identifier: GPL-2.0-or-later
"""A Bumble 0.0.236 virtual controller with the advertising/scanning behaviour the Core spec asks for.

Bumble's `bumble.controller.Controller` is built for connection tests; as an advertiser and a scanner
it cuts corners that would let a broken `beacon` pass (see README.md, "Patches"). Rather than
monkey-patching Bumble's module globally, `SpecController` subclasses it and overrides only the
advertising and scanning handlers; every other command keeps Bumble's own behaviour.

Spec references are to the Bluetooth Core Specification, Vol 4 Part E (HCI) unless stated.
"""
from __future__ import annotations

import asyncio
import random
import dataclasses
import logging
from typing import Callable

from bumble import hci, ll
from bumble.controller import AdvertisingSet, Controller, LegacyAdvertiser

logger = logging.getLogger(__name__)

E = hci.HCI_ErrorCode
ExtProps = hci.HCI_LE_Set_Extended_Advertising_Parameters_Command.AdvertisingProperties
LegacyType = hci.HCI_LE_Set_Advertising_Parameters_Command.AdvertisingType
ExtReportType = hci.HCI_LE_Extended_Advertising_Report_Event.EventType
LegacyReportType = hci.HCI_LE_Advertising_Report_Event.EventType

#: Bumble's version these overrides were written against (checked by `bumble_link.py`).
BUMBLE_VERSION = "0.0.236"

#: Advertising handles range 0x00–0xEF (§7.8.53).
MAX_ADVERTISING_HANDLE = 0xEF

#: One LE Extended Advertising Report carries at most 229 data bytes: 255 bytes of event parameters
#: minus the subevent code, Num_Reports and the 24 fixed bytes of one report (§7.7.65.13).
MAX_EXTENDED_REPORT_DATA = 229

#: Extended advertising event properties that are valid with "use legacy PDUs" (§7.8.53, Table 7.2).
LEGACY_EVENT_PROPERTIES = {
    0b0010011: LegacyType.ADV_IND,
    0b0010101: LegacyType.ADV_DIRECT_IND_LOW_DUTY,
    0b0011101: LegacyType.ADV_DIRECT_IND,
    0b0010010: LegacyType.ADV_SCAN_IND,
    0b0010000: LegacyType.ADV_NONCONN_IND,
}

#: Legacy advertising types → the properties an extended report of them carries (§7.7.65.13).
LEGACY_REPORT_PROPERTIES = {
    LegacyType.ADV_IND: 0b0010011,
    LegacyType.ADV_DIRECT_IND: 0b0010101,
    LegacyType.ADV_DIRECT_IND_LOW_DUTY: 0b0010101,
    LegacyType.ADV_SCAN_IND: 0b0010010,
    LegacyType.ADV_NONCONN_IND: 0b0010000,
}

#: Legacy advertising types → LE Advertising Report event types (§7.7.65.2).
LEGACY_REPORT_EVENT = {
    LegacyType.ADV_IND: LegacyReportType.ADV_IND,
    LegacyType.ADV_DIRECT_IND: LegacyReportType.ADV_DIRECT_IND,
    LegacyType.ADV_DIRECT_IND_LOW_DUTY: LegacyReportType.ADV_DIRECT_IND,
    LegacyType.ADV_SCAN_IND: LegacyReportType.ADV_SCAN_IND,
    LegacyType.ADV_NONCONN_IND: LegacyReportType.ADV_NONCONN_IND,
}


def _opcodes(*names: str) -> frozenset[int]:
    return frozenset(getattr(hci, n) for n in names if hasattr(hci, n))


#: Commands that exist only with the LE Extended Advertising feature (and the periodic advertising
#: and extended scanning/initiating built on it). With `--no-extended` they are unknown commands.
EXTENDED_OPCODES = _opcodes(
    "HCI_LE_SET_ADVERTISING_SET_RANDOM_ADDRESS_COMMAND",
    "HCI_LE_SET_EXTENDED_ADVERTISING_PARAMETERS_COMMAND",
    "HCI_LE_SET_EXTENDED_ADVERTISING_PARAMETERS_V2_COMMAND",
    "HCI_LE_SET_EXTENDED_ADVERTISING_DATA_COMMAND",
    "HCI_LE_SET_EXTENDED_SCAN_RESPONSE_DATA_COMMAND",
    "HCI_LE_SET_EXTENDED_ADVERTISING_ENABLE_COMMAND",
    "HCI_LE_READ_MAXIMUM_ADVERTISING_DATA_LENGTH_COMMAND",
    "HCI_LE_READ_NUMBER_OF_SUPPORTED_ADVERTISING_SETS_COMMAND",
    "HCI_LE_REMOVE_ADVERTISING_SET_COMMAND",
    "HCI_LE_CLEAR_ADVERTISING_SETS_COMMAND",
    "HCI_LE_SET_PERIODIC_ADVERTISING_PARAMETERS_COMMAND",
    "HCI_LE_SET_PERIODIC_ADVERTISING_PARAMETERS_V2_COMMAND",
    "HCI_LE_SET_PERIODIC_ADVERTISING_DATA_COMMAND",
    "HCI_LE_SET_PERIODIC_ADVERTISING_ENABLE_COMMAND",
    "HCI_LE_SET_EXTENDED_SCAN_PARAMETERS_COMMAND",
    "HCI_LE_SET_EXTENDED_SCAN_ENABLE_COMMAND",
    "HCI_LE_EXTENDED_CREATE_CONNECTION_COMMAND",
    "HCI_LE_EXTENDED_CREATE_CONNECTION_V2_COMMAND",
    "HCI_LE_PERIODIC_ADVERTISING_CREATE_SYNC_COMMAND",
    "HCI_LE_PERIODIC_ADVERTISING_CREATE_SYNC_CANCEL_COMMAND",
    "HCI_LE_PERIODIC_ADVERTISING_TERMINATE_SYNC_COMMAND",
    "HCI_LE_ADD_DEVICE_TO_PERIODIC_ADVERTISER_LIST_COMMAND",
    "HCI_LE_REMOVE_DEVICE_FROM_PERIODIC_ADVERTISER_LIST_COMMAND",
    "HCI_LE_CLEAR_PERIODIC_ADVERTISER_LIST_COMMAND",
    "HCI_LE_READ_PERIODIC_ADVERTISER_LIST_SIZE_COMMAND",
    "HCI_LE_SET_PERIODIC_ADVERTISING_RECEIVE_ENABLE_COMMAND",
    "HCI_LE_PERIODIC_ADVERTISING_SYNC_TRANSFER_COMMAND",
    "HCI_LE_PERIODIC_ADVERTISING_SET_INFO_TRANSFER_COMMAND",
    "HCI_LE_SET_PERIODIC_ADVERTISING_SYNC_TRANSFER_PARAMETERS_COMMAND",
    "HCI_LE_SET_DEFAULT_PERIODIC_ADVERTISING_SYNC_TRANSFER_PARAMETERS_COMMAND",
)

#: The extended advertising commands a 5.0 controller with feature bit 12 lists in its Supported
#: Commands bitmask (§6.27). Bumble 0.0.236 handles them but leaves them out of its bitmask.
EXTENDED_ADVERTISING_OPCODES = _opcodes(
    "HCI_LE_SET_ADVERTISING_SET_RANDOM_ADDRESS_COMMAND",
    "HCI_LE_SET_EXTENDED_ADVERTISING_PARAMETERS_COMMAND",
    "HCI_LE_SET_EXTENDED_ADVERTISING_DATA_COMMAND",
    "HCI_LE_SET_EXTENDED_SCAN_RESPONSE_DATA_COMMAND",
    "HCI_LE_SET_EXTENDED_ADVERTISING_ENABLE_COMMAND",
    "HCI_LE_READ_MAXIMUM_ADVERTISING_DATA_LENGTH_COMMAND",
    "HCI_LE_READ_NUMBER_OF_SUPPORTED_ADVERTISING_SETS_COMMAND",
    "HCI_LE_REMOVE_ADVERTISING_SET_COMMAND",
    "HCI_LE_CLEAR_ADVERTISING_SETS_COMMAND",
    "HCI_LE_SET_EXTENDED_SCAN_PARAMETERS_COMMAND",
    "HCI_LE_SET_EXTENDED_SCAN_ENABLE_COMMAND",
)

#: Commands whose completion can change which advertising exists; `SpecController.on_sets_changed`
#: is checked after each of these.
ADVERTISING_STATE_OPCODES = _opcodes(
    "HCI_RESET_COMMAND",
    "HCI_LE_SET_ADVERTISING_ENABLE_COMMAND",
    "HCI_LE_SET_EXTENDED_ADVERTISING_PARAMETERS_COMMAND",
    "HCI_LE_SET_EXTENDED_ADVERTISING_ENABLE_COMMAND",
    "HCI_LE_REMOVE_ADVERTISING_SET_COMMAND",
    "HCI_LE_CLEAR_ADVERTISING_SETS_COMMAND",
)


# --------------------------------------------------------------------------------------------------
# Link-layer PDUs Bumble's `ll` module lacks. The LocalLink passes Python objects, not bytes, so a
# PDU is just a dataclass; each carries the advertising type so the scanner can report it exactly.
# --------------------------------------------------------------------------------------------------
@dataclasses.dataclass
class AdvScanInd(ll.AdvertisingPdu):
    """ADV_SCAN_IND: scannable, not connectable (Core Vol 6 Part B §2.3.1.4)."""

    advertiser_address: hci.Address
    data: bytes
    #: The advertiser's scan response data, which an active scanner's SCAN_REQ would get back
    #: (the LocalLink has no SCAN_REQ/SCAN_RSP exchange: the response rides along).
    scan_response: bytes = b""


@dataclasses.dataclass
class ExtendedPdu(ll.AdvExtInd):
    """An extended advertising event (ADV_EXT_IND + AUX_ADV_IND chain, collapsed into one object)
    that also carries what the report needs: the event properties, TX power and PHYs."""

    properties: int = 0
    primary_phy: int = 1
    secondary_phy: int = 1
    #: The set's scan response data (see AdvScanInd).
    scan_response: bytes = b""


def legacy_pdu_type(pdu: ll.AdvertisingPdu) -> int | None:
    """The legacy advertising type a PDU was sent as, or None for a non-legacy extended PDU."""
    if isinstance(pdu, ExtendedPdu):
        if pdu.properties & ExtProps.USE_LEGACY_ADVERTISING_PDUS:
            return LEGACY_EVENT_PROPERTIES.get(pdu.properties & 0x1F)
        return None
    if isinstance(pdu, ll.AdvExtInd):  # stock Bumble sender: no properties known
        return None
    if isinstance(pdu, ll.AdvNonConnInd):
        return LegacyType.ADV_NONCONN_IND
    if isinstance(pdu, AdvScanInd):
        return LegacyType.ADV_SCAN_IND
    if isinstance(pdu, ll.AdvDirectInd):
        return LegacyType.ADV_DIRECT_IND
    if isinstance(pdu, ll.AdvInd):
        return LegacyType.ADV_IND
    return None


# --------------------------------------------------------------------------------------------------
@dataclasses.dataclass
class SpecLegacyAdvertiser(LegacyAdvertiser):
    """Legacy advertiser that sends the PDU type it was configured with, every interval."""

    # Defaults after power-on or Reset (§7.8.5): 1.28 s, ADV_IND, public, all three channels.
    advertising_interval_min: int = 0x0800
    advertising_interval_max: int = 0x0800
    advertising_channel_map: int = 0x07

    @property
    def interval_seconds(self) -> float:
        # Patch: Bumble divides by 1000 (milliseconds); the spec unit is 0.625 ms. We advertise at
        # the minimum interval; the 0–10 ms advDelay only with the controller's --adv-delay, so
        # other tests can time events.
        return self.advertising_interval_min * 0.625 / 1000.0

    def _on_timer_fired(self) -> None:
        self.send_advertising_data()
        # Scheduled on the absolute timeline (Bumble re-arms relative to "now", so every late
        # wake-up on a busy machine stretched all later intervals).
        loop = asyncio.get_running_loop()
        step = self.interval_seconds + self.controller.advertising_delay()
        self.next_event = max(getattr(self, "next_event", loop.time()) + step, loop.time())
        self.timer_handle = loop.call_at(self.next_event, self._on_timer_fired)

    def start(self) -> None:
        self.next_event = asyncio.get_running_loop().time()
        super().start()

    def send_advertising_data(self) -> None:
        # Patch: Bumble sends ADV_IND only and drops every other type silently.
        if not self.enabled:
            return
        t = self.advertising_type
        if t == LegacyType.ADV_IND:
            pdu: ll.AdvertisingPdu = ll.AdvInd(advertiser_address=self.address, data=self.advertising_data)
        elif t == LegacyType.ADV_NONCONN_IND:
            pdu = ll.AdvNonConnInd(advertiser_address=self.address, data=self.advertising_data)
        elif t == LegacyType.ADV_SCAN_IND:
            pdu = AdvScanInd(advertiser_address=self.address, data=self.advertising_data, scan_response=bytes(self.scan_response_data))
        else:
            pdu = ll.AdvDirectInd(advertiser_address=self.address, target_address=self.peer_address)
        self.controller.send_advertising_pdu(pdu)


class SpecAdvertisingSet(AdvertisingSet):
    """Extended advertising set whose PDUs carry their event properties."""

    duration_handle: asyncio.TimerHandle | None = None
    #: Max_Extended_Advertising_Events of the last enable (0: no limit), and the events since it.
    max_events: int = 0
    events_sent: int = 0

    def stop(self) -> None:
        super().stop()
        if self.duration_handle is not None:  # a Duration from an earlier enable no longer applies
            self.duration_handle.cancel()
            self.duration_handle = None

    def start(self) -> None:
        self.enabled = True
        self.events_sent = 0
        # The first event one advDelay after the enable (with --adv-delay).
        self.next_event = asyncio.get_running_loop().time() + self.controller.advertising_delay()
        self.timer_handle = asyncio.get_running_loop().call_at(self.next_event, self._on_extended_advertising_timer_fired)

    def _on_extended_advertising_timer_fired(self) -> None:
        # As SpecLegacyAdvertiser: a fixed timeline instead of Bumble's drifting call_later.
        if not self.enabled:
            return
        self.send_extended_advertising_data()
        self.events_sent += 1
        if self.max_events and self.events_sent >= self.max_events and self.controller.honours_max_events:
            # §7.8.56: after Max_Extended_Advertising_Events the set stops, and the host hears LE
            # Advertising Set Terminated with Success and the events completed (§7.7.65.18).
            self.controller.end_set_after_events(self)
            return
        loop = asyncio.get_running_loop()
        interval = self.parameters.primary_advertising_interval_min * 0.625 / 1000.0 if self.parameters else 1.0
        self.next_event = max(self.next_event + interval + self.controller.advertising_delay(), loop.time())
        self.timer_handle = loop.call_at(self.next_event, self._on_extended_advertising_timer_fired)

    def send_extended_advertising_data(self) -> None:
        p = self.parameters
        if self.controller.link is None or p is None or self.address is None:
            return
        include_power = p.advertising_event_properties & ExtProps.INCLUDE_TX_POWER
        power = p.advertising_tx_power  # a signed byte; 0x7F means "no preference"
        power = 0 if power == 0x7F else (power - 256 if power > 127 else power)
        self.controller.send_advertising_pdu(
            ExtendedPdu(
                advertiser_address=self.address,
                data=bytes(self.data),
                sid=p.advertising_sid,
                tx_power=power if include_power else None,
                properties=p.advertising_event_properties,
                primary_phy=p.primary_advertising_phy,
                secondary_phy=p.secondary_advertising_phy,
                scan_response=bytes(self.scan_response_data),
            )
        )


# --------------------------------------------------------------------------------------------------
QUIRK_KINDS = ("no-reply", "unknown", "interval-floor")


def quirk_name(command_name: str) -> str:
    """`HCI_LE_READ_TRANSMIT_POWER_COMMAND` → `le-read-transmit-power` (how `--quirks` names it)."""
    name = command_name.lower()
    name = name[4:] if name.startswith("hci_") else name
    name = name[: -len("_command")] if name.endswith("_command") else name
    return name.replace("_", "-")


def parse_quirks(text: str) -> dict[str, str]:
    """`no-reply:le-read-transmit-power,unknown:le-set-extended-advertising-data` → command → kind.
    Every name must be a command Bumble knows, so a misspelt quirk is an error, not a quirk that
    never fires. `interval-floor:MS` (a clone that claims 5.0 but refuses scannable and
    non-connectable advertising below MS, 20–10240) is kept as "interval-floor" → MS."""
    known = {quirk_name(c.name) for c in hci.HCI_Command.command_classes.values()} if hasattr(hci.HCI_Command, "command_classes") else None
    quirks: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        kind, _, command = item.partition(":")
        if kind not in QUIRK_KINDS or not command:
            raise ValueError(f"quirk {item!r}: expected KIND:COMMAND with KIND one of {', '.join(QUIRK_KINDS)}")
        if kind == "interval-floor":
            if not command.isdigit() or not 20 <= int(command) <= 10240:
                raise ValueError(f"quirk {item!r}: the floor is a whole number of milliseconds from 20 to 10240")
            quirks[kind] = command
            continue
        if known is not None and command not in known:
            raise ValueError(f"quirk {item!r}: no HCI command named {command!r} (for example le-read-transmit-power)")
        quirks[command] = kind
    return quirks


@dataclasses.dataclass
class CommandRecord:
    """What `SpecController` tells its observer about each command it received."""

    opcode: int
    name: str
    parameters: bytes
    status: int | None  # None when the reply was not a status (e.g. a pending Command Status)


class SpecController(Controller):
    """A Bumble controller whose advertising and scanning follow the spec (see module docstring).

    - `max_sets`: what LE Read Number of Supported Advertising Sets returns, and the most sets that
      can exist at once (creating one more fails with Memory Capacity Exceeded, 0x07).
    - `extended`: whether the LE Extended Advertising feature (LE feature bit 12) exists.
    - `hci_version`: HCI/LMP version reported by Read Local Version Information.
    - `command_observer`: called after every HCI command with a `CommandRecord`.
    - `on_sets_changed`: called when the set of existing/enabled advertising changes.
    - `quirks`: single misbehaviours real controllers show (see `parse_quirks`): command name →
      `"no-reply"` (never answered: LE Read Transmit Power on some firmware) or `"unknown"`
      (answered Unknown HCI Command although listed as supported: Intel AX211 firmware that fails
      LE Set Extended Advertising Data, issue 36).
    """

    def __init__(
        self,
        name: str,
        *,
        link,
        public_address: str,
        max_sets: int = 16,
        extended: bool = True,
        hci_version: int = hci.HCI_VERSION_BLUETOOTH_CORE_5_0,
        command_observer: Callable[[CommandRecord], None] | None = None,
        on_sets_changed: Callable[[], None] | None = None,
        reply_delay: float = 0.0,
        adv_delay: bool = False,
        honours_max_events: bool = False,
        seed: int = 1,
        quirks: dict[str, str] | None = None,
        command_packets: int = 1,
        manufacturer: int | None = None,
        hci_revision: int = 0,
        lmp_subversion: int = 0,
        max_data_length: int = 0x0672,
        tx_power: tuple[int, int] | None = None,
    ) -> None:
        super().__init__(name, link=link, public_address=public_address)
        # A real controller's identity and limits (a model of controllers.json, issue 36).
        self.command_packets = command_packets
        if manufacturer is not None:
            self.manufacturer_company_identifier = manufacturer
        self.hci_revision = hci_revision
        self.lmp_subversion = lmp_subversion
        self.max_data_length = max_data_length
        self.tx_power = tx_power
        self.max_sets = max_sets
        # A real controller's round trip (USB: about 0.5-1 ms): each packet from the host is taken
        # up this long after it arrived, in arrival order, so its reply comes that much later.
        self.reply_delay = reply_delay
        self._delayed: asyncio.Queue | None = None
        # The link layer's advDelay (Core Vol 6 Part B §4.4.2.2.1: 0–10 ms pseudo-random, added to
        # every advertising event) and Max_Extended_Advertising_Events (§7.8.56), as real
        # controllers have them; Bumble 0.0.236 has neither. Seeded, so a run can be repeated.
        self.adv_delay = adv_delay
        self.honours_max_events = honours_max_events
        self._random = random.Random(seed)
        self.extended = extended
        self.quirks = dict(quirks or {})
        self.hci_version = hci_version
        self.lmp_version = hci_version
        self.command_observer = command_observer
        self.on_sets_changed = on_sets_changed
        self.le_legacy_advertiser = SpecLegacyAdvertiser(self)
        self.scan_mode: str | None = None  # "legacy" or "extended" while scanning
        self.reported: set[tuple[bytes, int, bytes]] = set()  # for Filter_Duplicates
        self._last_sets_snapshot = self.sets_snapshot()

        # Instance copies, so the class-level defaults other controllers use stay untouched.
        commands = set(Controller.supported_commands)
        if extended:
            commands |= EXTENDED_ADVERTISING_OPCODES
            self.le_features = Controller.le_features
        else:
            commands -= EXTENDED_OPCODES
            self.le_features = Controller.le_features & ~(
                hci.LeFeatureMask.LE_EXTENDED_ADVERTISING | hci.LeFeatureMask.LE_PERIODIC_ADVERTISING
            )
        self.supported_commands = commands

    # ------------------------------------------------------------------------------------------
    # Introspection for the harness
    # ------------------------------------------------------------------------------------------
    def sets_snapshot(self) -> dict:
        """Which advertising exists right now: the legacy advertiser and the extended sets."""
        return {
            "legacy_enabled": self.le_legacy_advertiser.enabled,
            "existing": sorted(self.advertising_sets),
            "active": sorted(h for h, s in self.advertising_sets.items() if s.enabled),
        }

    def _check_sets_changed(self) -> None:
        snapshot = self.sets_snapshot()
        if snapshot != self._last_sets_snapshot:
            self._last_sets_snapshot = snapshot
            if self.on_sets_changed:
                self.on_sets_changed()

    # ------------------------------------------------------------------------------------------
    # Command dispatch
    # ------------------------------------------------------------------------------------------
    def _complete(self, command: hci.HCI_Command, params: hci.HCI_ReturnParameters) -> None:
        self.send_hci_packet(
            hci.HCI_Command_Complete_Event(
                num_hci_command_packets=self.command_packets, command_opcode=command.op_code, return_parameters=params
            )
        )

    def on_packet(self, packet: bytes) -> None:
        if self.reply_delay > 0:
            loop = asyncio.get_running_loop()
            if self._delayed is None:
                self._delayed = asyncio.Queue()
                loop.create_task(self._take_delayed())
            self._delayed.put_nowait((loop.time() + self.reply_delay, packet))
            return
        self._take(packet)

    async def _take_delayed(self) -> None:
        """Takes up delayed packets one at a time, each when its delay has passed."""
        loop = asyncio.get_running_loop()
        while True:
            due, packet = await self._delayed.get()
            if due > loop.time():
                await asyncio.sleep(due - loop.time())
            self._take(packet)

    def _take(self, packet: bytes) -> None:
        try:
            parsed = hci.HCI_Packet.from_bytes(packet)
        except Exception:
            if packet[:1] != bytes([hci.HCI_COMMAND_PACKET]) or len(packet) < 4:
                raise
            # Patch: a command Bumble cannot parse raised out of the transport and got no reply.
            # Vendor opcodes (OGF 0x3F) may parse as a *host driver's* vendor command class
            # (importing bumble.device registers Intel/Realtek ones) and fail; they are unknown
            # to this controller. A standard command with malformed parameters is invalid.
            opcode = int.from_bytes(packet[1:3], "little")
            vendor = opcode >> 10 == 0x3F
            status = E.UNKNOWN_HCI_COMMAND_ERROR if vendor else E.INVALID_COMMAND_PARAMETERS_ERROR
            self.send_hci_packet(
                hci.HCI_Command_Complete_Event(
                    num_hci_command_packets=self.command_packets, command_opcode=opcode, return_parameters=hci.HCI_StatusReturnParameters(status)
                )
            )
            if self.command_observer:
                self.command_observer(CommandRecord(opcode, "UNPARSEABLE_COMMAND", packet[4:], status))
            return
        self.on_hci_packet(parsed)

    def on_hci_command_packet(self, command: hci.HCI_Command) -> None:
        status: int | None
        quirk = self.quirks.get(quirk_name(command.name))
        if quirk == "no-reply":
            # Neither Command Complete nor Command Status: the host's wait can only time out.
            if self.command_observer:
                self.command_observer(CommandRecord(command.op_code, command.name, bytes(command.parameters), None))
            return
        handler = getattr(self, f"on_{command.name.lower()}", None)
        unknown = (
            quirk == "unknown"
            or (not self.extended and command.op_code in EXTENDED_OPCODES)
            or handler is None
            or type(command) is hci.HCI_Command  # an opcode Bumble has no class for
            or command.op_code >> 10 == 0x3F  # vendor-specific: this controller has none
        )
        if unknown:
            # Patch: Bumble answers nothing at all for an opcode it has no class for (the host
            # waits forever). Real controllers answer Command Complete, Unknown HCI Command.
            status = E.UNKNOWN_HCI_COMMAND_ERROR
            self._complete(command, hci.HCI_StatusReturnParameters(status))
        else:
            try:
                result = handler(command)
            except Exception:
                # A harness or Bumble bug: still answer, so the host under test does not hang, then
                # let the transport report the exception.
                self._complete(command, hci.HCI_StatusReturnParameters(E.UNSPECIFIED_ERROR_ERROR))
                raise
            status = getattr(result, "status", None)
            if isinstance(command, hci.HCI_SyncCommand):
                if result is None:
                    logger.error("no return parameters for %s", command.name)
                    status = E.UNSPECIFIED_ERROR_ERROR
                    result = hci.HCI_StatusReturnParameters(status)
                self._complete(command, result)
            elif result is not None:
                # An async command Bumble does not implement: say so with a Command Status.
                self._send_hci_command_status(result.status, command.op_code)
        if self.command_observer:
            self.command_observer(CommandRecord(command.op_code, command.name, bytes(command.parameters), status))
        if command.op_code in ADVERTISING_STATE_OPCODES:
            self._check_sets_changed()

    # ------------------------------------------------------------------------------------------
    # Reset
    # ------------------------------------------------------------------------------------------
    def on_hci_reset_command(self, _command) -> hci.HCI_StatusReturnParameters:
        # Patch: Bumble's Reset is a no-op ("TODO"); advertising kept going. §7.3.2: the controller
        # returns to its power-on state — no advertising, no sets, no random address, no scanning.
        self.le_legacy_advertiser.stop()
        self.le_legacy_advertiser = SpecLegacyAdvertiser(self)
        for advertising_set in self.advertising_sets.values():
            advertising_set.stop()
        self.advertising_sets.clear()
        self._random_address = hci.Address("00:00:00:00:00:00")
        self.le_scan_enable = False
        self.scan_mode = None
        self.filter_duplicates = False
        self.reported.clear()
        self.event_mask = 0
        self.le_event_mask = 0
        return hci.HCI_StatusReturnParameters(E.SUCCESS)

    def _send_hci_command_status(self, status: int, op_code: int) -> None:
        self.send_hci_packet(
            hci.HCI_Command_Status_Event(status=status, num_hci_command_packets=self.command_packets, command_opcode=op_code)
        )

    def _floor_units(self) -> int:
        """The lowest interval (0.625 ms units) scannable and non-connectable advertising may use."""
        if "interval-floor" in self.quirks:
            return round(int(self.quirks["interval-floor"]) / 0.625)
        # Before Core 5.0, 100 ms (Core 4.2 Vol 2 Part E §7.8.5); 5.0 lowered it to 20 ms.
        return 0x00A0 if self.hci_version < hci.HCI_VERSION_BLUETOOTH_CORE_5_0 else 0x0020

    def on_hci_le_read_maximum_advertising_data_length_command(self, _command):
        return hci.HCI_LE_Read_Maximum_Advertising_Data_Length_ReturnParameters(
            status=E.SUCCESS, max_advertising_data_length=self.max_data_length
        )

    def on_hci_le_read_transmit_power_command(self, command):
        if self.tx_power is None:
            return super().on_hci_le_read_transmit_power_command(command)
        return hci.HCI_LE_Read_Transmit_Power_ReturnParameters(
            status=E.SUCCESS, min_tx_power=self.tx_power[0], max_tx_power=self.tx_power[1]
        )

    def on_hci_read_local_version_information_command(self, command):
        self.lmp_version = self.hci_version
        return super().on_hci_read_local_version_information_command(command)

    # ------------------------------------------------------------------------------------------
    # Legacy advertising (§7.8.4–7.8.9)
    # ------------------------------------------------------------------------------------------
    def on_hci_le_set_random_address_command(self, command):
        # §7.8.4: disallowed while legacy advertising or scanning is enabled.
        if self.le_legacy_advertiser.enabled or self.le_scan_enable:
            return hci.HCI_StatusReturnParameters(E.COMMAND_DISALLOWED_ERROR)
        return super().on_hci_le_set_random_address_command(command)

    def on_hci_le_set_advertising_parameters_command(self, command):
        # Patch: Bumble stores any values and answers success.
        if self.le_legacy_advertiser.enabled:
            return hci.HCI_StatusReturnParameters(E.COMMAND_DISALLOWED_ERROR)
        t = command.advertising_type
        invalid = (
            t > LegacyType.ADV_DIRECT_IND_LOW_DUTY
            or command.own_address_type > 3
            or command.peer_address_type > 1
            or not 0 < command.advertising_channel_map <= 0x07
            or command.advertising_filter_policy > 3
        )
        if t != LegacyType.ADV_DIRECT_IND:  # high duty cycle directed ignores the interval
            lo, hi = command.advertising_interval_min, command.advertising_interval_max
            invalid = invalid or not (0x0020 <= lo <= hi <= 0x4000)
            # Before Core 5.0, scannable and non-connectable undirected advertising had a 100 ms
            # floor (Core 4.2 Vol 2 Part E §7.8.5); 5.0 lowered it to 20 ms like the other types.
            # A clone keeps it whatever it claims (quirk interval-floor).
            if t in (LegacyType.ADV_SCAN_IND, LegacyType.ADV_NONCONN_IND):
                invalid = invalid or lo < self._floor_units()
        if invalid:
            return hci.HCI_StatusReturnParameters(E.INVALID_COMMAND_PARAMETERS_ERROR)
        return super().on_hci_le_set_advertising_parameters_command(command)

    @staticmethod
    def _valid_legacy_data_command(command) -> bool:
        # The parameter is always 32 bytes: a length (≤ 31) and 31 significant-or-padding bytes.
        # Bumble parses a shorter or over-long one without complaint.
        p = bytes(command.parameters)
        return len(p) == 32 and p[0] <= 31

    def on_hci_le_set_advertising_data_command(self, command):
        if not self._valid_legacy_data_command(command):
            return hci.HCI_StatusReturnParameters(E.INVALID_COMMAND_PARAMETERS_ERROR)
        return super().on_hci_le_set_advertising_data_command(command)

    def on_hci_le_set_scan_response_data_command(self, command):
        if not self._valid_legacy_data_command(command):
            return hci.HCI_StatusReturnParameters(E.INVALID_COMMAND_PARAMETERS_ERROR)
        return super().on_hci_le_set_scan_response_data_command(command)

    def on_hci_le_set_advertising_enable_command(self, command):
        if command.advertising_enable > 1:
            return hci.HCI_StatusReturnParameters(E.INVALID_COMMAND_PARAMETERS_ERROR)
        adv = self.le_legacy_advertiser
        # §7.8.9: advertising from a random address that was never set is invalid.
        if command.advertising_enable and adv.own_address_type in (1, 3) and bytes(self.random_address) == bytes(6):
            return hci.HCI_StatusReturnParameters(E.INVALID_COMMAND_PARAMETERS_ERROR)
        return super().on_hci_le_set_advertising_enable_command(command)

    # ------------------------------------------------------------------------------------------
    # Extended advertising (§7.8.52–7.8.60)
    # ------------------------------------------------------------------------------------------
    def on_hci_le_set_advertising_set_random_address_command(self, command):
        # Patch: Bumble creates the set here; §7.8.52 says an unknown set is an error.
        if command.advertising_handle not in self.advertising_sets:
            return hci.HCI_StatusReturnParameters(E.UNKNOWN_ADVERTISING_IDENTIFIER_ERROR)
        return super().on_hci_le_set_advertising_set_random_address_command(command)

    def on_hci_le_set_extended_advertising_parameters_command(self, command):
        def fail(status: int):
            return hci.HCI_LE_Set_Extended_Advertising_Parameters_ReturnParameters(status=status, selected_tx_power=0)

        handle = command.advertising_handle
        props = command.advertising_event_properties
        if handle > MAX_ADVERTISING_HANDLE:
            return fail(E.INVALID_COMMAND_PARAMETERS_ERROR)
        existing = self.advertising_sets.get(handle)
        if existing is not None and existing.enabled:
            return fail(E.COMMAND_DISALLOWED_ERROR)
        if props & ExtProps.USE_LEGACY_ADVERTISING_PDUS:
            invalid = props not in LEGACY_EVENT_PROPERTIES
            if existing is not None and len(existing.data) > 31:
                invalid = True
        else:
            both = ExtProps.CONNECTABLE_ADVERTISING | ExtProps.SCANNABLE_ADVERTISING
            invalid = (props & both) == both or bool(
                props & ExtProps.HIGH_DUTY_CYCLE_DIRECTED_CONNECTABLE_ADVERTISING
            )
            invalid = invalid or command.secondary_advertising_phy not in (1, 2, 3)
        high_duty = bool(props & ExtProps.HIGH_DUTY_CYCLE_DIRECTED_CONNECTABLE_ADVERTISING)
        lo, hi = command.primary_advertising_interval_min, command.primary_advertising_interval_max
        invalid = (
            invalid
            or (not high_duty and not 0x20 <= lo <= hi)
            # A clone's floor (quirk interval-floor) holds for advertising nobody can connect to.
            or ("interval-floor" in self.quirks and not props & ExtProps.CONNECTABLE_ADVERTISING and lo < self._floor_units())
            or not 0 < command.primary_advertising_channel_map <= 0x07
            or command.own_address_type > 3
            or command.advertising_filter_policy > 3
            or command.primary_advertising_phy not in (1, 3)
            or command.advertising_sid > 0x0F
        )
        if invalid:
            return fail(E.INVALID_COMMAND_PARAMETERS_ERROR)
        if existing is None:
            if len(self.advertising_sets) >= self.max_sets:
                return fail(E.MEMORY_CAPACITY_EXCEEDED_ERROR)
            existing = self.advertising_sets[handle] = SpecAdvertisingSet(controller=self, handle=handle)
        existing.parameters = command
        power = command.advertising_tx_power
        selected = 0 if power == 0x7F else (power - 256 if power > 127 else power)
        return hci.HCI_LE_Set_Extended_Advertising_Parameters_ReturnParameters(
            status=E.SUCCESS, selected_tx_power=selected
        )

    def _is_legacy_set(self, handle: int) -> bool:
        s = self.advertising_sets.get(handle)
        return bool(s and s.parameters and s.parameters.advertising_event_properties & ExtProps.USE_LEGACY_ADVERTISING_PDUS)

    def on_hci_le_set_extended_advertising_data_command(self, command):
        Op = hci.HCI_LE_Set_Extended_Advertising_Data_Command.Operation
        if command.advertising_handle not in self.advertising_sets:
            return hci.HCI_StatusReturnParameters(E.UNKNOWN_ADVERTISING_IDENTIFIER_ERROR)
        if command.operation > Op.UNCHANGED_DATA or len(command.advertising_data) > 251:
            return hci.HCI_StatusReturnParameters(E.INVALID_COMMAND_PARAMETERS_ERROR)
        # §7.8.54: legacy-PDU sets take ≤ 31 bytes in one Complete operation.
        if self._is_legacy_set(command.advertising_handle) and (
            command.operation != Op.COMPLETE_DATA or len(command.advertising_data) > 31
        ):
            return hci.HCI_StatusReturnParameters(E.INVALID_COMMAND_PARAMETERS_ERROR)
        if command.operation == Op.UNCHANGED_DATA:
            return hci.HCI_StatusReturnParameters(E.SUCCESS)
        return super().on_hci_le_set_extended_advertising_data_command(command)

    def on_hci_le_set_extended_scan_response_data_command(self, command):
        if self._is_legacy_set(command.advertising_handle) and len(command.scan_response_data) > 31:
            return hci.HCI_StatusReturnParameters(E.INVALID_COMMAND_PARAMETERS_ERROR)
        return super().on_hci_le_set_extended_scan_response_data_command(command)

    def on_hci_le_set_extended_advertising_enable_command(self, command):
        # Patch: Bumble ignores unknown handles, enables sets with no address (its timer then dies
        # on an assert), and ignores Duration / Max_Extended_Advertising_Events.
        handles = list(command.advertising_handles)
        if command.enable > 1 or (command.enable and not handles) or len(handles) > self.max_sets:
            return hci.HCI_StatusReturnParameters(E.INVALID_COMMAND_PARAMETERS_ERROR)
        if any(h not in self.advertising_sets for h in handles):
            return hci.HCI_StatusReturnParameters(E.UNKNOWN_ADVERTISING_IDENTIFIER_ERROR)
        if command.enable:
            for h in handles:
                s = self.advertising_sets[h]
                if s.parameters is None or (s.parameters.own_address_type in (1, 3) and s.random_address is None):
                    return hci.HCI_StatusReturnParameters(E.INVALID_COMMAND_PARAMETERS_ERROR)
            for h, duration, events in zip(handles, command.durations, command.max_extended_advertising_events):
                s = self.advertising_sets[h]
                s.stop()
                s.max_events = events
                s.start()
                if duration:
                    # Duration is in 10 ms units (§7.8.56); at its end the set stops and the host
                    # hears LE Advertising Set Terminated with Advertising Timeout (0x3C).
                    s.duration_handle = asyncio.get_running_loop().call_later(duration / 100.0, self._advertising_timeout, s)
            return hci.HCI_StatusReturnParameters(E.SUCCESS)
        return super().on_hci_le_set_extended_advertising_enable_command(command)

    def advertising_delay(self) -> float:
        """One event's advDelay in seconds: 0 without --adv-delay."""
        return self._random.uniform(0.0, 0.010) if self.adv_delay else 0.0

    def end_set_after_events(self, advertising_set: AdvertisingSet) -> None:
        self._terminate(advertising_set, hci.HCI_SUCCESS, min(advertising_set.events_sent, 255))

    def _advertising_timeout(self, advertising_set: AdvertisingSet) -> None:
        advertising_set.duration_handle = None
        if not advertising_set.enabled or self.advertising_sets.get(advertising_set.handle) is not advertising_set:
            return
        self._terminate(advertising_set, E.ADVERTISING_TIMEOUT_ERROR, 0)

    def _terminate(self, advertising_set: AdvertisingSet, status: int, completed_events: int) -> None:
        """Stops the set and tells the host: LE Advertising Set Terminated (§7.7.65.18)."""
        advertising_set.stop()
        self.send_hci_packet(
            hci.HCI_LE_Advertising_Set_Terminated_Event(
                status=status,
                advertising_handle=advertising_set.handle,
                connection_handle=0,
                num_completed_extended_advertising_events=completed_events,
            )
        )
        self._check_sets_changed()

    def on_hci_le_remove_advertising_set_command(self, command):
        s = self.advertising_sets.get(command.advertising_handle)
        if s is None:
            return hci.HCI_StatusReturnParameters(E.UNKNOWN_ADVERTISING_IDENTIFIER_ERROR)
        if s.enabled:  # §7.8.59: an enabled set cannot be removed
            return hci.HCI_StatusReturnParameters(E.COMMAND_DISALLOWED_ERROR)
        return super().on_hci_le_remove_advertising_set_command(command)

    def on_hci_le_clear_advertising_sets_command(self, command):
        if any(s.enabled for s in self.advertising_sets.values()):  # §7.8.60
            return hci.HCI_StatusReturnParameters(E.COMMAND_DISALLOWED_ERROR)
        return super().on_hci_le_clear_advertising_sets_command(command)

    def on_hci_le_read_number_of_supported_advertising_sets_command(self, _command):
        return hci.HCI_LE_Read_Number_Of_Supported_Advertising_Sets_ReturnParameters(
            status=E.SUCCESS, num_supported_advertising_sets=self.max_sets
        )

    # ------------------------------------------------------------------------------------------
    # Scanning: which command family enabled it decides the report format.
    # ------------------------------------------------------------------------------------------
    def on_hci_le_set_scan_enable_command(self, command):
        result = super().on_hci_le_set_scan_enable_command(command)
        self.scan_mode = "legacy" if self.le_scan_enable else None
        self.reported.clear()
        return result

    def on_hci_le_set_extended_scan_parameters_command(self, command):
        result = super().on_hci_le_set_extended_scan_parameters_command(command)
        scan_types = getattr(command, "scan_types", None) or [0]
        self.extended_active_scan = bool(scan_types[0])
        return result

    def _active(self) -> bool:
        """Whether the scan now on is active (SCAN_REQ to scannable advertisers)."""
        if self.scan_mode == "legacy":
            return self.le_scan_type == 1
        return getattr(self, "extended_active_scan", False)

    def _report_scan_response(self, pdu, legacy_type) -> None:
        # An active scanner's SCAN_REQ to a scannable legacy advertiser gets its SCAN_RSP
        # (Core Vol 6 Part B §4.4.3.2), reported after the advertisement: legacy event type 0x04
        # (§7.7.65.2), extended 0x001A for a response to ADV_SCAN_IND, 0x001B to ADV_IND (§7.7.65.13).
        response = bytes(getattr(pdu, "scan_response", b"") or b"")
        if legacy_type not in (LegacyType.ADV_SCAN_IND, LegacyType.ADV_IND) or not self._active():
            return
        address: hci.Address = pdu.advertiser_address
        if self.scan_mode == "legacy":
            report = hci.HCI_LE_Advertising_Report_Event.Report(
                event_type=LegacyReportType.SCAN_RSP, address_type=address.address_type, address=address, data=response, rssi=-50)
            self.send_hci_packet(hci.HCI_LE_Advertising_Report_Event([report]))
            return
        report = hci.HCI_LE_Extended_Advertising_Report_Event.Report(
            event_type=0x001B if legacy_type == LegacyType.ADV_IND else 0x001A,
            address_type=address.address_type, address=address, primary_phy=1, secondary_phy=0, advertising_sid=0xFF,
            tx_power=0x7F, rssi=-50, periodic_advertising_interval=0, direct_address_type=0, direct_address=hci.Address.ANY,
            data=response)
        self.send_hci_packet(hci.HCI_LE_Extended_Advertising_Report_Event([report]))

    def on_hci_le_set_extended_scan_enable_command(self, command):
        result = super().on_hci_le_set_extended_scan_enable_command(command)
        self.scan_mode = "extended" if self.le_scan_enable else None
        self.reported.clear()
        return result

    def on_ll_advertising_pdu(self, packet: ll.AdvertisingPdu) -> None:
        if isinstance(packet, ll.ConnectInd):
            super().on_ll_advertising_pdu(packet)
        elif self.le_scan_enable:
            self._report(packet)

    def _report(self, pdu) -> None:
        # Patch: Bumble reports everything as connectable ADV_IND and follows it with an invented
        # SCAN_RSP carrying the same data. Here the report says what was sent, and an active scan
        # gets the advertiser's own scan response (`_report_scan_response`).
        legacy_type = legacy_pdu_type(pdu)
        data = bytes(getattr(pdu, "data", b""))
        address: hci.Address = pdu.advertiser_address
        if self.filter_duplicates:
            key = (bytes(address), address.address_type, data)
            if key in self.reported:
                return
            self.reported.add(key)
        if self.scan_mode == "legacy":
            if legacy_type is None:
                return  # legacy scanning cannot see extended advertising PDUs
            report = hci.HCI_LE_Advertising_Report_Event.Report(
                event_type=LEGACY_REPORT_EVENT[legacy_type],
                address_type=address.address_type,
                address=address,
                data=data,
                rssi=-50,
            )
            self.send_hci_packet(hci.HCI_LE_Advertising_Report_Event([report]))
            self._report_scan_response(pdu, legacy_type)
            return

        if legacy_type is not None:
            event_type = LEGACY_REPORT_PROPERTIES[legacy_type]
            sid, secondary_phy, tx_power = 0xFF, 0, 0x7F  # no ADI, no secondary channel
            primary_phy = 1
        else:
            props = getattr(pdu, "properties", 0)
            event_type = props & 0x07  # connectable, scannable, directed
            sid = pdu.sid
            primary_phy = getattr(pdu, "primary_phy", 1)
            secondary_phy = getattr(pdu, "secondary_phy", 1)
            tx_power = 0x7F if pdu.tx_power is None else pdu.tx_power & 0xFF
        direct = getattr(pdu, "target_address", None)
        chunks = [data[i : i + MAX_EXTENDED_REPORT_DATA] for i in range(0, len(data), MAX_EXTENDED_REPORT_DATA)] or [b""]
        for index, chunk in enumerate(chunks):
            more = index < len(chunks) - 1
            report = hci.HCI_LE_Extended_Advertising_Report_Event.Report(
                event_type=event_type | ((hci.HCI_LE_Extended_Advertising_Report_Event.DATA_INCOMPLETE_MORE_TO_COME << 5) if more else 0),
                address_type=address.address_type,
                address=address,
                primary_phy=primary_phy,
                secondary_phy=secondary_phy,
                advertising_sid=sid,
                tx_power=tx_power,
                rssi=-50,
                periodic_advertising_interval=0,
                direct_address_type=direct.address_type if direct else 0,
                direct_address=direct or hci.Address.ANY,
                data=chunk,
            )
            self.send_hci_packet(hci.HCI_LE_Extended_Advertising_Report_Event([report]))
        self._report_scan_response(pdu, legacy_type)
