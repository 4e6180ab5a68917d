# SPDX-License-Identifier: GPL-2.0-or-later
#
# The check framework and helpers of the kernel test guest (sourced by guest-test.sh).
#
# A check is a shell function `check_NAME` that returns 0 to pass. It runs in its own bash
# process under a time limit (CHECK_TIMEOUT, default 90 s), so a hang fails that one check and
# the next one still runs. Before returning non-zero it calls `why "…"` with the reason, which
# goes on the FAIL line. Checks share state only through files under $STATE and through the
# controllers themselves; a daemon a check starts must be started with `setsid -f` to outlive it.
#
# A check that measures something calls `note "…"`: the figure goes on its PASS line.
#
# Results: one "PASS NAME" (or "PASS NAME: figures") or "FAIL NAME: reason" line per check in $RESULTS/results, then DONE.

STATE=/tmp/kernel-test
mkdir -p "$STATE"
: "${CHECK_TIMEOUT:=90}"
# Checks that need longer (a daemon restarted under emulation) say so: CHECK_LIMIT[NAME]=SECONDS.
declare -A CHECK_LIMIT=()

# Record why the running check fails (the last call wins) and say it in the log.
why() {
    printf '%s\n' "$*" >"${KT_REASON:-/dev/null}"
    echo "  why: $*"
}

# Record a measured figure for the running check's PASS line (the last call wins).
note() {
    printf '%s\n' "$*" >"${KT_NOTE:-/dev/null}"
    echo "  measured: $*"
}

# Run every named check in order and write the results file.
run_checks() {
    local name
    for name in "$@"; do run_check "$name"; done
    echo DONE >>"$RESULTS/results"
}

run_check() {
    local name=$1 reason="$STATE/reason.$1" figures="$STATE/note.$1" status line start
    : >"$reason"
    : >"$figures"
    echo
    echo "=== $name"
    start=$(date +%s.%N)
    local limit=${CHECK_LIMIT[$name]:-$CHECK_TIMEOUT}
    KT_REASON=$reason KT_NOTE=$figures timeout -k 5 "$limit" bash "$GUEST_TEST" --run-check "$name"
    status=$?
    if [ "$status" = 0 ]; then
        line="PASS $name"
        [ -s "$figures" ] && line="$line: $(head -1 "$figures")"
    elif [ "$status" = 124 ] || [ "$status" = 137 ]; then
        line="FAIL $name: timed out after $limit s"
    elif [ -s "$reason" ]; then
        line="FAIL $name: $(head -1 "$reason")"
    else
        line="FAIL $name: exit status $status"
    fi
    echo "$line ($(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN {printf "%.1f", e - s}') s)"
    echo "$line" >>"$RESULTS/results"
}

# Run a command, show it and its output (indented) in the log, keep the output in $OUT and the
# exit status in $STATUS, and return that status.
OUT="" STATUS=0
show() {
    echo "  \$ $*"
    OUT=$("$@" 2>&1)
    STATUS=$?
    [ -n "$OUT" ] && printf '%s\n' "$OUT" | sed 's/^/    /'
    [ "$STATUS" = 0 ] || echo "    (exit status $STATUS)"
    return "$STATUS"
}

# Fail unless beacon has this subcommand: the checks written against the agreed command line
# for commands still being built fail with this reason, so nobody mistakes them for done.
need_subcommand() {
    # `beacon CMD --help` is no test: for an unknown CMD, ArgumentParser prints the root help and
    # exits 0. The SUBCOMMANDS list of `beacon --help` is.
    [ -s "$STATE/beacon-help" ] || "$BEACON" --help >"$STATE/beacon-help" 2>&1
    if ! sed -n '/^SUBCOMMANDS:/,$p' "$STATE/beacon-help" | grep -Eq "^  $1( |$)"; then
        why "beacon $1 does not exist yet (this check is written against the agreed command line and passes once it lands)"
        return 1
    fi
}

# Wait until a shell condition holds, polling every 0.1 s, for at most $1 seconds of wall time
# (not a count of tries: under emulation one try of a condition can itself take seconds).
wait_for() {
    local deadline=$((SECONDS + $1 + 1))
    shift
    while [ "$SECONDS" -lt "$deadline" ]; do
        eval "$@" && return 0
        sleep 0.1
    done
    return 1
}

# Python for the helper scripts, which need only the standard library: -S skips site, whose scan
# of the installed packages costs seconds per start under emulation.
py() { "$PY" -S "$@"; }

adapter_up() { hciconfig "$1" up && hciconfig "$1" | grep -q 'UP RUNNING'; }
adapter_down() { hciconfig "$1" down && hciconfig "$1" | grep -q 'DOWN'; }

# Start the receiver (hci_scan.py) on adapter index $2 in mode $3 (legacy|extended) for $4
# seconds, writing JSON lines to $STATE/$1.jsonl; returns once scanning is on.
SCAN_PID=""
scan_start() {
    local label=$1 dev=$2 mode=$3 seconds=$4
    shift 4
    rm -f "$STATE/$label.ready"
    # "$PY" itself, not the py function: $! must be python's pid, for scan_stop's SIGTERM.
    # More arguments go to hci_scan.py (e.g. --restart-every 0.25).
    "$PY" -S "$KT/hci_scan.py" --dev "$dev" --mode "$mode" --duration "$seconds" --ready "$STATE/$label.ready" "$@" \
        >"$STATE/$label.jsonl" 2>"$STATE/$label.err" &
    SCAN_PID=$!
    if ! wait_for 10 "[ -e '$STATE/$label.ready' ] || ! kill -0 $SCAN_PID 2>/dev/null"; then
        why "the receiver on hci$dev did not start scanning within 10 s"
        return 1
    fi
    if [ ! -e "$STATE/$label.ready" ]; then
        sed 's/^/    /' "$STATE/$label.err"
        why "the receiver on hci$dev failed: $(tail -1 "$STATE/$label.err")"
        return 1
    fi
    echo "  receiver: hci$dev scanning ($mode) for $seconds s"
}

# Stop the receiver (after a grace second for the last reports: SIGTERM makes hci_scan.py turn
# scanning off and exit) and show what it heard.
scan_stop() {
    local label=$1 status
    sleep 1
    kill -TERM "$SCAN_PID" 2>/dev/null
    wait "$SCAN_PID"
    status=$?
    echo "  receiver heard $(wc -l <"$STATE/$label.jsonl") report(s):"
    sed 's/^/    /' "$STATE/$label.jsonl"
    if [ "$status" != 0 ]; then
        sed 's/^/    /' "$STATE/$label.err"
        why "the receiver failed (exit status $status)"
        return 1
    fi
}

# Check that the reports in $STATE/$1.jsonl carry the beacons of profile $2 (extra arguments go
# to match_reports.py, e.g. --event le_advertising_report or --name NAME).
expect_received() {
    local label=$1 profile=$2
    shift 2
    if ! show py "$KT/match_reports.py" --beacon "$BEACON" --profile "$profile" --reports "$STATE/$label.jsonl" "$@"; then
        why "$(printf '%s\n' "$OUT" | grep -E 'MISSING|WRONG|NOT LEGACY|match_reports:' | tail -1 | sed 's/^ *//')"
        return 1
    fi
}

# Send the classic hcitool recipe that `beacon encode --format hcitool` prints for profile $2 on
# adapter $1, line by line, requiring status 0x00 in each Command Complete. One exception: the
# recipe's first line turns advertising off in case it was on, and btvirt answers Command
# Disallowed (0x0C) when it already was off (real controllers answer 0x00: the spec says
# disabling when disabled has no effect), so 0x0C is accepted for the turning-off line.
send_hcitool_recipe() {
    local adapter=$1 profile=$2 line status
    show "$BEACON" encode "$profile" --format hcitool --adapter "$adapter" || { why "beacon encode --format hcitool failed"; return 1; }
    local recipe=$OUT
    while IFS= read -r line; do
        case "$line" in hcitool\ *) ;; *) continue ;; esac
        show $line || { why "'$line' failed"; return 1; }
        # hcitool prints the answer as "> HCI Event: 0x0e plen 4" and then the bytes
        # (Num_HCI_Command_Packets, opcode LE, status, ...).
        status=$(printf '%s\n' "$OUT" | awk '/> HCI Event: 0x0e/ {getline; print $4; exit}')
        [ "$status" = 0C ] && [[ $line == *" cmd 0x08 0x000a 00" ]] && continue
        if [ "$status" != "00" ]; then
            why "'$line' answered status 0x${status:-??} (Command Complete expected with 0x00)"
            return 1
        fi
    done <<<"$recipe"
}

# Send one HCI command on adapter index $1 (hci_cmd.py); sets $HCI_STATUS (e.g. 0x00) and
# $HCI_RETURN (hex).
HCI_STATUS="" HCI_RETURN=""
hci_cmd() {
    show py "$KT/hci_cmd.py" --dev "$@" || return 1
    HCI_STATUS=$(printf '%s\n' "$OUT" | sed -n 's/^status=\(0x[0-9a-f]*\).*/\1/p')
    HCI_RETURN=$(printf '%s\n' "$OUT" | sed -n 's/.* return=\([0-9A-F]*\)$/\1/p')
}
