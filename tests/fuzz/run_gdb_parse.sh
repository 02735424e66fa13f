#!/bin/bash
# SPDX-License-Identifier: MIT
# Fuzzes the gdb packet decoder and parser (tests/fuzz/gdb_parse.c); see run_target.sh.
exec bash "${top_srcdir:-.}/tests/fuzz/run_target.sh" gdb_parse 4096
