#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A real Home Assistant judges the site's MQTT discovery (docs/SITE.md, "Checked by Home Assistant").

    ha_discovery.py BEACON [--hass PATH] [--keep]

Runs with the python3 of the Home Assistant virtual environment (`scripts/setup --tests` makes it,
Tests/Harness/ha-requirements.txt pins it; `scripts/setup --print-ha-venv-bin` names its bin), and:

1. starts a Mosquitto of its own on 127.0.0.1 (a free port, no anonymous access, a password file
   and the ACL of docs/SITE.md: the controller, one user per host, Home Assistant);
2. makes a Home Assistant configuration directory: http on 127.0.0.1, the API, the MQTT
   integration as a config entry (Home Assistant 2024.1 takes the broker only from a config entry;
   written as `.storage/core.config_entries`, which is what its config flow would store) and a
   user (`hass --script auth add`); starts `hass` without pip (`--skip-pip`: nothing is installed
   while the test runs), logs in through the login flow and makes a long-lived token over the
   WebSocket API;
3. runs `beacon site` and one `beacon agent` per host (two hosts, each one `-i virtual` radio, on
   a private virtual air) for a generated site of four beacons;
4. asks Home Assistant (WebSocket: the entity and device registries; REST: the states) for one
   `switch` per beacon on the site's device and one connectivity `binary_sensor` per radio on its
   host's device, available and on; switches one beacon off through Home Assistant
   (`switch.turn_off`) and sees its agent take it off air, the controller report it off, and Home
   Assistant's state turn off (and on again with `switch.turn_on`); kills one agent and sees its
   radio disconnected and the switch of the beacon no other radio reaches unavailable (the Last
   Will), the other host's entities untouched, the beacon that fails over available again on the
   same entity and device; kills the controller and sees every switch unavailable; and finds no
   warning in Home Assistant's log.

Every wait is for an event, polled, with a hang bound only. Everything started is stopped on exit
(also on SIGTERM/SIGINT). Exit status 0 when every check passed, 1 otherwise (the failures and the
logs are printed), 2 when something it needs is missing.
"""
import argparse
import asyncio
import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid as uuidlib

try:
    import aiohttp
    import paho.mqtt.client as mqtt
except ImportError as error:  # not the Home Assistant environment
    sys.exit(f"ha_discovery.py: {error}; run it with the Home Assistant environment's python3 "
             "(scripts/setup --tests makes it; scripts/setup --tests --print-ha-venv-bin names its bin)")

SITE = "lab"
PREFIX = "homeassistant"
UUID = "8B0C3B1E-6E2A-4C55-9B8F-3D1A2E4F5061"
# Two hosts 30 m apart, each one virtual radio; with max_distance 25 m the placement is unique.
RADIOS = [("pi-west", "virtual", 0), ("pi-east", "virtual", 30)]
MAX_DISTANCE = 25
# name, minor, x: door and desk only pi-west reaches, hall only pi-east; the stair both (pi-east
# nearer): when pi-east goes, the stair moves to pi-west and the hall has nowhere to go.
BEACONS = [("door", 1, 1), ("desk", 2, 3), ("hall", 3, 29), ("stair", 4, 20)]
HOST_OF = {"door": "pi-west", "desk": "pi-west", "hall": "pi-east", "stair": "pi-east"}

# Hang bounds only: a verdict never depends on them.
START_BOUND = 120      # Home Assistant up (it takes 5-20 s here)
EVENT_BOUND = 60       # any awaited change
STOP_BOUND = 10


def beacon_id(minor):
    return f"{UUID.lower()}-7-{minor}"


def object_id(*parts):
    """docs/SITE.md: beacon_<site>_<parts…>, anything outside [A-Za-z0-9_-] as `_`."""
    joined = "_".join(["beacon", SITE, *parts])
    return "".join(c if c.isascii() and (c.isalnum() or c in "_-") else "_" for c in joined)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Checks:
    def __init__(self):
        self.failures = []

    def expect(self, ok, what):
        print(("ok    " if ok else "FAIL  ") + what, flush=True)
        if not ok:
            self.failures.append(what)
        return ok


class Processes:
    """Processes started by this run, each in its own session, its output in a file."""

    def __init__(self, directory):
        self.directory = directory
        self.running = {}

    def start(self, name, argv, env=None):
        log = open(os.path.join(self.directory, f"{name}.log"), "wb")
        self.running[name] = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                              env={**os.environ, **(env or {})}, start_new_session=True)
        return self.running[name]

    def log(self, name):
        try:
            with open(os.path.join(self.directory, f"{name}.log"), errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def kill(self, name, sig=signal.SIGKILL):
        process = self.running[name]
        if process.poll() is None:
            os.killpg(process.pid, sig)
        try:
            process.wait(STOP_BOUND)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()

    def stop_all(self):
        for name, process in reversed(list(self.running.items())):
            if process.poll() is None:
                self.kill(name, signal.SIGTERM)


async def wait_for(what, probe, bound=EVENT_BOUND, interval=0.1):
    """The first truthy value of `probe()` (a coroutine function), or None after `bound` s (a hang bound)."""
    deadline = time.monotonic() + bound
    while True:
        value = await probe()
        if value:
            return value
        if time.monotonic() > deadline:
            print(f"      (gave up waiting for {what} after {bound} s)", flush=True)
            return None
        await asyncio.sleep(interval)


class TopicWatcher:
    """The last payload of every topic under `filters`, heard as `user`."""

    def __init__(self, port, user, password, filters):
        self.last = {}
        self.lock = threading.Lock()
        self.client = mqtt.Client(client_id=f"ha-check-{uuidlib.uuid4().hex[:6]}")
        self.client.username_pw_set(user, password)
        self.client.on_connect = lambda c, u, f, rc: [c.subscribe(t, 1) for t in filters]
        self.client.on_message = self._message
        self.client.connect("127.0.0.1", port, keepalive=10)
        self.client.loop_start()

    def _message(self, client, userdata, message):
        with self.lock:
            self.last[message.topic] = message.payload.decode(errors="replace")

    def payload(self, topic):
        with self.lock:
            return self.last.get(topic)

    def stop(self):
        self.client.loop_stop()
        self.client.disconnect()


def write_broker(directory, users):
    """Mosquitto's configuration, password file and ACL, as Tests/Support/TestSupport/MosquittoBroker.swift writes them."""
    passwd = os.path.join(directory, "passwords")
    for index, (user, password, _) in enumerate(users):
        subprocess.run(["mosquitto_passwd"] + (["-c"] if index == 0 else []) + ["-b", passwd, user, password],
                       check=True, capture_output=True, timeout=30)
    acl = os.path.join(directory, "acl")
    with open(acl, "w") as f:
        f.write("\n\n".join("\n".join([f"user {user}"] + lines) for user, _, lines in users) + "\n")
    port = free_port()
    conf = os.path.join(directory, "mosquitto.conf")
    with open(conf, "w") as f:
        f.write("\n".join([
            "# Generated by Tests/Harness/ha_discovery.py: one loopback listener, no anonymous access.",
            "per_listener_settings false", "allow_anonymous false", f"password_file {passwd}", f"acl_file {acl}",
            "persistence false", f"user {pwd.getpwuid(os.geteuid()).pw_name}", "log_dest stderr", "log_type error", "log_type warning", "log_type notice",
            f"listener {port} 127.0.0.1", ""]))
    return conf, port


def write_home_assistant(directory, http_port, broker_port, password):
    os.makedirs(os.path.join(directory, ".storage"))
    with open(os.path.join(directory, "configuration.yaml"), "w") as f:
        f.write(f"""# Generated by Tests/Harness/ha_discovery.py: only what the check needs (no default_config).
homeassistant:
  name: beacon check
  latitude: 0
  longitude: 0
  elevation: 0
  unit_system: metric
  time_zone: UTC
  currency: EUR
  country: DE
  language: en
http:
  server_host: 127.0.0.1
  server_port: {http_port}
auth:
api:
websocket_api:
config:
logger:
  default: warning
""")
    # The MQTT integration's config entry, as its config flow (version 1) stores it.
    entry = {
        "entry_id": uuidlib.uuid4().hex, "version": 1, "minor_version": 1, "domain": "mqtt", "title": "127.0.0.1",
        "data": {"broker": "127.0.0.1", "port": broker_port, "username": "homeassistant", "password": password,
                 "discovery": True, "discovery_prefix": PREFIX},
        "options": {}, "pref_disable_new_entities": False, "pref_disable_polling": False, "source": "user",
        "unique_id": None, "disabled_by": None,
    }
    with open(os.path.join(directory, ".storage", "core.config_entries"), "w") as f:
        json.dump({"version": 1, "minor_version": 1, "key": "core.config_entries", "data": {"entries": [entry]}}, f)


def write_site(directory, broker_port):
    radios = "\n".join(f"  - {{host: {h}, adapter: {a}, position: {{x: {x}, y: 0}}}}" for h, a, x in RADIOS)
    beacons = "\n".join(f"  - {{name: {n}, uuid: {UUID}, major: 7, minor: {m}, position: {{x: {x}, y: 0}}}}"
                        for n, m, x in BEACONS)
    path = os.path.join(directory, "site.yaml")
    with open(path, "w") as f:
        f.write(f"name: {SITE}\nbroker: {{url: \"mqtt://127.0.0.1:{broker_port}\"}}\nmax_distance: {MAX_DISTANCE}\n"
                f"discovery_prefix: {PREFIX}\nradios:\n{radios}\nbeacons:\n{beacons}\n")
    return path


class HomeAssistant:
    """Home Assistant's REST and WebSocket APIs with a token."""

    def __init__(self, session, port):
        self.session, self.base, self.token, self.message_id = session, f"http://127.0.0.1:{port}", None, 0

    async def login(self, user, password):
        """The login flow (what the frontend does), then a long-lived token made over the WebSocket API."""
        client_id = f"{self.base}/"
        async with self.session.post(f"{self.base}/auth/login_flow", json={
                "client_id": client_id, "handler": ["homeassistant", None], "redirect_uri": client_id}) as r:
            flow = await r.json()
        async with self.session.post(f"{self.base}/auth/login_flow/{flow['flow_id']}", json={
                "client_id": client_id, "username": user, "password": password}) as r:
            result = await r.json()
        async with self.session.post(f"{self.base}/auth/token", data={
                "grant_type": "authorization_code", "code": result["result"], "client_id": client_id}) as r:
            self.token = (await r.json())["access_token"]
        long_lived = await self.ws({"type": "auth/long_lived_access_token", "client_name": "beacon check", "lifespan": 1})
        self.token = long_lived

    async def ws(self, *commands):
        """Sends each command on one WebSocket connection; their results, in order (raises on an error)."""
        async with self.session.ws_connect(f"{self.base}/api/websocket") as socket_:
            await socket_.receive_json()  # auth_required
            await socket_.send_json({"type": "auth", "access_token": self.token})
            answer = await socket_.receive_json()
            if answer.get("type") != "auth_ok":
                raise RuntimeError(f"WebSocket authentication: {answer}")
            results = []
            for command in commands:
                self.message_id += 1
                await socket_.send_json({"id": self.message_id, **command})
                while True:
                    reply = await socket_.receive_json()
                    if reply.get("id") == self.message_id and reply.get("type") == "result":
                        break
                if not reply.get("success"):
                    raise RuntimeError(f"{command['type']}: {reply.get('error')}")
                results.append(reply["result"])
            return results[0] if len(results) == 1 else results

    async def get(self, path):
        async with self.session.get(f"{self.base}{path}", headers={"Authorization": f"Bearer {self.token}"}) as r:
            return r.status, await r.json() if r.content_type == "application/json" else await r.text()

    async def post(self, path, body):
        async with self.session.post(f"{self.base}{path}", json=body, headers={"Authorization": f"Bearer {self.token}"}) as r:
            return r.status, await r.json() if r.content_type == "application/json" else await r.text()

    async def states(self):
        status, states = await self.get("/api/states")
        return {s["entity_id"]: s for s in states} if status == 200 else {}

    async def mqtt_entities(self):
        """unique_id → (entity registry entry, its device registry entry) for every MQTT entity."""
        entities, devices = await self.ws({"type": "config/entity_registry/list"}, {"type": "config/device_registry/list"})
        by_id = {d["id"]: d for d in devices}
        return {e["unique_id"]: (e, by_id.get(e["device_id"])) for e in entities if e["platform"] == "mqtt"}


async def check(arguments, work, processes, checks):
    timings = {}
    began = time.monotonic()
    secret = uuidlib.uuid4().hex
    users = [
        ("site-controller", f"c-{secret}", ["topic readwrite beacon/#", f"topic readwrite {PREFIX}/#"]),
        ("homeassistant", f"h-{secret}", ["topic read beacon/#", "topic write beacon/+/beacons/+/set", f"topic readwrite {PREFIX}/#"]),
    ] + [(host, f"{host}-{secret}", [f"topic read beacon/{SITE}/hosts/{host}/+/desired"] +
          [f"topic write beacon/{SITE}/hosts/{host}/{t}" for t in ("status", "radios", "telemetry", "+/state")])
         for host, _, _ in RADIOS]
    password = {user: pw for user, pw, _ in users}
    broker_dir = os.path.join(work, "mosquitto")
    os.makedirs(broker_dir)
    conf, broker_port = write_broker(broker_dir, users)
    processes.start("mosquitto", ["/usr/sbin/mosquitto", "-c", conf])

    async def broker_listens():
        try:
            socket.create_connection(("127.0.0.1", broker_port), timeout=1).close()
            return True
        except OSError:
            return processes.running["mosquitto"].poll() is not None and None
    if not checks.expect(await wait_for("mosquitto", broker_listens, bound=15) and processes.running["mosquitto"].poll() is None,
                         f"mosquitto listens on 127.0.0.1:{broker_port}"):
        return timings

    ha_dir = os.path.join(work, "homeassistant")
    http_port = free_port()
    write_home_assistant(ha_dir, http_port, broker_port, password["homeassistant"])
    hass = arguments.hass
    added = subprocess.run([hass, "--script", "auth", "-c", ha_dir, "add", "beacon-check", f"p-{secret}"],
                           capture_output=True, text=True, timeout=START_BOUND)
    if not checks.expect(added.returncode == 0, "hass --script auth add: a user for the check"):
        print(added.stdout + added.stderr)
        return timings

    # The site: the controller and both agents, while Home Assistant starts.
    site_file = write_site(work, broker_port)
    air = os.path.join(work, "air")
    os.makedirs(air, mode=0o700)

    def start_beacon(name, argv, user):
        return processes.start(name, [arguments.beacon] + argv, env={
            "BEACON_AIR": air, "BEACON_MQTT_USERNAME": user, "BEACON_MQTT_PASSWORD": password[user]})
    start_beacon("site", ["site", site_file, "--json"], "site-controller")
    for host, _, _ in RADIOS:
        start_beacon(f"agent-{host}", ["agent", "--site", site_file, "--host", host, "--json"], host)
    watcher = TopicWatcher(broker_port, "site-controller", password["site-controller"], [f"beacon/{SITE}/#"])

    ha_started = time.monotonic()
    processes.start("hass", [hass, "-c", ha_dir, "--skip-pip", "--log-file", os.path.join(ha_dir, "ha.log")])
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30)) as session:
        ha = HomeAssistant(session, http_port)

        async def api_up():
            if processes.running["hass"].poll() is not None:
                return "exited"
            try:
                async with session.get(f"{ha.base}/auth/providers") as r:
                    return r.status == 200  # http and auth are up: the login flow can start
            except aiohttp.ClientError:
                return False
        up = await wait_for("Home Assistant's API", api_up, bound=START_BOUND, interval=0.25)
        if not checks.expect(up is True, f"Home Assistant {arguments.version} answers on 127.0.0.1:{http_port}"):
            return timings
        await ha.login("beacon-check", f"p-{secret}")
        status, text = await ha.get("/api/")
        checks.expect(status == 200, f"a long-lived token made over the WebSocket API opens the REST API ({status} {text})")

        # Discovery: every entity the docs promise, registered on its host's device, on and available.
        switches = {object_id(beacon_id(m)): (n, HOST_OF[n]) for n, m, _ in BEACONS}
        sensors = {object_id(h, a): (a, h) for h, a, _ in RADIOS}

        async def all_on():
            entities = await ha.mqtt_entities()
            if not set(switches) | set(sensors) <= set(entities):
                return None
            states = await ha.states()
            ready = all(states.get(entities[u][0]["entity_id"], {}).get("state") == "on" for u in list(switches) + list(sensors))
            return (entities, states) if ready else None
        found = await wait_for("every entity discovered and on", all_on)
        timings["home_assistant_ready"] = time.monotonic() - ha_started
        entities = await ha.mqtt_entities()
        states = await ha.states()
        checks.expect(set(entities) == set(switches) | set(sensors),
                      f"Home Assistant has exactly the MQTT entities of docs/SITE.md: {sorted(switches)} (switches) and "
                      f"{sorted(sensors)} (binary sensors); it has {sorted(entities)}")
        if not found:
            for unique_id, (entry, _) in entities.items():
                print(f"      {unique_id}: {states.get(entry['entity_id'])}")
            return timings
        entity_of = {u: entities[u][0]["entity_id"] for u in entities}
        for unique_id, (name, host) in switches.items():
            entry, device = entities[unique_id]
            state = states[entry["entity_id"]]
            checks.expect(entry["entity_id"].startswith("switch."), f"{name}: a switch ({entry['entity_id']})")
            checks.expect(device is not None and device["identifiers"] == [["mqtt", object_id()]]
                          and device["name"] == f"{SITE} beacons" and device["manufacturer"] == "beacon"
                          and device["model"] == "beacon site",
                          f"{name}: on the site's device '{SITE} beacons' (identifiers {device and device['identifiers']})")
            checks.expect(state["state"] == "on", f"{name}: on (on air), state {state['state']}")
            checks.expect(state["attributes"].get("friendly_name") == f"{SITE} beacons {name}"
                          and state["attributes"].get("icon") == "mdi:bluetooth-audio",
                          f"{name}: named '{SITE} beacons {name}' with its icon ({state['attributes']})")
        for unique_id, (adapter, host) in sensors.items():
            entry, device = entities[unique_id]
            state = states[entry["entity_id"]]
            checks.expect(entry["entity_id"].startswith("binary_sensor."), f"{host}/{adapter}: a binary sensor ({entry['entity_id']})")
            checks.expect(device is not None and device["identifiers"] == [["mqtt", object_id(host)]]
                          and device["name"] == f"{SITE} {host}" and device["model"] == "beacon agent",
                          f"{host}/{adapter}: on its host's device '{SITE} {host}'")
            checks.expect(state["attributes"].get("device_class") == "connectivity" and entry.get("entity_category") == "diagnostic",
                          f"{host}/{adapter}: connectivity, diagnostic ({state['attributes']}, {entry.get('entity_category')})")
            checks.expect(state["state"] == "on", f"{host}/{adapter}: connected, state {state['state']}")
        checks.expect(len({entities[u][1]["id"] for u in entities if entities[u][1]}) == len(RADIOS) + 1,
                      "one device per host and the site's")

        # A beacon switched off through Home Assistant goes off air.
        door, desk, hall, stair = (object_id(beacon_id(m)) for _, m, _ in BEACONS)
        switched_at = time.monotonic()
        status, _ = await ha.post("/api/services/switch/turn_off", {"entity_id": entity_of[door]})
        checks.expect(status == 200, f"switch.turn_off {entity_of[door]} (HTTP {status})")
        door_id = beacon_id(1)

        async def agent_took_it_off():
            text = watcher.payload(f"beacon/{SITE}/hosts/pi-west/virtual/state")
            beacons = json.loads(text).get("beacons", []) if text else []
            listed = {b["id"]: b["state"] for b in beacons}
            return door_id in listed and listed[door_id] != "on_air" or (bool(listed) and door_id not in listed)
        checks.expect(await wait_for("pi-west's agent to take the door off air", agent_took_it_off),
                      "pi-west's agent reports the door off air (its state topic)")

        async def site_reports_off():
            return any(e.get("event") == "beacon" and e.get("id") == door_id and e.get("on_air") is False
                       for e in events(processes.log("site")))
        checks.expect(await wait_for("the controller's off event", site_reports_off), "beacon site reports the door off air")

        async def ha_door_off():
            return (await ha.states()).get(entity_of[door], {}).get("state") == "off"
        checks.expect(await wait_for("Home Assistant's door switch off", ha_door_off), "Home Assistant's door switch is off")
        timings["switch_off_seen"] = time.monotonic() - switched_at
        states = await ha.states()
        checks.expect(states[entity_of[desk]]["state"] == "on" and watcher.payload(f"beacon/{SITE}/beacons/{beacon_id(2)}/state") == "ON",
                      "the desk stays on air")

        # …and back on air with switch.turn_on, then off again for the rest of the check.
        async def door_on_air_and_on():
            text = watcher.payload(f"beacon/{SITE}/hosts/pi-west/virtual/state")
            on_air = text and any(b["id"] == door_id and b["state"] == "on_air" for b in json.loads(text).get("beacons", []))
            return on_air and (await ha.states()).get(entity_of[door], {}).get("state") == "on"
        status, _ = await ha.post("/api/services/switch/turn_on", {"entity_id": entity_of[door]})
        checks.expect(status == 200 and await wait_for("the door on air again", door_on_air_and_on),
                      "switch.turn_on: pi-west's agent puts the door on air again, Home Assistant's switch on")
        status, _ = await ha.post("/api/services/switch/turn_off", {"entity_id": entity_of[door]})
        checks.expect(status == 200 and await wait_for("the door off again", ha_door_off) and await agent_took_it_off(),
                      "switch.turn_off again: off air, switch off")

        # An agent killed: its Last Will makes its radio disconnected and the switch of the beacon
        # no other radio reaches unavailable; the stair moves to pi-west's radio, its switch stays
        # on (available again on pi-west's status) and on the site's device.
        killed_at = time.monotonic()
        processes.kill("agent-pi-east")
        east_sensor, west_sensor = entity_of[sensors_of("pi-east")], entity_of[sensors_of("pi-west")]

        stair_id = beacon_id(4)

        async def stair_on_west():
            text = watcher.payload(f"beacon/{SITE}/hosts/pi-west/virtual/state")
            return text and any(b["id"] == stair_id and b["state"] == "on_air" for b in json.loads(text).get("beacons", []))

        async def east_gone():
            s = await ha.states()
            return (s.get(entity_of[hall], {}).get("state") == "unavailable" and s.get(east_sensor, {}).get("state") == "off"
                    and await stair_on_west())
        checks.expect(await wait_for("pi-east's entities unavailable / disconnected, the stair on pi-west", east_gone),
                      "pi-east killed: the hall's switch unavailable and pi-east's connectivity off (the Last Will); "
                      "pi-west's agent carries the stair (failover)")

        async def stair_available():
            return (await ha.states()).get(entity_of[stair], {}).get("state") == "on"
        checks.expect(await wait_for("the stair's switch on again", stair_available),
                      "the stair's switch is on again (available on pi-west's status)")
        timings["last_will_and_failover_seen"] = time.monotonic() - killed_at
        states = await ha.states()
        checks.expect(states[entity_of[desk]]["state"] == "on" and states[entity_of[door]]["state"] == "off"
                      and states[west_sensor]["state"] == "on",
                      "pi-west's entities are untouched (desk on, door off, radio connected)")
        entities = await ha.mqtt_entities()
        checks.expect(entities[stair][1]["identifiers"] == [["mqtt", object_id()]]
                      and states[entity_of[stair]]["attributes"].get("friendly_name") == f"{SITE} beacons stair",
                      f"the stair is still on the site's device ({entities[stair][1]['name']}, "
                      f"{states[entity_of[stair]]['attributes'].get('friendly_name')})")

        # The controller killed: its Last Will makes every switch unavailable; the radios' connectivity
        # follows the hosts alone.
        processes.kill("site")

        async def all_switches_gone():
            s = await ha.states()
            return all(s.get(entity_of[u], {}).get("state") == "unavailable" for u in switches) and s.get(west_sensor, {}).get("state") == "on"
        checks.expect(await wait_for("every switch unavailable", all_switches_gone),
                      "the controller killed: every switch unavailable, pi-west still connected")
    watcher.stop()

    # Home Assistant said nothing about our payloads: no warning or error in its log but the two
    # this set-up causes (no pip; the MQTT integration sets up every platform it has, and the
    # camera's needs numpy and PyTurboJPEG, which the pinned environment leaves out).
    expected = ("Skipping pip installation of required modules", "Setup failed for 'camera'")
    with open(os.path.join(ha_dir, "ha.log"), errors="replace") as f:
        complaints = [line.rstrip() for line in f if (" WARNING " in line or " ERROR " in line)
                      and not any(e in line for e in expected)]
    checks.expect(not complaints, "no warning or error in Home Assistant's log (but no pip and no camera)" +
                  "".join(f"\n      {line}" for line in complaints))
    timings["total"] = time.monotonic() - began
    return timings


def sensors_of(host):
    return object_id(host, next(a for h, a, _ in RADIOS if h == host))


def events(text):
    out = []
    for line in text.splitlines():
        try:
            out.append(json.loads(line))
        except ValueError:
            pass
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("beacon", help="the built beacon binary")
    parser.add_argument("--hass", default=os.path.join(os.path.dirname(sys.executable), "hass"),
                        help="Home Assistant's hass (default: next to this python3)")
    parser.add_argument("--keep", action="store_true", help="keep the work directory (its path is printed)")
    arguments = parser.parse_args()
    for needed, install in ((arguments.beacon, "swift build"), (arguments.hass, "scripts/setup --tests"),
                            ("/usr/sbin/mosquitto", "apt-get install mosquitto")):
        if not (os.path.isfile(needed) and os.access(needed, os.X_OK)):
            print(f"ha_discovery.py: {needed} is missing ({install}); this check cannot run without it", file=sys.stderr)
            return 2
    if shutil.which("mosquitto_passwd") is None:
        print("ha_discovery.py: mosquitto_passwd is missing (apt-get install mosquitto)", file=sys.stderr)
        return 2
    from importlib.metadata import version
    arguments.version = version("homeassistant")

    work = tempfile.mkdtemp(prefix="beacon-ha-")
    processes = Processes(work)
    checks = Checks()
    # SIGTERM (scripts/test's timeout) ends the run through the same clean-up as the end.
    def stopped(number, frame):
        checks.expect(False, f"stopped by {signal.Signals(number).name} before the check ended")
        sys.exit(1)
    signal.signal(signal.SIGTERM, stopped)
    timings = {}
    try:
        timings = asyncio.run(check(arguments, work, processes, checks))
    except Exception as error:  # noqa: BLE001 - any failure is the check's failure, with the logs
        checks.expect(False, f"the check itself failed: {type(error).__name__}: {error}")
    finally:
        processes.stop_all()
        if checks.failures:
            for name in processes.running:
                print(f"----- {name}.log (last 40 lines)")
                print("\n".join(processes.log(name).splitlines()[-40:]))
            ha_log = os.path.join(work, "homeassistant", "ha.log")
            if os.path.exists(ha_log):
                with open(ha_log, errors="replace") as f:
                    print("----- homeassistant/ha.log (last 60 lines)\n" + "".join(f.readlines()[-60:]))
        if arguments.keep:
            print(f"work directory kept: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    print("timings (s): " + ", ".join(f"{k} {v:.1f}" for k, v in timings.items()))
    print(f"Home Assistant {arguments.version}: {'FAILED: ' + str(len(checks.failures)) + ' check(s)' if checks.failures else 'every check passed'}")
    return 1 if checks.failures else 0


if __name__ == "__main__":
    sys.exit(main())
