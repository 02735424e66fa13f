/* SPDX-License-Identifier: MIT */
/* Suite "packet": the incremental decoder of gdbstub/packet.c fed whole,
 * split, merged and noisy input, bad checksums, escapes, run lengths,
 * oversized packets and disconnects; the framer; the growable buffer. */
#include <stdlib.h>

#include "tests/gdbstub/util.h"

void test_packet_single(void) {
  gdb_decoder *d = tu_decoder(0);
  struct tu_events ev = {0};
  tu_feed(d, "$g#67", 5, 0, &ev);
  CU_ASSERT_EQUAL_FATAL(ev.n, 1);
  CU_ASSERT_EQUAL(ev.kind[0], GDB_EV_PACKET);
  CU_ASSERT_EQUAL(ev.ack[0], '+');
  CU_ASSERT_EQUAL(ev.len[0], 1);
  CU_ASSERT_STRING_EQUAL(ev.payload[0], "g");
  /* Upper-case checksum digits are accepted too. */
  tu_feed(d, "$OK#9A", 6, 0, &ev);
  CU_ASSERT_EQUAL_FATAL(ev.n, 2);
  CU_ASSERT_EQUAL(ev.kind[1], GDB_EV_PACKET);
  CU_ASSERT_STRING_EQUAL(ev.payload[1], "OK");
  /* An empty payload is a packet. */
  tu_feed(d, "$#00", 4, 0, &ev);
  CU_ASSERT_EQUAL_FATAL(ev.n, 3);
  CU_ASSERT_EQUAL(ev.kind[2], GDB_EV_PACKET);
  CU_ASSERT_EQUAL(ev.len[2], 0);
  gdb_decoder_free(d);
}

void test_packet_split_bytewise(void) {
  static const char *const payloads[] = {
      "qSupported:multiprocess+;swbreak+;hwbreak+", "vCont;s:p1.1;c",
      "m7fffffffe000,40"};
  for (size_t chunk = 1; chunk <= 7; chunk++) {
    gdb_decoder *d = tu_decoder(0);
    struct tu_events ev = {0};
    char buf[512];
    size_t n = 0;
    for (size_t i = 0; i < 3; i++)
      n += tu_pkt(buf + n, payloads[i], strlen(payloads[i]));
    tu_feed(d, buf, n, chunk, &ev);
    CU_ASSERT_EQUAL_FATAL(ev.n, 3);
    for (int i = 0; i < 3; i++) {
      CU_ASSERT_EQUAL(ev.kind[i], GDB_EV_PACKET);
      CU_ASSERT_STRING_EQUAL(ev.payload[i], payloads[i]);
    }
    gdb_decoder_free(d);
  }
}

void test_packet_merged_and_noise(void) {
  gdb_decoder *d = tu_decoder(0);
  struct tu_events ev = {0};
  char buf[256];
  size_t n = 0;
  memcpy(buf, "garbage\r\n#", 10), n = 10;
  n += tu_pkt(buf + n, "?", 1);
  buf[n++] = '+';
  memcpy(buf + n, "xyz", 3), n += 3;
  n += tu_pkt(buf + n, "qC", 2);
  buf[n++] = '-';
  tu_feed(d, buf, n, 0, &ev);
  CU_ASSERT_EQUAL_FATAL(ev.n, 4);
  CU_ASSERT_EQUAL(ev.kind[0], GDB_EV_PACKET);
  CU_ASSERT_STRING_EQUAL(ev.payload[0], "?");
  CU_ASSERT_EQUAL(ev.kind[1], GDB_EV_ACK);
  CU_ASSERT_EQUAL(ev.ack[1], 0);
  CU_ASSERT_EQUAL(ev.kind[2], GDB_EV_PACKET);
  CU_ASSERT_STRING_EQUAL(ev.payload[2], "qC");
  CU_ASSERT_EQUAL(ev.kind[3], GDB_EV_NAK);
  CU_ASSERT_EQUAL(gdb_decoder_noise(d), 13);
  gdb_decoder_free(d);
}

void test_packet_bad_checksum(void) {
  gdb_decoder *d = tu_decoder(0);
  struct tu_events ev = {0};
  tu_feed(d, "$g#68", 5, 0, &ev);  /* off by one */
  tu_feed(d, "$g#6z", 5, 0, &ev);  /* not hex */
  tu_feed(d, "$g#67", 5, 0, &ev);  /* the retransmission */
  CU_ASSERT_EQUAL_FATAL(ev.n, 3);
  CU_ASSERT_EQUAL(ev.kind[0], GDB_EV_BAD_CHECKSUM);
  CU_ASSERT_EQUAL(ev.ack[0], '-');
  CU_ASSERT_EQUAL(ev.kind[1], GDB_EV_BAD_CHECKSUM);
  CU_ASSERT_EQUAL(ev.ack[1], '-');
  CU_ASSERT_EQUAL(ev.kind[2], GDB_EV_PACKET);
  CU_ASSERT_EQUAL(ev.ack[2], '+');
  gdb_decoder_free(d);
}

void test_packet_noack(void) {
  gdb_decoder *d = tu_decoder(0);
  struct tu_events ev = {0};
  gdb_decoder_set_noack(d, 1);
  tu_feed(d, "$g#67$g#00", 10, 0, &ev);
  CU_ASSERT_EQUAL_FATAL(ev.n, 2);
  CU_ASSERT_EQUAL(ev.kind[0], GDB_EV_PACKET);
  CU_ASSERT_EQUAL(ev.ack[0], 0);
  CU_ASSERT_EQUAL(ev.kind[1], GDB_EV_BAD_CHECKSUM);
  CU_ASSERT_EQUAL(ev.ack[1], 0);
  gdb_decoder_set_noack(d, 0);
  tu_feed(d, "$g#67", 5, 0, &ev);
  CU_ASSERT_EQUAL(ev.ack[2], '+');
  gdb_decoder_free(d);
}

void test_packet_escapes(void) {
  /* X packet data holding '}', '#', '$', '*' and a NUL, escaped by gdb. */
  static const char raw[] = "X10,5:}]}\x03}\x04}\x0a\x00";
  static const char want[] = "X10,5:}#$*\x00";
  gdb_decoder *d = tu_decoder(0);
  struct tu_events ev = {0};
  char buf[64];
  size_t n = tu_pkt(buf, raw, sizeof raw - 1);
  tu_feed(d, buf, n, 3, &ev);
  CU_ASSERT_EQUAL_FATAL(ev.n, 1);
  CU_ASSERT_EQUAL_FATAL(ev.kind[0], GDB_EV_PACKET);
  CU_ASSERT_EQUAL(ev.len[0], sizeof want - 1);
  CU_ASSERT(memcmp(ev.payload[0], want, sizeof want - 1) == 0);
  /* ^C inside a packet is data, not an interrupt. */
  n = tu_pkt(buf, "X0,1:\x03", 6);
  tu_feed(d, buf, n, 0, &ev);
  CU_ASSERT_EQUAL_FATAL(ev.n, 2);
  CU_ASSERT_EQUAL(ev.kind[1], GDB_EV_PACKET);
  CU_ASSERT_EQUAL(ev.payload[1][5], 3);
  gdb_decoder_free(d);
}

void test_packet_run_length(void) {
  gdb_decoder *d = tu_decoder(0);
  struct tu_events ev = {0};
  char buf[64];
  size_t n = tu_pkt(buf, "0* 1*!x*\x1d", 9); /* 0000 11111 x */
  tu_feed(d, buf, n, 2, &ev);
  CU_ASSERT_EQUAL_FATAL(ev.n, 1);
  CU_ASSERT_EQUAL_FATAL(ev.kind[0], GDB_EV_PACKET);
  CU_ASSERT_STRING_EQUAL(ev.payload[0], "000011111x");
  /* An escaped byte can be repeated. */
  n = tu_pkt(buf, "}]*\"", 4);
  tu_feed(d, buf, n, 0, &ev);
  CU_ASSERT_EQUAL_FATAL(ev.n, 2);
  CU_ASSERT_STRING_EQUAL(ev.payload[1], "}}}}}}");
  gdb_decoder_free(d);
}

void test_packet_bad_encoding(void) {
  static const char *const bad[] = {"*!abc", "ab*\x10", "abc}", "abc*"};
  gdb_decoder *d = tu_decoder(0);
  struct tu_events ev = {0};
  char buf[64];
  for (size_t i = 0; i < RW_ARRAY_SIZE(bad); i++) {
    size_t n = tu_pkt(buf, bad[i], strlen(bad[i]));
    tu_feed(d, buf, n, 0, &ev);
  }
  tu_feed(d, "$g#67", 5, 0, &ev);
  CU_ASSERT_EQUAL_FATAL(ev.n, 5);
  for (int i = 0; i < 4; i++) {
    CU_ASSERT_EQUAL(ev.kind[i], GDB_EV_BAD_ENCODING);
    CU_ASSERT_EQUAL(ev.ack[i], '+');
  }
  CU_ASSERT_EQUAL(ev.kind[4], GDB_EV_PACKET);
  gdb_decoder_free(d);
}

void test_packet_oversize(void) {
  gdb_decoder *d = tu_decoder(16);
  struct tu_events ev = {0};
  char buf[256], big[200];
  size_t n;
  memset(big, 'a', sizeof big);
  n = tu_pkt(buf, big, 16); /* exactly the limit: fine */
  tu_feed(d, buf, n, 5, &ev);
  n = tu_pkt(buf, big, 17);
  tu_feed(d, buf, n, 5, &ev);
  n = tu_pkt(buf, big, sizeof big);
  tu_feed(d, buf, n, 0, &ev);
  n = tu_pkt(buf, "a*~", 3); /* 1 + 97 bytes once expanded */
  tu_feed(d, buf, n, 0, &ev);
  tu_feed(d, "$g#67", 5, 0, &ev);
  CU_ASSERT_EQUAL_FATAL(ev.n, 5);
  CU_ASSERT_EQUAL(ev.kind[0], GDB_EV_PACKET);
  CU_ASSERT_EQUAL(ev.len[0], 16);
  CU_ASSERT_EQUAL(ev.kind[1], GDB_EV_OVERSIZE);
  CU_ASSERT_EQUAL(ev.ack[1], '+');
  CU_ASSERT_EQUAL(ev.kind[2], GDB_EV_OVERSIZE);
  CU_ASSERT_EQUAL(ev.kind[3], GDB_EV_OVERSIZE);
  CU_ASSERT_EQUAL(ev.kind[4], GDB_EV_PACKET);
  CU_ASSERT_STRING_EQUAL(ev.payload[4], "g");
  gdb_decoder_free(d);
}

void test_packet_control_bytes(void) {
  gdb_decoder *d = tu_decoder(0);
  struct tu_events ev = {0};
  tu_feed(d, "\x03+-\x03$c#63", 10, 0, &ev);
  CU_ASSERT_EQUAL_FATAL(ev.n, 5);
  CU_ASSERT_EQUAL(ev.kind[0], GDB_EV_INTERRUPT);
  CU_ASSERT_EQUAL(ev.kind[1], GDB_EV_ACK);
  CU_ASSERT_EQUAL(ev.kind[2], GDB_EV_NAK);
  CU_ASSERT_EQUAL(ev.kind[3], GDB_EV_INTERRUPT);
  CU_ASSERT_EQUAL(ev.kind[4], GDB_EV_PACKET);
  CU_ASSERT_STRING_EQUAL(ev.payload[4], "c");
  gdb_decoder_free(d);
}

void test_packet_disconnect(void) {
  gdb_decoder *d = tu_decoder(0);
  struct tu_events ev = {0};
  tu_feed(d, "$qSupp", 6, 0, &ev);
  CU_ASSERT_EQUAL(ev.n, 0);
  gdb_decoder_set_noack(d, 1);
  gdb_decoder_reset(d); /* the client went away */
  tu_feed(d, "$g#67", 5, 0, &ev);
  CU_ASSERT_EQUAL_FATAL(ev.n, 1);
  CU_ASSERT_STRING_EQUAL(ev.payload[0], "g");
  CU_ASSERT_EQUAL(ev.ack[0], '+'); /* reset turned acks back on */
  /* Without a reset, a '$' inside a packet starts a new one. */
  tu_feed(d, "$m10,$g#67", 10, 0, &ev);
  CU_ASSERT_EQUAL_FATAL(ev.n, 2);
  CU_ASSERT_STRING_EQUAL(ev.payload[1], "g");
  /* A reset in the middle of the checksum too. */
  tu_feed(d, "$g#6", 4, 0, &ev);
  gdb_decoder_reset(d);
  tu_feed(d, "7$c#63", 6, 0, &ev);
  CU_ASSERT_EQUAL_FATAL(ev.n, 3);
  CU_ASSERT_STRING_EQUAL(ev.payload[2], "c");
  gdb_decoder_free(d);
  gdb_decoder_free(NULL);
  CU_ASSERT_EQUAL(gdb_decoder_new(SIZE_MAX, &d), RW_EINVAL);
  CU_ASSERT_PTR_NULL(d);
}

void test_packet_frame(void) {
  struct gdb_buf b;
  gdb_buf_init(&b, 0);
  CU_ASSERT_EQUAL(gdb_frame(&b, "OK", 2), 0);
  CU_ASSERT_STRING_EQUAL((char *)b.data, "$OK#9a");
  gdb_buf_reset(&b);
  CU_ASSERT_EQUAL(gdb_frame(&b, "", 0), 0);
  CU_ASSERT_STRING_EQUAL((char *)b.data, "$#00");
  /* Raw '$', '#' and '*' are escaped; '}' is left as an escape lead. */
  gdb_buf_reset(&b);
  CU_ASSERT_EQUAL(gdb_frame(&b, "a$#*}]", 6), 0);
  CU_ASSERT_EQUAL(b.len, 13);
  CU_ASSERT(memcmp(b.data, "$a}\x04}\x03}\x0a}]#", 11) == 0);
  {
    unsigned sum = 0;
    char cs[3];
    for (size_t i = 1; i < 10; i++) sum += b.data[i];
    snprintf(cs, sizeof cs, "%02x", sum & 0xff);
    CU_ASSERT(memcmp(b.data + 11, cs, 2) == 0);
  }
  gdb_buf_free(&b);
}

void test_packet_roundtrip(void) {
  /* Any bytes, binary-escaped then framed, decode to themselves. */
  u8 data[256];
  struct gdb_buf pl, out;
  gdb_decoder *d = tu_decoder(0);
  struct tu_events ev = {0};
  for (int i = 0; i < 256; i++) data[i] = (u8)(255 - i);
  gdb_buf_init(&pl, 0);
  gdb_buf_init(&out, 0);
  gdb_buf_put_bin(&pl, data, 256);
  CU_ASSERT_EQUAL(pl.len, 260); /* '#', '$', '*' and '}' were escaped */
  CU_ASSERT_EQUAL(gdb_frame(&out, pl.data, pl.len), 0);
  tu_feed(d, out.data, out.len, 7, &ev);
  CU_ASSERT_EQUAL_FATAL(ev.n, 1);
  CU_ASSERT_EQUAL_FATAL(ev.kind[0], GDB_EV_PACKET);
  CU_ASSERT_EQUAL(ev.len[0], 256);
  CU_ASSERT(memcmp(ev.payload[0], data, 256) == 0);
  gdb_buf_free(&pl);
  gdb_buf_free(&out);
  gdb_decoder_free(d);
}

void test_packet_buf(void) {
  struct gdb_buf b;
  static const u8 bytes[] = {0x00, 0x7f, 0xff, '$', '*'};
  char big[600];
  gdb_buf_init(&b, 16);
  gdb_buf_put_hex(&b, bytes, 3);
  CU_ASSERT_STRING_EQUAL((char *)b.data, "007fff");
  gdb_buf_reset(&b);
  gdb_buf_put_hexnum(&b, 0);
  gdb_buf_put(&b, ",", 1);
  gdb_buf_put_hexnum(&b, 0xdeadbeefull);
  CU_ASSERT_STRING_EQUAL((char *)b.data, "0,deadbeef");
  gdb_buf_put(&b, "0123456789", 10); /* 20 > limit 16 */
  CU_ASSERT_EQUAL(b.err, RW_ELIMIT);
  CU_ASSERT_EQUAL(b.len, 10);
  gdb_buf_puts(&b, "x"); /* sticky: still refused */
  CU_ASSERT_EQUAL(b.len, 10);
  CU_ASSERT_EQUAL(gdb_frame(&b, "", 0), RW_ELIMIT);
  gdb_buf_reset(&b);
  CU_ASSERT_EQUAL(b.err, 0);
  gdb_buf_put_bin(&b, bytes, sizeof bytes);
  CU_ASSERT_EQUAL(b.len, 7);
  CU_ASSERT(memcmp(b.data, "\x00\x7f\xff}\x04}\x0a", 7) == 0);
  CU_ASSERT_EQUAL(gdb_bin_fit(bytes, sizeof bytes, 4), 3);
  CU_ASSERT_EQUAL(gdb_bin_fit(bytes, sizeof bytes, 5), 4);
  CU_ASSERT_EQUAL(gdb_bin_fit(bytes, sizeof bytes, 100), 5);
  gdb_buf_free(&b);
  /* printf longer than its stack buffer. */
  memset(big, 'q', sizeof big - 1);
  big[sizeof big - 1] = 0;
  gdb_buf_init(&b, 0);
  gdb_buf_printf(&b, "<%s>", big);
  CU_ASSERT_EQUAL(b.len, sizeof big + 1);
  CU_ASSERT_EQUAL(b.data[b.len - 1], '>');
  CU_ASSERT_EQUAL(b.err, 0);
  gdb_buf_free(&b);
  gdb_buf_free(&b); /* twice is fine */
}
