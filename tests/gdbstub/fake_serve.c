/* SPDX-License-Identifier: MIT */
/* gdb_serve over stdin/stdout on the fake replayer (fake_replay.h), for the
 * serve_thread suite's session with real gdb: "target remote | fake_serve
 * [POSITION]". Like fake_stub, a test fixture. */
#include <stdlib.h>

#include "gdbstub/gdbstub.h"
#include "tests/gdbstub/fake_replay.h"

int main(int argc, char **argv) {
  struct gdb_serve_opts opts = {.name = "fake", .quiet = 1};
  rp_replay *rp = fake_open();
  if (!rp) return 1;
  if (argc > 1) fake_goto(rp, strtoull(argv[1], NULL, 0));
  int rc = gdb_serve(rp, 0, 1, &opts);
  fake_close(rp);
  return rc < 0;
}
