#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Times `beacon decode --capture FILE --json` against tshark extracting the same Apple
# advertising data from the same file: a btsnoop capture of PACKETS LE Advertising Reports (half
# of them iBeacons) written by Benchmarks/make-capture.py.
#
#   Benchmarks/capture-vs-tshark.sh            # 1 000 000 packets
#   PACKETS=100000 RUNS=5 Benchmarks/capture-vs-tshark.sh
#
# Environment: PACKETS (1000000), RUNS (3; best of RUNS for beacon, tshark runs once, it is
# slow), SCRATCH (.build-bench-capture, the release build's scratch path), CAPTURE (a path in
# /tmp), SWIFT_BUILD_FLAGS (extra `swift build` arguments, e.g.
# "-Xswiftc -no-whole-module-optimization").
#
# tshark 4.0's own iBeacon dissector is reachable only through "Decode As" and reads the UUID two
# bytes early, so tshark is asked for the address and the manufacturer data (its HCI, AD and
# company-ID parsing); that is the same work up to the last 23 bytes.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PACKETS="${PACKETS:-1000000}"
RUNS="${RUNS:-3}"
SCRATCH="${SCRATCH:-$ROOT/.build-bench-capture}"
CAPTURE="${CAPTURE:-/tmp/beacon-capture-bench-$PACKETS.btsnoop}"

command -v tshark >/dev/null || { echo "tshark is not installed (apt-get install tshark)" >&2; exit 1; }

echo "generating $PACKETS packets into $CAPTURE" >&2
python3 "$ROOT/Benchmarks/make-capture.py" "$CAPTURE" --packets "$PACKETS"
echo "building beacon (release)" >&2
# shellcheck disable=SC2086  # SWIFT_BUILD_FLAGS is a list of words
(cd "$ROOT" && swift build -c release --scratch-path "$SCRATCH" --product beacon ${SWIFT_BUILD_FLAGS:-} >&2)
BEACON="$SCRATCH/release/beacon"

# Wall-clock seconds of one run, output discarded.
seconds() {
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1
    end=$(date +%s.%N)
    echo "$end - $start" | bc -l
}

best=""
for _ in $(seq "$RUNS"); do
    t=$(seconds "$BEACON" decode --capture "$CAPTURE" --json)
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then best=$t; fi
done
ours_count=$("$BEACON" decode --capture "$CAPTURE" --json 2>/dev/null | wc -l)

TSHARK=(tshark -r "$CAPTURE" -Y 'btcommon.eir_ad.entry.company_id == 0x004c' -T fields
        -e bthci_evt.bd_addr -e btcommon.eir_ad.entry.data)
theirs=$(seconds "${TSHARK[@]}")
theirs_count=$("${TSHARK[@]}" 2>/dev/null | grep -c $'\t0215' || true)

size=$(stat -c %s "$CAPTURE")
printf 'capture:  %s (%d packets, %.1f MB)\n' "$CAPTURE" "$PACKETS" "$(echo "$size / 1000000" | bc -l)"
printf 'beacon:   %.3f s (best of %d), %d iBeacons\n' "$best" "$RUNS" "$ours_count"
printf 'tshark:   %.3f s, %d iBeacon rows\n' "$theirs" "$theirs_count"
printf 'ratio:    tshark / beacon = %.1f×\n' "$(echo "$theirs / $best" | bc -l)"
printf 'beacon throughput: %.2f M packets/s\n' "$(echo "$PACKETS / $best / 1000000" | bc -l)"
