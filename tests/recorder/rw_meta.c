/* SPDX-License-Identifier: MIT */
/* Test helper: prints one metadata value of a trace, as text or (-x) in hex,
 * for the end-to-end tests. Usage: rw_meta [-x] TRACE KEY. Exit status 0,
 * 1 when the key is missing, 2 when the trace cannot be opened. */
#include <stdio.h>
#include <string.h>

#include "format/format.h"

int main(int argc, char **argv) {
  int hex = argc > 1 && !strcmp(argv[1], "-x");
  if (argc != 3 + hex) {
    fprintf(stderr, "usage: rw_meta [-x] TRACE KEY\n");
    return 2;
  }
  trace_reader *r;
  struct rw_diag d;
  if (trace_reader_open(&r, argv[1 + hex], &d) < 0) {
    fprintf(stderr, "rw_meta: %s\n", d.msg);
    return 2;
  }
  const void *v;
  size_t len;
  int rc = 1;
  if (trace_reader_meta(r, argv[2 + hex], &v, &len) == 0) {
    const unsigned char *p = v;
    for (size_t i = 0; i < len; i++)
      if (hex)
        printf("%02x", p[i]);
      else
        putchar(p[i] ? p[i] : '\n');
    putchar('\n');
    rc = 0;
  }
  trace_reader_close(r);
  return rc;
}
