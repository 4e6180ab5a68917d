#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The checks of the real-kernel test, run inside the QEMU guest by scripts/kernel-test (as root,
# on the host's own root file system; see guest-init.sh). The environment gives BEACON (the beacon
# binary), REPO (this repository), KT (scripts/kernel), PY (/usr/bin/python3), RESULTS (the
# results share) and GUEST_TEST (this file).
#
# The setting: btvirt (bluez-test-tools) makes two emulated LE controllers, hci0 and hci1, that
# hear each other. hci0 sends, hci1 receives: hci_scan.py scans on hci1 through a raw HCI socket
# and match_reports.py compares what arrived with the profile, byte for byte, without trusting
# beacon's encoder. Facts about btvirt (BlueZ 5.66 emulator/btdev.c) the checks rely on:
#   - HCI 5.0, extended advertising with 3 sets (a 4th set: Memory Capacity Exceeded, 0x07);
#   - it reports an advertisement once per enable, not at every interval, so the receiver must be
#     scanning before the sender enables;
#   - LE Set Advertising Enable with the state it already has answers Command Disallowed (0x0C)
#     (the spec says disabling when disabled "has no effect");
#   - it does not enforce the rule against mixing legacy and extended advertising commands, but
#     enabling an extended set marks legacy advertising as on (legacy Set Random Address,
#     Parameters and Enable then answer 0x0C) until all sets are disabled at once;
#   - a LEGACY scanner hears every kind of sender: legacy advertising as LE Advertising Reports,
#     extended sets (legacy or extended PDUs) as LE Extended Advertising Reports when they are
#     enabled; an EXTENDED scanner hears extended sets (also re-reported when scanning starts);
#   - btmon 5.66 mis-decodes iBeacon fields: never take its decoding as a verdict.
#
# TO ADD A CHECK: write `check_NAME() { …; }` below (return 0 to pass; call `why "…"` before
# failing) and add NAME to CHECKS at the bottom, in order. The helpers are in guest-lib.sh.
# Checks of beacon commands still being written call `need_subcommand CMD` first, so they FAIL
# (never pass) until the command exists, and start passing as it lands.

# shellcheck source=guest-lib.sh
. "$KT/guest-lib.sh"
cd "$REPO" || exit 1

BM1=profiles/bm1.yaml
ROOM=profiles/room-2m.yaml
# How long a receiver may listen at most; each stops early once its sender is done.
LISTEN=90

# --- the kernel and the emulated controllers -------------------------------------------------

check_modules_load() {
    # btvirt needs AF_ALG (its LE crypto goes through the kernel's) and /dev/vhci.
    show modprobe -a bluetooth hci_vhci af_alg algif_hash algif_skcipher || { why "modprobe failed: $OUT"; return 1; }
    local m
    for m in bluetooth hci_vhci af_alg algif_hash algif_skcipher; do
        [ -d "/sys/module/$m" ] || { why "module $m is not loaded"; return 1; }
    done
    [ -c /dev/vhci ] || { why "/dev/vhci does not exist"; return 1; }
}

check_btvirt_makes_hci0_and_hci1() {
    # On a very busy host the kernel's own setup of a new controller can time out (dmesg:
    # "hci0: Opcode 0x0c03 failed: -110", its HCI Reset unanswered in time by btvirt, a user
    # process starved under emulation). The device then exists and comes up, but the management
    # API never lists it (Invalid Index), and every later check fails for that reason alone. That
    # is detected, not waited out: btvirt is stopped and started again, at most 3 times.
    local attempt
    for attempt in 1 2 3; do
        btvirt_start || return 1
        if btmgmt_lists hci0 0 && btmgmt_lists hci1 1; then
            show hciconfig
            return 0
        fi
        echo "  attempt $attempt: the kernel's setup of a controller failed; dmesg says:"
        dmesg | grep -E 'hci[01]: ' | tail -3 | sed 's/^/    /'
        btvirt_stop || return 1
    done
    why "the management API does not list hci0 and hci1 after 3 starts of btvirt (the kernel's controller setup failed each time)"
    return 1
}

BTVIRT_PID="$STATE/btvirt.pid"

btvirt_start() {
    rm -f "$BTVIRT_PID"
    setsid -f sh -c 'echo $$ >"$1"; exec btvirt -l2 >"$2" 2>&1' sh "$BTVIRT_PID" "$STATE/btvirt.log" </dev/null
    if ! wait_for 20 '[ -e /sys/class/bluetooth/hci0 ] && [ -e /sys/class/bluetooth/hci1 ]'; then
        sed 's/^/    /' "$STATE/btvirt.log"
        why "btvirt -l2 did not make hci0 and hci1 within 20 s (found: $(ls /sys/class/bluetooth 2>/dev/null | xargs))"
        return 1
    fi
    # The kernel runs its own init sequence on a new controller before it can be brought up.
    wait_for 20 'adapter_up hci0 2>/dev/null' || { why "hciconfig hci0 up failed"; return 1; }
    wait_for 20 'adapter_up hci1 2>/dev/null' || { why "hciconfig hci1 up failed"; return 1; }
}

btvirt_stop() {
    local pid
    pid=$(cat "$BTVIRT_PID" 2>/dev/null) && [ -n "$pid" ] || { why "btvirt's pid is unknown"; return 1; }
    kill "$pid"
    wait_for 20 '[ ! -e /sys/class/bluetooth/hci0 ] && [ ! -e /sys/class/bluetooth/hci1 ]' \
        || { why "hci0 and hci1 did not go away when btvirt (pid $pid) was stopped"; return 1; }
}

# Whether the management API lists adapter $1 (index $2): Read Controller Information answers.
btmgmt_lists() { btmgmt --index "$2" info 2>&1 | grep -q 'current settings'; }

check_controller_is_le_5_0_with_3_sets() {
    show hciconfig hci0 version
    printf '%s\n' "$OUT" | grep -q 'HCI Version: 5.0' || { why "hci0 is not HCI 5.0"; return 1; }
    # LE Read Number of Supported Advertising Sets (OGF 0x08, OCF 0x003B).
    hci_cmd 0 0x08 0x003B || { why "LE Read Number of Supported Advertising Sets got no answer"; return 1; }
    [ "$HCI_STATUS" = 0x00 ] && [ "$HCI_RETURN" = 03 ] \
        || { why "LE Read Number of Supported Advertising Sets: status $HCI_STATUS, sets 0x$HCI_RETURN (expected 0x00, 03)"; return 1; }
}

# --- beacon in the guest ---------------------------------------------------------------------

check_beacon_runs_in_guest() {
    # The Swift runtime and libbluetooth must load in the guest as they do on the host.
    show "$BEACON" --version || { why "beacon --version failed"; return 1; }
    show "$BEACON" encode "$BM1" || { why "beacon encode $BM1 failed"; return 1; }
    [[ "$OUT" =~ ^[0-9A-F]{60}$ ]] || { why "beacon encode printed '$OUT', not 30 bytes of hex"; return 1; }
}

# --- the air path, proven without beacon's radio code -----------------------------------------

check_hcitool_recipe_received_on_hci1() {
    # The classic recipe beacon prints (encode --format hcitool), sent with BlueZ's hcitool.
    scan_start recipe 1 legacy "$LISTEN" || return 1
    send_hcitool_recipe hci0 "$BM1" || { scan_stop recipe; return 1; }
    scan_stop recipe || return 1
    hcitool -i hci0 cmd 0x08 0x000a 00 >/dev/null
    expect_received recipe "$BM1" --event le_advertising_report
}

check_receiver_rejects_other_profile() {
    # The comparison must be able to fail: what hci0 sent is not room-2m's beacons.
    if py "$KT/match_reports.py" --beacon "$BEACON" --profile "$ROOM" --reports "$STATE/recipe.jsonl" \
        >"$STATE/negative.log" 2>&1; then
        sed 's/^/    /' "$STATE/negative.log"
        why "match_reports.py accepted room-2m's beacons from reports that carry bm1's"
        return 1
    fi
    grep -q MISSING "$STATE/negative.log" || { sed 's/^/    /' "$STATE/negative.log"; why "match_reports.py failed for another reason"; return 1; }
    echo "  match_reports.py rejects them, as it must"
}

check_extended_set_received_on_hci1() {
    # An extended advertising set (ADV_EXT_IND) with bm1's bytes, sent by hci_ext_adv.py, under
    # extended scanning: proves the receiver's extended path before beacon's is judged with it.
    local address data
    address=$("$BEACON" list --json "$BM1" | sed -n 's/.*"address":"\([0-9A-F:]*\)".*/\1/p')
    data=$("$BEACON" encode "$BM1")
    scan_start extended 1 extended "$LISTEN" || return 1
    show py "$KT/hci_ext_adv.py" --dev 0 --handle 0 --address "$address" --data "$data" \
        || { scan_stop extended; why "hci_ext_adv.py could not advertise: $OUT"; return 1; }
    scan_stop extended || return 1
    # While set 0 exists, only 2 of the 3 sets are free: proves the count stop_leaves_no_sets uses.
    show py "$KT/hci_cmd.py" --dev 0 --free-sets 3
    local free=$OUT
    show py "$KT/hci_ext_adv.py" --dev 0 --handle 0 --remove
    expect_received extended "$BM1" --event le_extended_advertising_report || return 1
    [[ $free == *"free sets: 2 "* ]] || { why "with one set in use, hci_cmd.py --free-sets counted: $free"; return 1; }
}

# --- beacon on the kernel's Bluetooth stack --------------------------------------------------

# Judge `beacon doctor --json` output ($1) with the Python expression $2 over `report` (the object).
doctor_says() {
    py - "$1" "$2" <<'EOF'
import json, sys
report = json.loads(sys.argv[1])
sys.exit(0 if eval(sys.argv[2], {"report": report}) else 1)
EOF
}

check_doctor_reports_emulated_controller() {
    need_subcommand doctor || return 1
    show "$BEACON" doctor -i hci0 --json || { why "beacon doctor -i hci0 --json exited $STATUS"; return 1; }
    local json=$OUT
    # btvirt: HCI 5.0, extended advertising with 3 sets, manufacturer 1521 (The Linux Foundation,
    # as hciconfig shows it).
    doctor_says "$json" 'report["adapters"][0]["adapter"] == "hci0" and report["adapters"][0]["error"] is None' \
        || { why "doctor did not report hci0 without error"; return 1; }
    doctor_says "$json" '"5.0" in report["adapters"][0]["hci_version"]' || { why "doctor does not report HCI 5.0"; return 1; }
    doctor_says "$json" 'report["adapters"][0]["extended_advertising_usable"] is True' \
        || { why "doctor does not report usable extended advertising"; return 1; }
    doctor_says "$json" 'report["adapters"][0]["advertising_sets"] == 3' || { why "doctor does not report 3 advertising sets"; return 1; }
    doctor_says "$json" 'report["adapters"][0]["manufacturer"] == 1521' || { why "doctor does not report manufacturer 1521"; return 1; }
    doctor_says "$json" 'report["host"]["bluetoothd_pids"] == []' || { why "doctor reports a bluetoothd that is not running"; return 1; }
    # And the text report works too.
    show "$BEACON" doctor -i hci0 || { why "beacon doctor -i hci0 exited $STATUS"; return 1; }
}

# The system calls themselves: beacon opens a raw AF_BLUETOOTH/BTPROTO_HCI socket and binds it
# to hci0 (strace shows what the kernel was asked, independently of beacon's own words).
check_beacon_opens_af_bluetooth_socket() {
    command -v strace >/dev/null || { why "strace is not installed (apt-get install strace)"; return 1; }
    show strace -f -e trace=socket,bind,setsockopt "$BEACON" doctor -i hci0 \
        || { why "strace beacon doctor -i hci0 exited $STATUS"; return 1; }
    [[ $OUT == *"socket(AF_BLUETOOTH, SOCK_RAW|SOCK_CLOEXEC, BTPROTO_HCI)"* ]] \
        || { why "no socket(AF_BLUETOOTH, SOCK_RAW, BTPROTO_HCI) call"; return 1; }
    [[ $OUT == *"bind("*"sa_family=AF_BLUETOOTH"*"hci_dev=0"* ]] || [[ $OUT == *"bind("*"AF_BLUETOOTH"* ]] \
        || { why "no bind of the AF_BLUETOOTH socket to hci0"; return 1; }
    [[ $OUT == *"transport"*"AF_BLUETOOTH"*"bound to hci0"* ]] || { why "doctor does not name the kernel socket transport"; return 1; }
}

# Advertise profile $2 with `beacon advertise … -i $1 --duration 5` (more arguments follow) and
# expect every beacon of it on hci1, on legacy PDUs (what phones see). The receiver scans with
# the legacy commands: on btvirt that hears beacon whether it uses legacy advertising or
# extended sets (see the top of this file).
advertise_and_receive() {
    local adapter=$1 profile=$2 label=$3
    shift 3
    scan_start "$label" 1 legacy "$LISTEN" || return 1
    show "$BEACON" advertise "$profile" -i "$adapter" --duration 5 "$@"
    local status=$STATUS
    scan_stop "$label" || return 1
    [ "$status" = 0 ] || { why "beacon advertise $profile -i $adapter exited $status"; return 1; }
    expect_received "$label" "$profile" --legacy-pdu
}

check_advertise_received_on_hci1() {
    need_subcommand advertise || return 1
    advertise_and_receive hci0 "$BM1" advertise
}

check_advertise_user_channel_received_on_hci1() {
    need_subcommand advertise || return 1
    # The user channel needs the adapter down (the kernel lets go of it).
    adapter_down hci0 || { why "hciconfig hci0 down failed"; return 1; }
    advertise_and_receive user:hci0 "$BM1" user-channel
    local status=$?
    adapter_up hci0 || { why "hciconfig hci0 up failed after the user channel"; return 1; }
    return $status
}

check_room_of_4_rotates_on_3_sets() {
    need_subcommand advertise || return 1
    # room-2m has 4 beacons and the controller 3 sets: all 4 must be heard, so beacon must rotate.
    [ "$("$BEACON" list --json "$ROOM" | grep -c '"uuid"')" = 4 ] || { why "$ROOM does not list 4 beacons"; return 1; }
    advertise_and_receive hci0 "$ROOM" room
}

# A dense fleet on the same 3 sets: 24 beacons, 8 turns per set; the planner keeps every beacon
# on air at least once a second, so in 5 s each must be heard.
check_fleet_of_24_rotates_on_3_sets() {
    need_subcommand advertise || return 1
    local profile="$STATE/fleet-24.yaml"
    cat >"$profile" <<'YAML'
name: kernel-24
defaults:
  uuid: 8F1A9E2C-3B4D-4E5F-8A6B-7C8D9E0F1A2B
  major: 24
  measured_power: -59
  name: "k24-{minor:2}"
beacons:
  - minor: {from: 1, count: 24}
YAML
    [ "$("$BEACON" list --json "$profile" | grep -c '"uuid"')" = 24 ] || { why "$profile does not list 24 beacons"; return 1; }
    advertise_and_receive hci0 "$profile" fleet-24
}

check_stop_leaves_no_sets() {
    need_subcommand advertise || return 1
    need_subcommand stop || return 1
    "$BEACON" advertise "$ROOM" -i hci0 --duration 60 >"$STATE/long-advertise.log" 2>&1 &
    local advertiser=$!
    sleep 5
    show "$BEACON" stop -i hci0
    local status=$STATUS
    sleep 1
    kill -0 "$advertiser" 2>/dev/null && { echo "  (beacon advertise still runs after stop; ending it)"; kill "$advertiser"; }
    wait "$advertiser"
    [ "$status" = 0 ] || { why "beacon stop -i hci0 exited $status"; return 1; }
    # hci0 has 3 sets in all (checked above): if 3 fresh ones can be made, none is left.
    show py "$KT/hci_cmd.py" --dev 0 --free-sets 3 || { why "counting the free advertising sets failed"; return 1; }
    [[ $OUT == *"free sets: 3 "* ]] || { why "advertising sets remain after beacon stop ($OUT)"; return 1; }
}

check_scan_hears_beacon_on_hci0() {
    need_subcommand scan || return 1
    # hci0 advertises bm1 from an extended set on legacy PDUs (what a BM1 or beacon sends). btvirt
    # reports an enabled set to a scanner when it starts scanning, so beacon scan needs no "ready"
    # handshake. (The hcitool recipe's legacy advertising is reported to legacy scanners only by
    # btvirt, so it would not be a fair sender for a scanner that scans extended.)
    local address data
    address=$("$BEACON" list --json "$BM1" | sed -n 's/.*"address":"\([0-9A-F:]*\)".*/\1/p')
    data=$("$BEACON" encode "$BM1")
    show py "$KT/hci_ext_adv.py" --dev 0 --handle 0 --address "$address" --data "$data" --legacy-pdu \
        || { why "hci_ext_adv.py could not advertise: $OUT"; return 1; }
    show "$BEACON" scan -i hci1 --json --duration 8
    local status=$STATUS scanned=$OUT
    show py "$KT/hci_ext_adv.py" --dev 0 --handle 0 --remove
    [ "$status" = 0 ] || { why "beacon scan -i hci1 --json exited $status"; return 1; }
    local want
    want=$("$BEACON" list --json "$BM1")
    # Any JSON object in the output, at any depth, with bm1's uuid, major, minor and power.
    py - "$scanned" "$want" <<'EOF' || { why "beacon scan did not report bm1 (uuid, major, minor, power)"; return 1; }
import json, sys
want = json.loads(sys.argv[2])
keys = ("uuid", "major", "minor", "power")

def found(value):
    if isinstance(value, dict):
        if all(str(value.get(k)).upper() == str(want[k]).upper() for k in keys):
            return True
        return any(found(v) for v in value.values())
    if isinstance(value, list):
        return any(found(v) for v in value)
    return False

for line in sys.argv[1].splitlines():
    try:
        if found(json.loads(line)):
            sys.exit(0)
    except ValueError:
        pass
sys.exit(1)
EOF
}

# --- the kernel's management API (-i mgmt:hci0) ------------------------------------------------

# Instances on hci0 as the kernel counts them (btmgmt advinfo: Read Advertising Features).
mgmt_instances() {
    btmgmt --index 0 advinfo 2>&1 | sed -n 's/^Instances list with \([0-9]*\) item.*/\1/p'
}

# The kernel's own LE setting must be on for advertising instances (bluetoothd turns it on; an
# adapter only brought up with HCIDEVUP may not have it).
mgmt_le_on() {
    show btmgmt --index 0 info
    printf '%s\n' "$OUT" | grep -q 'current settings:.* le' && return 0
    show btmgmt --index 0 le on || { why "btmgmt --index 0 le on failed: $OUT"; return 1; }
}

# Advertise profile $2 through `-i $1` for 5 s and expect its exact bytes on hci1 on legacy
# PDUs, from whatever address the kernel chose. More arguments: the command that runs beacon
# (default "$BEACON"), e.g. as another user.
mgmt_advertise_and_receive() {
    local adapter=$1 profile=$2 label=$3
    shift 3
    local runner=("$@")
    [ ${#runner[@]} -gt 0 ] || runner=("$BEACON")
    scan_start "$label" 1 legacy "$LISTEN" || return 1
    show "${runner[@]}" advertise "$profile" -i "$adapter" --duration 5
    local status=$STATUS output=$OUT
    printf '%s\n' "$output" >"$STATE/$label.out"
    scan_stop "$label" || return 1
    [ "$status" = 0 ] || { why "beacon advertise $profile -i $adapter exited $status"; return 1; }
    [[ $output == *"free kernel instances (management API"* ]] || { why "the plan does not say it uses the kernel's instances"; return 1; }
    expect_received "$label" "$profile" --legacy-pdu --any-address
}

check_mgmt_advertise_received_on_hci1() {
    need_subcommand advertise || return 1
    command -v btmgmt >/dev/null || { why "btmgmt (bluez) is missing in the guest"; return 1; }
    mgmt_le_on || return 1
    local before
    before=$(mgmt_instances)
    mgmt_advertise_and_receive mgmt:hci0 "$BM1" mgmt || return 1
    [ "$(mgmt_instances)" = "$before" ] || { why "beacon left instances behind: $before before, $(mgmt_instances) after"; return 1; }
}

# Another program's advertisement (btmgmt add-adv, instance 1) must survive a beacon run and its
# teardown: beacon takes only free instances and removes only its own.
OTHER_DATA=0B096F746865722D70726F67   # Complete Local Name "other-prog"
check_mgmt_leaves_other_programs_instance() {
    need_subcommand advertise || return 1
    command -v btmgmt >/dev/null || { why "btmgmt (bluez) is missing in the guest"; return 1; }
    mgmt_le_on || return 1
    show btmgmt --index 0 add-adv -d "$OTHER_DATA" 1 || { why "btmgmt add-adv failed: $OUT"; return 1; }
    [ "$(mgmt_instances)" = 1 ] || { why "after btmgmt add-adv the kernel lists $(mgmt_instances) instances, not 1"; return 1; }
    mgmt_advertise_and_receive mgmt:hci0 "$BM1" mgmt-shared || { btmgmt --index 0 rm-adv 1 >/dev/null 2>&1; return 1; }
    local after
    after=$(mgmt_instances)
    # After beacon's teardown: the other program's instance is still the kernel's and on air. An
    # extended scanner on btvirt hears the sets enabled when it starts scanning.
    scan_start other-after 1 extended 3 || return 1
    scan_stop other-after || return 1
    show btmgmt --index 0 rm-adv 1
    [ "$after" = 1 ] || { why "after beacon's run the kernel lists $after instances, not the other program's 1"; return 1; }
    grep -qi "\"data\": *\"$OTHER_DATA\"" "$STATE/other-after.jsonl" \
        || { why "the other program's advertisement ($OTHER_DATA) is not on air after beacon's run"; return 1; }
}

# doctor -i mgmt:hci0 reports the management API: its version, the instances (free, and the
# ones another program holds) and the supported flags.
check_mgmt_doctor_reports_instances() {
    need_subcommand doctor || return 1
    mgmt_le_on || return 1
    show btmgmt --index 0 add-adv -d "$OTHER_DATA" 1 || { why "btmgmt add-adv failed: $OUT"; return 1; }
    show "$BEACON" doctor -i mgmt:hci0 --json
    local status=$STATUS json=$OUT
    show "$BEACON" doctor -i mgmt:hci0
    local text=$OUT
    btmgmt --index 0 rm-adv 1 >/dev/null 2>&1
    [ "$status" = 0 ] || { why "beacon doctor -i mgmt:hci0 --json exited $status"; return 1; }
    doctor_says "$json" 'report["adapters"][0]["management_api"]["max_instances"] == 3' \
        || { why "doctor --json does not report btvirt's 3 instances"; return 1; }
    doctor_says "$json" 'report["adapters"][0]["management_api"]["taken_instances"] == [1] and report["adapters"][0]["management_api"]["free_instances"] == 2' \
        || { why "doctor --json does not report instance 1 as taken by another program"; return 1; }
    doctor_says "$json" 'report["adapters"][0]["management_api"]["extended_commands"] is True' \
        || { why "doctor --json does not report Add Extended Advertising Parameters on kernel $(uname -r)"; return 1; }
    [[ $text == *"management API"*"instances"*"2 free of 3 (other programs hold 1)"* ]] \
        || { why "doctor's text does not show the management API and its instances"; return 1; }
}

# Least privilege: the management API needs CAP_NET_ADMIN and nothing else. A copy of beacon
# with only that file capability, run as nobody, advertises; without it beacon says so, with the
# setcap line, before sending anything (the kernel would refuse each command as Permission
# Denied, and can fail to queue that refusal: ENOMEM on the write, seen once here).
check_mgmt_needs_only_cap_net_admin() {
    need_subcommand advertise || return 1
    mgmt_le_on || return 1
    local bin="$STATE/beacon-net-admin" profile="$STATE/bm1-nobody.yaml"
    cp "$BEACON" "$bin" && cp "$BM1" "$profile" && chmod 755 "$bin" && chmod 644 "$profile" \
        || { why "could not copy beacon and the profile for nobody"; return 1; }
    expect_message 'needs CAP_NET_ADMIN.*setcap cap_net_admin\+eip' "the missing CAP_NET_ADMIN explained with the setcap line" \
        setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all "$bin" advertise "$profile" -i mgmt:hci0 --duration 1 \
        || return 1
    show setcap cap_net_admin+ep "$bin" || { why "setcap cap_net_admin+ep failed: $OUT"; return 1; }
    show getcap "$bin"
    [[ $OUT == *cap_net_admin=ep* ]] || { why "the copy does not carry cap_net_admin=ep ($OUT)"; return 1; }
    mgmt_advertise_and_receive mgmt:hci0 "$profile" mgmt-nobody \
        setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all "$bin"
}

# The message checks: beacon must fail (non-zero, not a crash) and say what is wrong.
expect_message() {
    local pattern=$1 what=$2
    shift 2
    show "$@"
    if [ "$STATUS" = 0 ]; then why "'$*' succeeded; $what expected"; return 1; fi
    if [ "$STATUS" -ge 128 ]; then why "'$*' crashed (exit status $STATUS)"; return 1; fi
    printf '%s\n' "$OUT" | grep -Eqi "$pattern" || { why "'$*' did not say /$pattern/ ($what)"; return 1; }
}

check_message_unknown_adapter() {
    need_subcommand advertise || return 1
    expect_message 'hci9' "an error naming hci9" "$BEACON" advertise "$BM1" -i hci9 --duration 1
}

check_advertise_brings_down_adapter_up() {
    need_subcommand advertise || return 1
    # beacon brings a down kernel adapter up itself (HCIDEVUP, as KernelTransport.openRaw does by
    # default); the "adapter is down" advice is only for when that fails.
    adapter_down hci0 || { why "hciconfig hci0 down failed"; return 1; }
    show "$BEACON" advertise "$BM1" -i hci0 --duration 1
    local status=$STATUS
    if ! hciconfig hci0 | grep -q 'UP RUNNING'; then
        adapter_up hci0
        why "beacon advertise -i hci0 left the down adapter down (exit status $status)"
        return 1
    fi
    [ "$status" = 0 ] || { why "beacon advertise -i hci0 on a down adapter exited $status"; return 1; }
}

check_message_no_capabilities() {
    need_subcommand advertise || return 1
    # As nobody, without capabilities: the kernel refuses HCI commands (EPERM).
    expect_message 'setcap' "the setcap line to grant CAP_NET_RAW/CAP_NET_ADMIN" \
        setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all \
        "$BEACON" advertise "$BM1" -i hci0 --duration 1
}

# --- with bluetoothd running, as on a desktop ---------------------------------------------------
#
# From here on bluetoothd runs (started once, detached, by bluetoothd_starts; the restart check
# restarts it). A plain -i hci0 then means the management API; -i raw:hci0 forces the raw socket.

BLUETOOTHD_PID="$STATE/bluetoothd.pid"
BLUETOOTHD_LOG="$STATE/bluetoothd.log"

# Start dbus (once) and bluetoothd, detached so it outlives the check, and wait until it has
# powered hci0 with LE on.
bluetoothd_start() {
    mkdir -p /run/dbus
    if [ ! -S /run/dbus/system_bus_socket ]; then
        # (Its output must not go into show's pipe: the forked daemon would hold it open.)
        dbus-daemon --system --fork --nopidfile </dev/null >"$STATE/dbus.log" 2>&1 \
            || { why "dbus-daemon --system failed: $(cat "$STATE/dbus.log")"; return 1; }
    fi
    rm -f "$BLUETOOTHD_PID"
    : >"$BLUETOOTHD_LOG"
    setsid -f sh -c 'echo $$ >"$1"; exec /usr/libexec/bluetooth/bluetoothd -n >"$2" 2>&1' sh "$BLUETOOTHD_PID" "$BLUETOOTHD_LOG" </dev/null
    wait_for 60 '[ -s "$BLUETOOTHD_PID" ] && [[ $(<"$BLUETOOTHD_LOG") == *"management interface"*initialized* ]]' \
        || { sed 's/^/    /' "$BLUETOOTHD_LOG"; why "bluetoothd did not come up"; return 1; }
    # bluetoothd powers the adapter and turns LE on itself: wait for it instead of doing it.
    wait_for 30 'btmgmt --index 0 info 2>&1 | grep -q "current settings:.*powered.* le"' \
        || { btmgmt --index 0 info | sed 's/^/    /'; why "bluetoothd did not power hci0 with LE on"; return 1; }
}

bluetoothd_running() {
    local pid
    pid=$(cat "$BLUETOOTHD_PID" 2>/dev/null) && [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null
}

# Stop bluetoothd as `systemctl stop bluetooth` does (SIGTERM) and wait until it is gone.
bluetoothd_stop() {
    local pid
    pid=$(cat "$BLUETOOTHD_PID" 2>/dev/null) || return 0
    kill "$pid" 2>/dev/null
    wait_for 30 "! kill -0 $pid 2>/dev/null" || { why "bluetoothd (pid $pid) did not end on SIGTERM"; return 1; }
    rm -f "$BLUETOOTHD_PID"
}

need_bluetoothd() {
    bluetoothd_running || { why "bluetoothd is not running (bluetoothd_starts failed or it died)"; return 1; }
}

# Now, as the receiver's report times count (CLOCK_BOOTTIME seconds).
now() { awk '{print $1}' /proc/uptime; }

# Start `beacon advertise` in the background with --json events into $STATE/$1.events (more
# arguments follow the label); wait until its beacons are on air (the "applied" event).
BEACON_PID=""
advertise_in_background() {
    local label=$1
    shift
    "$BEACON" advertise "$@" --json >"$STATE/$label.events" 2>"$STATE/$label.err" &
    BEACON_PID=$!
    if ! wait_for 60 "grep -q '\"event\":\"applied\"' '$STATE/$label.events' || ! kill -0 $BEACON_PID 2>/dev/null"; then
        why "beacon advertise $* put nothing on air within 60 s"
        return 1
    fi
    grep -q '"event":"applied"' "$STATE/$label.events" || {
        sed 's/^/    /' "$STATE/$label.err"; why "beacon advertise $* ended before its beacons went on air: $(tail -1 "$STATE/$label.err")"; return 1; }
    echo "  beacon advertise $* on air (pid $BEACON_PID)"
}

# Wait for the background beacon to end (it runs for its --duration) and show what it said.
advertise_wait() {
    local label=$1 status
    wait "$BEACON_PID"
    status=$?
    echo "  beacon's events and messages:"
    sed 's/^/    /' "$STATE/$label.events" | grep -v '"event":"slot"' | head -40
    sed 's/^/    /' "$STATE/$label.err" | head -20
    [ "$status" = 0 ] || { why "beacon advertise exited $status: $(tail -1 "$STATE/$label.err")"; return 1; }
}

check_bluetoothd_starts() {
    bluetoothd_start
}

check_doctor_with_bluetoothd() {
    need_subcommand doctor || return 1
    need_bluetoothd || return 1
    local daemon
    daemon=$(cat "$BLUETOOTHD_PID")
    show "$BEACON" doctor -i hci0 --json
    local json=$OUT
    show "$BEACON" doctor -i hci0
    local text=$OUT
    doctor_says "$json" "$daemon in report['host']['bluetoothd_pids']" \
        || { why "doctor --json does not list bluetoothd (pid $daemon)"; return 1; }
    doctor_says "$json" 'report["adapters"][0]["advertise_backend"]["adapter"] == "mgmt:hci0"' \
        || { why "doctor --json does not say advertise would use the management API (mgmt:hci0)"; return 1; }
    doctor_says "$json" '"bluetoothd is running" in report["adapters"][0]["advertise_backend"]["reason"]' \
        || { why "doctor --json does not say why it chose the management API"; return 1; }
    doctor_says "$json" 'report["adapters"][0]["management_api"]["max_instances"] == 3 and report["adapters"][0]["management_api"]["extended_commands"]' \
        || { why "doctor --json does not report the management API's 3 instances and extended commands for hci0"; return 1; }
    doctor_says "$json" "report['host']['kernel_release'] == '$(uname -r)'" \
        || { why "doctor --json does not report the kernel release $(uname -r)"; return 1; }
    doctor_says "$json" 'not any(a.lower().startswith("stop") or "systemctl stop bluetooth" in a for a in report["advice"])' \
        || { why "doctor still advises stopping bluetoothd"; return 1; }
    doctor_says "$json" 'any("bluetoothd" in a and "management API" in a for a in report["advice"])' \
        || { why "doctor's advice does not explain advertising next to bluetoothd"; return 1; }
    printf '%s\n' "$text" | grep -q 'advertise uses.*management API, because bluetoothd is running' \
        || { why "doctor's text does not show which backend advertise uses and why"; return 1; }
    printf '%s\n' "$text" | grep -q 'mgmt: instances .*of 3' \
        || { why "doctor's text does not show the management API's instances for hci0"; return 1; }
}

# As nobody, doctor gives the exact least-privilege line for the backend it would use.
check_doctor_setcap_lines() {
    need_subcommand doctor || return 1
    need_bluetoothd || return 1
    show setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all "$BEACON" doctor -i hci0 --json
    local json=$OUT
    doctor_says "$json" 'any("setcap cap_net_admin+ep" in a and "CAP_NET_ADMIN only" in a for a in report["advice"])' \
        || { why "doctor as nobody does not give the management API's setcap cap_net_admin+ep line"; return 1; }
    doctor_says "$json" 'any("setcap cap_net_raw+ep" in a for a in report["advice"])' \
        || { why "doctor as nobody does not give the raw socket's setcap cap_net_raw+ep line"; return 1; }
}

# With bluetoothd running (as on a desktop), -i mgmt:hci0 still puts the exact beacon on air:
# the kernel shares the adapter between bluetoothd's instances and beacon's.
check_mgmt_advertise_with_bluetoothd() {
    need_subcommand advertise || return 1
    need_bluetoothd || return 1
    mgmt_advertise_and_receive mgmt:hci0 "$BM1" mgmt-bluetoothd || return 1
    bluetoothd_running || { why "bluetoothd died during the run"; return 1; }
}

# The default: a plain -i hci0 with bluetoothd running goes through the management API, says
# so in the plan, and hci1 receives the exact iBeacon.
check_hci0_uses_mgmt_with_bluetoothd() {
    need_subcommand advertise || return 1
    need_bluetoothd || return 1
    local before
    before=$(mgmt_instances)
    mgmt_advertise_and_receive hci0 "$BM1" hci0-default || return 1
    grep -q 'backend: hci0: management API, because bluetoothd is running' "$STATE/hci0-default.out" \
        || { why "the plan does not say that -i hci0 chose the management API because bluetoothd is running"; return 1; }
    [ "$(mgmt_instances)" = "$before" ] || { why "beacon left instances behind: $before before, $(mgmt_instances) after"; return 1; }
}

# room-2m (4 beacons) on btvirt's 3 instances through -i hci0 (the management API): every beacon
# on air at least once a second. The receiver restarts its extended scan every 0.25 s (btvirt
# reports each enabled set at a scan start), so "on air" is sampled every 0.25 s; the bound
# allows the 1 s goal plus that sampling and 0.25 s for emulation.
check_room_every_second_with_bluetoothd() {
    need_subcommand advertise || return 1
    need_bluetoothd || return 1
    scan_start room-mgmt 1 extended "$LISTEN" --restart-every 0.25 || return 1
    advertise_in_background room-mgmt "$ROOM" -i hci0 --duration 8 || { scan_stop room-mgmt; return 1; }
    local on
    on=$(now)
    advertise_wait room-mgmt || { scan_stop room-mgmt; return 1; }
    scan_stop room-mgmt || return 1
    grep -q '"backend_reason":"hci0: management API' "$STATE/room-mgmt.events" \
        || { why "the plan (--json) does not say -i hci0 chose the management API"; return 1; }
    # The window: from half a second after the beacons went on air to 6.5 s later (the run lasts 8).
    local from to
    from=$(awk -v t="$on" 'BEGIN {printf "%.3f", t + 0.5}')
    to=$(awk -v t="$on" 'BEGIN {printf "%.3f", t + 6.5}')
    show py "$KT/air_gaps.py" --beacon "$BEACON" --profile "$ROOM" --reports "$STATE/room-mgmt.jsonl" --from "$from" --to "$to" --max-gap 1.5
    local status=$STATUS result=$OUT
    [ "$status" = 0 ] || { why "not every beacon was on air each second: $(printf '%s\n' "$result" | tail -1)"; return 1; }
    note "$(printf '%s\n' "$result" | tail -1)"
}

# Another program's advertisement (btmgmt add-adv) keeps being received during a beacon run on
# -i hci0 and after `beacon stop -i hci0`, which with bluetoothd running removes nothing.
check_other_program_survives_run_and_stop() {
    need_subcommand advertise || return 1
    need_subcommand stop || return 1
    need_bluetoothd || return 1
    show btmgmt --index 0 add-adv -d "$OTHER_DATA" 1 || { why "btmgmt add-adv failed: $OUT"; return 1; }
    scan_start other-run 1 extended "$LISTEN" --restart-every 0.25 || { btmgmt --index 0 rm-adv 1 >/dev/null 2>&1; return 1; }
    advertise_in_background other-run "$BM1" -i hci0 --duration 5 || { scan_stop other-run; btmgmt --index 0 rm-adv 1 >/dev/null 2>&1; return 1; }
    local on stopped
    on=$(now)
    advertise_wait other-run || { scan_stop other-run; btmgmt --index 0 rm-adv 1 >/dev/null 2>&1; return 1; }
    show "$BEACON" stop -i hci0
    local stop_status=$STATUS stop_output=$OUT
    stopped=$(now)
    # Two more seconds of listening after the stop.
    wait_for 3 "[ \$(awk -v s=$stopped '{print (\$1 - s >= 2)}' /proc/uptime) = 1 ]"
    local after
    after=$(mgmt_instances)
    scan_stop other-run || { btmgmt --index 0 rm-adv 1 >/dev/null 2>&1; return 1; }
    btmgmt --index 0 rm-adv 1 >/dev/null 2>&1
    [ "$stop_status" = 0 ] || { why "beacon stop -i hci0 exited $stop_status"; return 1; }
    [[ $stop_output == *"nothing removed"* ]] || { why "beacon stop -i hci0 did not say it removed nothing: $stop_output"; return 1; }
    [ "$after" = 1 ] || { why "after beacon stop the kernel lists $after instances, not the other program's 1"; return 1; }
    local during_from during_to
    during_from=$(awk -v t="$on" 'BEGIN {printf "%.3f", t + 0.5}')
    during_to=$(awk -v t="$on" 'BEGIN {printf "%.3f", t + 4.5}')
    show py "$KT/air_gaps.py" --beacon "$BEACON" --profile "$BM1" --data "$OTHER_DATA:other-program" --reports "$STATE/other-run.jsonl" \
        --from "$during_from" --to "$during_to" --max-gap 1.0
    local during=$OUT
    [ "$STATUS" = 0 ] || { why "during the run, bm1 and the other program's advertisement were not both on air: $(printf '%s\n' "$during" | grep -E 'MISSING|GAP other' | head -1)"; return 1; }
    show py "$KT/air_gaps.py" --beacon "$BEACON" --data "$OTHER_DATA:other-program" --reports "$STATE/other-run.jsonl" \
        --from "$stopped" --to "$(awk -v t="$stopped" 'BEGIN {printf "%.3f", t + 1.5}')" --max-gap 1.0
    [ "$STATUS" = 0 ] || { why "after beacon stop the other program's advertisement was not received: $(printf '%s\n' "$OUT" | tail -1)"; return 1; }
    note "during the run: $(printf '%s\n' "$during" | grep 'GAP other' | sed 's/^ *GAP //'); after stop: $(printf '%s\n' "$OUT" | grep 'GAP other' | sed 's/^ *GAP //')"
}

# bluetoothd restarts in the middle of a run (it removes every instance when it starts): the
# watchdog adds beacon's back, reports it, and the beacon is on air again within 2 s.
check_bluetoothd_restart_recovered() {
    need_subcommand advertise || return 1
    need_bluetoothd || return 1
    scan_start restart 1 extended "$LISTEN" --restart-every 0.25 || return 1
    advertise_in_background restart "$BM1" -i hci0 --duration 30 || { scan_stop restart; return 1; }
    local down up
    down=$(now)
    bluetoothd_stop || { kill "$BEACON_PID"; scan_stop restart; return 1; }
    bluetoothd_start || { kill "$BEACON_PID"; scan_stop restart; return 1; }
    up=$(now)
    echo "  bluetoothd restarted: stopped at $down, hci0 powered again at $up"
    if ! wait_for 30 "grep -q '\"event\":\"recovered\"' '$STATE/restart.events'"; then
        kill "$BEACON_PID"; advertise_wait restart; scan_stop restart
        why "beacon reported no recovery within 30 s of bluetoothd's restart"
        return 1
    fi
    local recovered
    recovered=$(now)
    # Two more seconds on air after the recovery, then end the run (SIGINT: a clean stop).
    wait_for 3 "[ \$(awk -v s=$recovered '{print (\$1 - s >= 2)}' /proc/uptime) = 1 ]"
    kill -INT "$BEACON_PID"
    advertise_wait restart || { scan_stop restart; return 1; }
    scan_stop restart || return 1
    # after_ms counts from the loss, which bluetoothd causes as it exits (it powers hci0 off, and
    # the kernel removes the instances): it includes the time bluetoothd is away, which beacon
    # cannot shorten. The bound is on what follows the restart: from bluetoothd powering hci0
    # on again (the New Settings event beacon reacts to) to the beacon back on air.
    local after_ms back_ms
    after_ms=$(sed -n 's/.*"event":"recovered".*"after_ms":\([0-9.]*\).*/\1/p' "$STATE/restart.events" | head -1)
    back_ms=$(grep '"event":"recovered"' "$STATE/restart.events" | grep '"after_adapter_back_ms"' | head -1 \
        | sed -n 's/.*"after_adapter_back_ms":\([0-9.]*\).*/\1/p')
    [ -n "$after_ms" ] || { why "the recovered event has no after_ms"; return 1; }
    [ -n "$back_ms" ] || { why "no recovered event after hci0 was powered on again (after_adapter_back_ms)"; return 1; }
    awk -v a="$back_ms" 'BEGIN {exit !(a <= 2000)}' || { why "beacon took $back_ms ms from hci0's power-on to put its beacon back (2000 allowed)"; return 1; }
    # On the air: from hci0 powered again to 2 s after the recovery, bm1's longest silence.
    local to
    to=$(awk -v t="$recovered" 'BEGIN {printf "%.3f", t + 1.5}')
    show py "$KT/air_gaps.py" --beacon "$BEACON" --profile "$BM1" --reports "$STATE/restart.jsonl" --from "$up" --to "$to" --max-gap 2.5
    [ "$STATUS" = 0 ] || { why "bm1 was not back on air within 2 s of bluetoothd's restart: $(printf '%s\n' "$OUT" | tail -1)"; return 1; }
    note "watchdog restored $back_ms ms after hci0's power-on ($after_ms ms after the loss at bluetoothd's exit); on air after the restart: $(printf '%s\n' "$OUT" | tail -1)"
}

# The raw socket's watchdog: `btmgmt power off` and `on` under a raw-socket run (the kernel resets
# the controller, which clears beacon's set) is restored within 1 s of the power-on.
check_raw_power_cycle_restored() {
    need_subcommand advertise || return 1
    scan_start power 1 extended "$LISTEN" --restart-every 0.25 || return 1
    advertise_in_background power "$BM1" -i raw:hci0 --duration 30 || { scan_stop power; return 1; }
    show btmgmt --index 0 power off || { kill "$BEACON_PID"; scan_stop power; why "btmgmt power off failed"; return 1; }
    local on
    show btmgmt --index 0 power on || { kill "$BEACON_PID"; scan_stop power; why "btmgmt power on failed"; return 1; }
    on=$(now)
    if ! wait_for 20 "grep -q '\"event\":\"recovered\"' '$STATE/power.events'"; then
        kill "$BEACON_PID"; advertise_wait power; scan_stop power
        why "beacon reported no recovery within 20 s of the power cycle"
        return 1
    fi
    wait_for 3 "[ \$(awk -v s=$on '{print (\$1 - s >= 2.5)}' /proc/uptime) = 1 ]"
    kill -INT "$BEACON_PID"
    advertise_wait power || { scan_stop power; return 1; }
    scan_stop power || return 1
    local reason
    reason=$(sed -n 's/.*"event":"recovered".*"reason":"\([^"]*\)".*/\1/p' "$STATE/power.events" | head -1)
    echo "  recovery reason: $reason"
    # bm1 seen again within 1 s of the power-on (+0.25 s of scan sampling, +0.25 s for emulation).
    show py "$KT/air_gaps.py" --beacon "$BEACON" --profile "$BM1" --reports "$STATE/power.jsonl" --from "$on" \
        --to "$(awk -v t="$on" 'BEGIN {printf "%.3f", t + 2.0}')" --max-gap 1.5
    [ "$STATUS" = 0 ] || { why "bm1 was not back on air within 1 s of the power-on: $(printf '%s\n' "$OUT" | tail -1)"; return 1; }
    local back_ms
    back_ms=$(grep '"event":"recovered"' "$STATE/power.events" | head -1 | sed -n 's/.*"after_adapter_back_ms":\([0-9.]*\).*/\1/p')
    note "restored ${back_ms:-?} ms after the kernel's HCI Reset at power-on; first silence after power on and on air since: $(printf '%s\n' "$OUT" | tail -1)"
}

# Least privilege with bluetoothd running: a copy of beacon with only CAP_NET_ADMIN, run as
# nobody, advertises with -i hci0 (which chooses the management API).
check_hci0_as_nobody_with_cap_net_admin() {
    need_subcommand advertise || return 1
    need_bluetoothd || return 1
    local bin="$STATE/beacon-net-admin-2" profile="$STATE/bm1-nobody-2.yaml"
    cp "$BEACON" "$bin" && cp "$BM1" "$profile" && chmod 755 "$bin" && chmod 644 "$profile" \
        || { why "could not copy beacon and the profile for nobody"; return 1; }
    show setcap cap_net_admin+ep "$bin" || { why "setcap cap_net_admin+ep failed: $OUT"; return 1; }
    mgmt_advertise_and_receive hci0 "$profile" hci0-nobody \
        setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all "$bin"
}

# Restarting bluetoothd (and the runs around it) takes longer than most checks under emulation.
CHECK_LIMIT[bluetoothd_restart_recovered]=240
# Up to 3 starts of btvirt when the kernel's controller setup fails under load.
CHECK_LIMIT[btvirt_makes_hci0_and_hci1]=200
CHECK_LIMIT[raw_power_cycle_restored]=150
CHECK_LIMIT[other_program_survives_run_and_stop]=150
CHECK_LIMIT[room_every_second_with_bluetoothd]=150

CHECKS=(
    modules_load
    btvirt_makes_hci0_and_hci1
    controller_is_le_5_0_with_3_sets
    beacon_runs_in_guest
    hcitool_recipe_received_on_hci1
    receiver_rejects_other_profile
    extended_set_received_on_hci1
    doctor_reports_emulated_controller
    beacon_opens_af_bluetooth_socket
    advertise_received_on_hci1
    advertise_user_channel_received_on_hci1
    room_of_4_rotates_on_3_sets
    fleet_of_24_rotates_on_3_sets
    stop_leaves_no_sets
    scan_hears_beacon_on_hci0
    message_unknown_adapter
    advertise_brings_down_adapter_up
    message_no_capabilities
    mgmt_advertise_received_on_hci1
    mgmt_leaves_other_programs_instance
    mgmt_doctor_reports_instances
    mgmt_needs_only_cap_net_admin
    bluetoothd_starts
    doctor_with_bluetoothd
    doctor_setcap_lines
    mgmt_advertise_with_bluetoothd
    hci0_uses_mgmt_with_bluetoothd
    room_every_second_with_bluetoothd
    other_program_survives_run_and_stop
    hci0_as_nobody_with_cap_net_admin
    raw_power_cycle_restored
    bluetoothd_restart_recovered
)

if [ "${1:-}" = --run-check ]; then
    "check_$2"
    exit
fi
run_checks "${CHECKS[@]}"
