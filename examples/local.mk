# SPDX-License-Identifier: MIT
# Example programs for the demo and the docs; built with debug information and
# without optimisation so that gdb shows every line and variable.
noinst_PROGRAMS += examples/inventory
examples_inventory_SOURCES = examples/inventory.c
examples_inventory_CFLAGS = -g
# Not linked with the sanitizers of a sanitizer build: the example is
# recorded and replayed, and the ASan runtime is not what it is about.
examples_inventory_LDFLAGS =
