/* SPDX-License-Identifier: MIT */
/* Layer 2 of the GDB stub (STYLE R15): turns a decoded payload into a tagged
 * struct gdb_request. This file dispatches on the first byte and parses the
 * one-letter packets; the q, Q and v families are in parse_query.c. Nothing
 * is executed here and nothing is allocated: serve.c decides the answers. */
#include <string.h>

#include "gdbstub/gdbstub_int.h"

static const char *const req_names[GDB_REQ__COUNT] = {
#define GDB_REQ(name, fmt) [GDB_REQ_##name] = #name,
#include "gdbstub/requests.def"
#undef GDB_REQ
};

const char *gdb_req_name(enum gdb_req_kind kind) {
  return (unsigned)kind < GDB_REQ__COUNT ? req_names[kind] : "?";
}

void gdb__malformed(struct gdb_request *r, const char *msg) {
  r->kind = GDB_REQ_MALFORMED;
  r->msg = msg;
}

/* Sets R to KIND if nothing follows, else marks it malformed. */
static void bare(struct gdb__cur *c, struct gdb_request *r,
                 enum gdb_req_kind kind) {
  if (gdb__cur_left(c))
    gdb__malformed(r, "unexpected arguments");
  else
    r->kind = kind;
}

/* Parses "addr,length" into R->u.mem. */
static int addr_len(struct gdb__cur *c, struct gdb_request *r) {
  u64 addr, len;
  if (gdb__cur_hex(c, &addr) || gdb__cur_expect(c, ',') ||
      gdb__cur_hex(c, &len)) {
    gdb__malformed(r, "expected addr,length");
    return RW_EPROTO;
  }
  if (len && addr + (len - 1) < addr) {
    gdb__malformed(r, "address range wraps");
    return RW_EPROTO;
  }
  r->u.mem.addr = addr;
  r->u.mem.len = len;
  return 0;
}

static int all_hex(const char *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (gdb__hexval((u8)p[i]) < 0) return 0;
  return 1;
}

static void parse_mem(struct gdb__cur *c, char letter,
                      struct gdb_request *r) {
  if (addr_len(c, r)) return;
  if (letter == 'm') {
    /* Format: m addr,length */
    if (gdb__cur_left(c)) return gdb__malformed(r, "trailing bytes after m");
    /* Longer than a reply can carry: the reply holds what fits, and gdb
     * asks again for the rest (it reads the vDSO in one 8 KiB request). */
    r->kind = GDB_REQ_READ_MEM;
    return;
  }
  /* Format: M addr,length:XX...  X addr,length:binary-data */
  if (gdb__cur_expect(c, ':')) return gdb__malformed(r, "expected ':' data");
  r->u.mem.data = c->p;
  r->u.mem.data_len = gdb__cur_left(c);
  r->u.mem.binary = letter == 'X';
  if (letter == 'M') {
    if (r->u.mem.data_len != 2 * r->u.mem.len ||
        !all_hex(c->p, r->u.mem.data_len))
      return gdb__malformed(r, "M data does not match its length");
  } else if (r->u.mem.data_len != r->u.mem.len) {
    return gdb__malformed(r, "X data does not match its length");
  }
  r->kind = GDB_REQ_WRITE_MEM;
}

static void parse_reg(struct gdb__cur *c, char letter,
                      struct gdb_request *r) {
  if (gdb__cur_hex(c, &r->u.reg.regnum))
    return gdb__malformed(r, "expected a register number");
  if (letter == 'p') {
    /* Format: p n */
    if (gdb__cur_left(c)) return gdb__malformed(r, "trailing bytes after p");
    r->kind = GDB_REQ_READ_REG;
    return;
  }
  /* Format: P n=r */
  if (gdb__cur_expect(c, '=')) return gdb__malformed(r, "expected P n=value");
  r->u.reg.value = c->p;
  r->u.reg.value_len = gdb__cur_left(c);
  if (!r->u.reg.value_len || r->u.reg.value_len % 2 ||
      !all_hex(c->p, r->u.reg.value_len))
    return gdb__malformed(r, "bad register value");
  r->kind = GDB_REQ_WRITE_REG;
}

/* A two-digit-or-shorter hex signal number, at most 255. */
static int signo(struct gdb__cur *c, u8 *out) {
  u64 v;
  if (gdb__cur_hex(c, &v) || v > 255) return RW_EPROTO;
  *out = (u8)v;
  return 0;
}

/* c, s, C, S: one action for the current thread, maybe a resume address. */
static void parse_resume(struct gdb__cur *c, char letter,
                         struct gdb_request *r) {
  struct gdb_action *a = &r->u.cont.act[0];
  memset(&r->u.cont, 0, sizeof r->u.cont);
  r->u.cont.dir = GDB_FORWARD;
  r->u.cont.hc = 1;
  r->u.cont.n = 1;
  a->kind = (enum gdb_action_kind)letter;
  if (letter == 'C' || letter == 'S') {
    /* Format: C sig[;addr]  S sig[;addr] */
    if (signo(c, &a->signo)) return gdb__malformed(r, "bad signal number");
    if (!gdb__cur_left(c)) goto done;
    if (gdb__cur_expect(c, ';') || !gdb__cur_left(c))
      return gdb__malformed(r, "expected ';addr'");
  }
  /* Format: c [addr]  s [addr] */
  if (gdb__cur_left(c)) {
    if (gdb__cur_hex(c, &r->u.cont.addr) || gdb__cur_left(c))
      return gdb__malformed(r, "bad resume address");
    r->u.cont.has_addr = 1;
  }
done:
  r->kind = GDB_REQ_CONT;
}

static void parse_reverse(struct gdb__cur *c, struct gdb_request *r) {
  /* Format: bc  bs */
  int ch = gdb__cur_peek(c);
  if ((ch != 'c' && ch != 's') || gdb__cur_left(c) != 1) return;
  memset(&r->u.cont, 0, sizeof r->u.cont);
  r->u.cont.dir = GDB_REVERSE;
  r->u.cont.hc = 1;
  r->u.cont.n = 1;
  r->u.cont.act[0].kind = ch == 'c' ? GDB_ACT_CONT : GDB_ACT_STEP;
  r->kind = GDB_REQ_CONT;
}

static void parse_bp(struct gdb__cur *c, char letter, struct gdb_request *r) {
  /* Format: Z type,addr,kind[;cond_list...][;cmds:...]  z type,addr,kind */
  int t = gdb__cur_peek(c);
  if (t < '0' || t > '4') return; /* other types: unsupported, empty reply */
  c->p++;
  r->u.bp.type = (enum gdb_bp_type)(t - '0');
  if (gdb__cur_expect(c, ',') || gdb__cur_hex(c, &r->u.bp.addr) ||
      gdb__cur_expect(c, ',') || gdb__cur_hex(c, &r->u.bp.kind))
    return gdb__malformed(r, "expected type,addr,kind");
  /* Target-side conditions and commands are ignored: gdb evaluates them
   * itself when the stub does not claim ConditionalBreakpoints. */
  if (gdb__cur_left(c) && gdb__cur_peek(c) != ';')
    return gdb__malformed(r, "trailing bytes after kind");
  r->kind = letter == 'Z' ? GDB_REQ_INSERT_BP : GDB_REQ_REMOVE_BP;
}

static void parse_thread(struct gdb__cur *c, char letter,
                         struct gdb_request *r) {
  if (letter == 'H') {
    /* Format: H op thread-id (op is g or c) */
    int op = gdb__cur_peek(c);
    if (op != 'g' && op != 'c') return gdb__malformed(r, "bad H operation");
    c->p++;
    r->u.thread.op = (char)op;
  }
  /* Format: T thread-id */
  if (gdb__cur_tid(c, &r->u.thread.tid) || gdb__cur_left(c))
    return gdb__malformed(r, "bad thread id");
  r->u.thread.has_tid = 1;
  r->kind = letter == 'H' ? GDB_REQ_SET_THREAD : GDB_REQ_THREAD_ALIVE;
}

static void parse_detach(struct gdb__cur *c, struct gdb_request *r) {
  /* Format: D  D;pid */
  i64 pid;
  if (gdb__cur_accept(c, ';')) {
    if (gdb__cur_shex(c, &pid) || pid <= 0 || gdb__cur_left(c))
      return gdb__malformed(r, "bad pid");
    r->u.thread.has_tid = 1;
    r->u.thread.tid.has_pid = 1;
    r->u.thread.tid.pid = pid;
    r->u.thread.tid.tid = GDB_TID_ALL;
  } else if (gdb__cur_left(c)) {
    return gdb__malformed(r, "unexpected arguments");
  }
  r->kind = GDB_REQ_DETACH;
}

void gdb_parse(const char *p, size_t len, struct gdb_request *r) {
  struct gdb__cur c = {p, p + len};
  char letter;
  /* The union and the text are left as they were: only the fields of the
   * kind chosen are meaningful. */
  r->kind = GDB_REQ_UNKNOWN;
  r->msg = NULL;
  r->text_len = 0;
  r->text[0] = 0;
  if (!len) return;
  letter = *c.p++;
  switch (letter) {
    case '?': /* Format: ? */
      return bare(&c, r, GDB_REQ_STOP_REASON);
    case 'g': /* Format: g */
      return bare(&c, r, GDB_REQ_READ_REGS);
    case 'G': /* Format: G XX... */
      r->u.reg.value = c.p;
      r->u.reg.value_len = gdb__cur_left(&c);
      if (r->u.reg.value_len % 2 || !all_hex(c.p, r->u.reg.value_len))
        return gdb__malformed(r, "bad register data");
      r->kind = GDB_REQ_WRITE_REGS;
      return;
    case 'p': /* Format: p n */
    case 'P': /* Format: P n=r */
      return parse_reg(&c, letter, r);
    case 'm': /* Format: m addr,length */
    case 'M': /* Format: M addr,length:XX... */
    case 'X': /* Format: X addr,length:XX... */
      return parse_mem(&c, letter, r);
    case 'c': /* Format: c [addr] */
    case 's': /* Format: s [addr] */
    case 'C': /* Format: C sig[;addr] */
    case 'S': /* Format: S sig[;addr] */
      return parse_resume(&c, letter, r);
    case 'b': /* Format: bc  bs */
      return parse_reverse(&c, r);
    case 'Z': /* Format: Z type,addr,kind */
    case 'z': /* Format: z type,addr,kind */
      return parse_bp(&c, letter, r);
    case 'H': /* Format: H op thread-id */
    case 'T': /* Format: T thread-id */
      return parse_thread(&c, letter, r);
    case 'k': /* Format: k */
      r->u.thread.has_tid = 0;
      return bare(&c, r, GDB_REQ_KILL);
    case 'D': /* Format: D[;pid] */
      r->u.thread.has_tid = 0;
      return parse_detach(&c, r);
    case '!': /* Format: ! */
      return bare(&c, r, GDB_REQ_EXTENDED_MODE);
    case 'q': /* Format: q name[:args] (general queries) */
    case 'Q': /* Format: Q name[:args] (general sets) */
    case 'v': /* Format: v name[;args] (multi-letter packets) */
      return gdb__parse_query(&c, letter, r);
    default: /* anything else (qL/qP included) is unknown */
      return;
  }
}
