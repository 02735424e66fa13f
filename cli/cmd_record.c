/* SPDX-License-Identifier: MIT */
/* Placeholder for 'rewind record' while it is being written. */
#include "cli/cli.h"

int cli_cmd_record(int argc, char **argv) {
  (void)argc;
  (void)argv;
  return cli_error("'record' is not implemented in this build");
}
