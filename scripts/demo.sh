#!/bin/bash
# SPDX-License-Identifier: MIT
# The main job: sets everything up, records the example program with a
# memory-corruption bug (examples/inventory.c), shows what the trace holds,
# then debugs the recording with gdb: a watchpoint and reverse-continue find
# the line that corrupted the data (examples/inventory.gdb).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
rewind=build/cli/rewind
trace=build/inventory.rwd

step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; }

step rewind --help
$rewind --help

step rewind record -o $trace --force -- build/examples/inventory
# The example exits with status 1 because its bug corrupts the total.
$rewind record -o "$trace" --force -- build/examples/inventory || true

step rewind info $trace
$rewind info "$trace"

step "rewind dump $trace | head -n 20"
$rewind dump "$trace" | head -n 20

step rewind replay $trace -- -batch -x examples/inventory.gdb
$rewind replay "$trace" -- -batch -x examples/inventory.gdb
