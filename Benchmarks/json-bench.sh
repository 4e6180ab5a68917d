#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmarks/json-bench.sh [LINES]: writes and reads LINES (100,000) `scan --json` report lines
# with BeaconJSON, and reads them the way `locate --trace` did before it (JSONSerialization).
# Optimised whole-module builds of BeaconCodec and BeaconJSON as modules of their own (so calls
# cross the module boundary as the tool's do) and JSONBench/main.swift; no package harness, so
# it builds in about a minute. Figures in ../BENCHMARKS.md, "JSON lines".
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
for module in BeaconCodec BeaconJSON; do
    swiftc -O -wmo -parse-as-library -module-name "$module" -I "$out" -emit-module -emit-module-path "$out/$module.swiftmodule" \
        -emit-library -static -o "$out/lib$module.a" "$here/../Sources/$module"/*.swift
done
swiftc -O -I "$out" -L "$out" -lBeaconJSON -lBeaconCodec -o "$out/json-bench" "$here/JSONBench/main.swift"
"$out/json-bench" "${1:-100000}"
