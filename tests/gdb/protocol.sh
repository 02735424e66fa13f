#!/bin/bash
# SPDX-License-Identifier: MIT
# The GDB remote protocol, packet by packet, against `rewind serve --stdio`
# and `rewind replay --listen`, driven by tests/gdb/protocol.py on
# recordings of examples/inventory and tests/programs/longloop.
. "${top_srcdir:-.}/tests/gdb/lib.sh"
rec inv "$B/examples/inventory"
rec loop "$B/tests/programs/longloop" 8000000
rec long "$B/tests/programs/longloop" 100000000
python3 "$top_srcdir/tests/gdb/protocol.py" "$REWIND" "$T/inv.rwd" "$T/loop.rwd" \
  "$T/long.rwd"
