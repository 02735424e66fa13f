/* SPDX-License-Identifier: MIT */
/* Placeholder for 'rewind dump' while it is being written. */
#include "cli/cli.h"

int cli_cmd_dump(int argc, char **argv) {
  (void)argc;
  (void)argv;
  return cli_error("'dump' is not implemented in this build");
}
