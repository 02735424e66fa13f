#!/bin/bash
# SPDX-License-Identifier: MIT
# Fuzzes the trace reader (tests/fuzz/trace_reader.c); see run_target.sh.
exec bash "${top_srcdir:-.}/tests/fuzz/run_target.sh" trace_reader 16384
