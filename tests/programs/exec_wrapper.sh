#!/bin/sh
# SPDX-License-Identifier: MIT
# Test wrapper: a shell script that execs its program, as many launchers do.
exec "$@"
