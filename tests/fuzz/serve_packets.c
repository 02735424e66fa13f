/* SPDX-License-Identifier: MIT */
/* Fuzz target for the GDB stub's serving layer (STYLE R19; issue 21):
 * sequences of packets against the replay of a real recording
 * ($RW_FUZZ_TRACE, which run_serve_packets.sh records). The input is
 * packet payloads separated by NUL bytes; each is framed with its correct
 * checksum (so that mutations reach the request handlers, not the framing
 * checks of gdb_parse's target), a 0x01 byte before a payload sends gdb's
 * ^C (0x03) instead, and the whole session is served from a file, as gdb
 * would send it, then end of input. The replay is opened anew for each
 * input. Any crash, sanitizer report or hang is the failure. Without
 * $RW_FUZZ_TRACE the target does nothing. */
#define _GNU_SOURCE /* memfd_create */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "gdbstub/gdbstub.h"
#include "replayer/replayer.h"
#include "tests/fuzz/fuzz.h"

static int put(int fd, const void *p, size_t n) {
  return write(fd, p, n) == (ssize_t)n ? 0 : -1;
}

/* Writes PAYLOAD (N bytes) as a packet with its checksum. */
static int frame(int fd, const uint8_t *payload, size_t n) {
  unsigned sum = 0;
  char tail[4];
  for (size_t i = 0; i < n; i++) sum += payload[i];
  snprintf(tail, sizeof tail, "#%02x", sum & 0xff);
  if (put(fd, "$", 1) < 0 || (n && put(fd, payload, n) < 0)) return -1;
  return put(fd, tail, 3);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *trace = getenv("RW_FUZZ_TRACE");
  struct gdb_serve_opts o = {.name = "fuzz", .quiet = 1};
  rp_replay *rp;
  int in, out;
  size_t start = 0;
  if (!trace || size > 1 << 16) return 0;
  in = memfd_create("rw-fuzz-packets", 0);
  out = open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (in < 0 || out < 0) abort();
  for (size_t i = 0; i <= size; i++) {
    if (i < size && data[i]) continue;
    if (start < i && data[start] == 1) {
      if (put(in, "\x03", 1) < 0) abort();
      start++;
    }
    if (frame(in, data + start, i - start) < 0) abort();
    start = i + 1;
  }
  if (lseek(in, 0, SEEK_SET) != 0) abort();
  if (rp_open(&rp, trace, NULL, NULL) == 0) {
    if (gdb_serve(rp, in, out, &o) < 0) {
      /* a write error or no memory: the stub said why; not a crash */
    }
    rp_close(rp);
  }
  close(in);
  close(out);
  return 0;
}
