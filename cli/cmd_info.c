/* SPDX-License-Identifier: MIT */
/* Placeholder for 'rewind info' while it is being written. */
#include "cli/cli.h"

int cli_cmd_info(int argc, char **argv) {
  (void)argc;
  (void)argv;
  return cli_error("'info' is not implemented in this build");
}
