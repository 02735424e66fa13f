/* SPDX-License-Identifier: MIT */
/* The syscall table (common/syscalls.def) and the code that turns a
 * syscall's arguments and result into the memory ranges the kernel wrote.
 * Everything here is pure: tracee memory is read through a callback, so the
 * unit tests drive it with fake memory. Recording is in recorder/sysrec.c. */
#include <string.h>

#include "common/endian.h"
#include "recorder/rec_int.h"

#define K REC_SC_KNOWN
#define M REC_SC_MAPS
#define D REC_SC_DIFF
#define W REC_SC_WARN
#define F REC_SC_FPREGS
#define C REC_SC_CUSTOM
#define NONE {REC_OUT_NONE, 0, 0, 0, 0}
#define FIX(a, n) {REC_OUT_FIXED, a, 0, 0, n}
#define FIX_E(a, n) {REC_OUT_FIXED, a, 0, REC_OUTF_ONERR, n}
#define RET(a) {REC_OUT_RET, a, 0, 0, 0}
#define ARGLEN(a, b) {REC_OUT_ARGLEN, a, b, 0, 0}
#define RETMUL(a, n) {REC_OUT_RETMUL, a, 0, 0, n}
#define ARGMUL(a, b, n) {REC_OUT_ARGMUL, a, b, 0, n}
#define ARGMUL_E(a, b, n) {REC_OUT_ARGMUL, a, b, REC_OUTF_ONERR, n}
#define LENPTR(a, b) {REC_OUT_LENPTR, a, b, 0, 0}
#define IOV(a, b) {REC_OUT_IOV, a, b, 0, 0}
#define FDSET(a, b) {REC_OUT_FDSET, a, b, 0, 0}
#define FDSET_E(a, b) {REC_OUT_FDSET, a, b, REC_OUTF_ONERR, 0}

static const struct rec__sc table[REC_NSYSCALLS] = {
#define REC_SYSCALL(nr, name, flags, o1, o2, o3) \
  [nr] = {#name, flags, {o1, o2, o3}},
#include "common/syscalls.def"
#undef REC_SYSCALL
};

const struct rec__sc *rec__sc_lookup(u64 nr) {
  if (nr >= REC_NSYSCALLS || !table[nr].name) return NULL;
  return &table[nr];
}

const char *rec__sc_name(u64 nr) {
  const struct rec__sc *sc = rec__sc_lookup(nr);
  return sc ? sc->name : NULL;
}

int rec__sc_number(const char *name) {
  for (int i = 0; i < REC_NSYSCALLS; i++)
    if (table[i].name && !strcmp(table[i].name, name)) return i;
  return -1;
}

/* ------------------------------------------------------------ ioctl */

/* Legacy terminal and file ioctls that do not encode their size. */
struct ioctl_row {
  u32 req;
  u32 out; /* bytes written at arg 2; 0: nothing */
};
static const struct ioctl_row ioctls[] = {
    {0x5401, 36}, /* TCGETS: struct termios */
    {0x5402, 0},  /* TCSETS */
    {0x5403, 0},  /* TCSETSW */
    {0x5404, 0},  /* TCSETSF */
    {0x5405, 20}, /* TCGETA: struct termio */
    {0x5406, 0},  {0x5407, 0}, {0x5408, 0}, /* TCSETA, TCSETAW, TCSETAF */
    {0x5409, 0},  /* TCSBRK */
    {0x540A, 0},  /* TCXONC */
    {0x540B, 0},  /* TCFLSH */
    {0x540C, 0},  /* TIOCEXCL */
    {0x540D, 0},  /* TIOCNXCL */
    {0x540E, 0},  /* TIOCSCTTY */
    {0x540F, 4},  /* TIOCGPGRP */
    {0x5410, 0},  /* TIOCSPGRP */
    {0x5411, 4},  /* TIOCOUTQ */
    {0x5412, 0},  /* TIOCSTI */
    {0x5413, 8},  /* TIOCGWINSZ */
    {0x5414, 0},  /* TIOCSWINSZ */
    {0x5415, 4},  /* TIOCMGET */
    {0x5416, 0},  {0x5417, 0}, {0x5418, 0}, /* TIOCMBIS, TIOCMBIC, TIOCMSET */
    {0x5419, 4},  /* TIOCGSOFTCAR */
    {0x541A, 0},  /* TIOCSSOFTCAR */
    {0x541B, 4},  /* FIONREAD */
    {0x541D, 0},  /* TIOCCONS */
    {0x5420, 0},  /* TIOCPKT */
    {0x5421, 0},  /* FIONBIO */
    {0x5422, 0},  /* TIOCNOTTY */
    {0x5423, 0},  /* TIOCSETD */
    {0x5424, 4},  /* TIOCGETD */
    {0x5425, 0},  /* TCSBRKP */
    {0x5429, 4},  /* TIOCGSID */
    {0x5437, 0},  /* TIOCVHANGUP */
    {0x5450, 0},  /* FIONCLEX */
    {0x5451, 0},  /* FIOCLEX */
    {0x5452, 0},  /* FIOASYNC */
    {0x5460, 8},  /* FIOQSIZE */
    {0x8901, 0},  /* FIOSETOWN */
    {0x8903, 4},  /* FIOGETOWN */
    {0x8904, 4},  /* SIOCGPGRP */
    {0x5430 | 0x80040000, 4}, /* TIOCGPTN */
    {0x5431 | 0x40040000, 0}, /* TIOCSPTLCK */
    {0x5441, 0},  /* TIOCGPTPEER: returns an fd */
    {0x0002, 4},  /* FIGETBSZ */
    {0x80086601, 4}, /* FS_IOC_GETFLAGS: an int, whatever its number says */
    {0x40086602, 0}, /* FS_IOC_SETFLAGS */
    {0x80087601, 4}, /* FS_IOC_GETVERSION */
    {0x80081272, 8}, /* BLKGETSIZE64 */
    {0x8910, 40}, /* SIOCGIFNAME: struct ifreq */
    {0x8913, 40}, /* SIOCGIFFLAGS */
    {0x8915, 40}, /* SIOCGIFADDR */
    {0x8921, 40}, /* SIOCGIFMTU */
    {0x8927, 40}, /* SIOCGIFHWADDR */
    {0x8933, 40}, /* SIOCGIFINDEX */
};

/* Returns the bytes ioctl REQ writes at its third argument, 0 for none, or
 * -1 when the request is unknown (the generic diff takes over). */
static i64 ioctl_out(u32 req) {
  for (size_t i = 0; i < RW_ARRAY_SIZE(ioctls); i++)
    if (ioctls[i].req == req) return ioctls[i].out;
  /* The direction and size a request number encodes are not to be
   * trusted: TUNSETIFF is _IOW and writes the interface name back,
   * TUNGETIFF says 4 bytes and writes a struct ifreq, FS_IOC_FIEMAP
   * writes an array after its sized header. So every request not in the
   * table is diffed. */
  return -1;
}

/* ------------------------------------------------------- other custom */


/* prctl options that write through their second argument, with sizes. */
static i64 prctl_out(u64 option) {
  switch (option) {
    case 2:  /* PR_GET_PDEATHSIG */
    case 10: /* PR_GET_FPEMU */
    case 11: /* PR_GET_FPEXC */
    case 19: /* PR_GET_ENDIAN */
    case 25: /* PR_GET_TSC */
    case 37: /* PR_GET_CHILD_SUBREAPER */
      return 4;
    case 16: /* PR_GET_NAME */
      return 16;
    case 40: /* PR_GET_TID_ADDRESS */
      return 8;
    default:
      /* Every other option either returns its answer or writes nothing; the
       * ones rewind does not know are diffed. */
      return option <= 80 ? 0 : -1;
  }
}

/* fcntl commands of Linux 6.x whose outputs custom_outputs describes (or
 * that write nothing); any other is diffed. */
static int fcntl_known(u64 cmd) {
  if (cmd <= 11 || (cmd >= 15 && cmd <= 17) || (cmd >= 36 && cmd <= 38))
    return 1;
  return cmd >= 1024 && cmd <= 1038;
}

int rec__sc_needs_diff(u64 nr, const u64 args[6], rec__read_fn rd, void *ctx) {
  const struct rec__sc *sc = rec__sc_lookup(nr);
  if (!sc || (sc->flags & REC_SC_DIFF)) return 1;
  if (!(sc->flags & (REC_SC_KNOWN | REC_SC_CUSTOM))) return 1;
  switch (nr) {
    case REC_NR_ioctl:
      return ioctl_out((u32)args[1]) < 0;
    case REC_NR_prctl:
      return prctl_out(args[0]) < 0;
    case REC_NR_clone: /* a thread's writes are its own, recorded */
      return (args[0] & (REC_CLONE_VM | REC_CLONE_THREAD)) == REC_CLONE_VM;
    case REC_NR_clone3: {
      u8 ca[8];
      if (rd(ctx, args[0], ca, 8) != 8) return 0;
      return (rd_le64(ca) & (REC_CLONE_VM | REC_CLONE_THREAD)) ==
             REC_CLONE_VM;
    }
    case REC_NR_fcntl:
      return fcntl_known(args[1]) ? 0 : 1;
    default:
      return 0;
  }
}

/* Reads a little-endian u64 / u32 of the tracee; 0 when unreadable. */
static u64 rd64(rec__read_fn rd, void *ctx, u64 addr) {
  u8 b[8];
  return rd(ctx, addr, b, 8) == 8 ? rd_le64(b) : 0;
}
static u32 rd32(rec__read_fn rd, void *ctx, u64 addr) {
  u8 b[4];
  return rd(ctx, addr, b, 4) == 4 ? rd_le32(b) : 0;
}

/* An iovec array at IOV with CNT entries, filled with TOTAL bytes. */
static int add_iov(struct rec__ranges *out, rec__read_fn rd, void *ctx,
                   u64 iov, u64 cnt, u64 total) {
  for (u64 i = 0; i < cnt && i < 1024 && total > 0; i++) {
    u64 base = rd64(rd, ctx, iov + 16 * i);
    u64 len = rd64(rd, ctx, iov + 16 * i + 8);
    u64 n = RW_MIN(len, total);
    RW_FORWARD(rec__ranges_add(out, base, n));
    total -= n;
  }
  return 0;
}

/* A struct msghdr at MH after a receive of TOTAL bytes: the header (the
 * kernel updates namelen, controllen and flags), the name, the data and the
 * control messages. */
static int add_msghdr(struct rec__ranges *out, rec__read_fn rd, void *ctx,
                      u64 mh, u64 total) {
  RW_FORWARD(rec__ranges_add(out, mh, 56));
  u64 name = rd64(rd, ctx, mh), namelen = rd32(rd, ctx, mh + 8);
  u64 iov = rd64(rd, ctx, mh + 16), iovlen = rd64(rd, ctx, mh + 24);
  u64 ctl = rd64(rd, ctx, mh + 32), ctllen = rd64(rd, ctx, mh + 40);
  RW_FORWARD(rec__ranges_add(out, name, RW_MIN(namelen, 128)));
  RW_FORWARD(add_iov(out, rd, ctx, iov, iovlen, total));
  RW_FORWARD(rec__ranges_add(out, ctl, RW_MIN(ctllen, 65536)));
  return 0;
}

/* setsockopt writes into the program's memory only where a netfilter
 * table is replaced: the kernel copies the old table's counters (struct
 * xt_counters / ebt_counter, 16 bytes each) to the array the replace
 * structure points at. Its num_counters and counters fields sit at
 * offsets that depend on the family's number of hooks. */
static int setsockopt_outputs(const u64 *a, i64 res, rec__read_fn rd,
                              void *ctx, struct rec__ranges *out) {
  u64 level = a[1] & 0xffffffffu, opt = a[2] & 0xffffffffu, nat, at;
  if (res < 0) return 0;
  if ((level == 0 /* SOL_IP */ || level == 41 /* SOL_IPV6 */) &&
      opt == 64) /* IPT_SO_SET_REPLACE, IP6T_SO_SET_REPLACE: 5 hooks */
    nat = 84, at = 88;
  else if (level == 0 && opt == 96) /* ARPT_SO_SET_REPLACE: 3 hooks */
    nat = 68, at = 72;
  else if (level == 0 && opt == 128) /* EBT_SO_SET_ENTRIES: 6 pointers */
    nat = 96, at = 104;
  else
    return 0;
  u64 n = rd32(rd, ctx, a[3] + nat), ptr = rd64(rd, ctx, a[3] + at);
  return rec__ranges_add(out, ptr, RW_MIN(n, (u64)1 << 20) * 16);
}

static int custom_outputs(u64 nr, const u64 *a, i64 res, rec__read_fn rd,
                          void *ctx, struct rec__ranges *out) {
  switch (nr) {
    case REC_NR_setsockopt:
      return setsockopt_outputs(a, res, rd, ctx, out);
    case REC_NR_ioctl: {
      i64 n = ioctl_out((u32)a[1]);
      if (res >= 0 && n > 0) RW_FORWARD(rec__ranges_add(out, a[2], (u64)n));
      return 0;
    }
    case REC_NR_fcntl:
      if (res < 0) return 0;
      if (a[1] == 5 || a[1] == 36) /* F_GETLK, F_OFD_GETLK: struct flock */
        return rec__ranges_add(out, a[2], 32);
      if (a[1] == 16 || a[1] == 17) /* F_GETOWN_EX, F_GETOWNER_UIDS */
        return rec__ranges_add(out, a[2], 8);
      if (a[1] == 1035 || a[1] == 1037) /* F_GET_RW_HINT, F_GET_FILE_.. */
        return rec__ranges_add(out, a[2], 8);
      return 0;
    case REC_NR_prctl: {
      i64 n = prctl_out(a[0]);
      if (res >= 0 && n > 0) RW_FORWARD(rec__ranges_add(out, a[1], (u64)n));
      if (res < 0) return 0;
      if (a[0] == 35 && a[1] == 15) /* PR_SET_MM, PR_SET_MM_MAP_SIZE */
        return rec__ranges_add(out, a[2], 4);
      if (a[0] == 0x41555856) /* PR_GET_AUXV: min(size, auxv) bytes */
        return rec__ranges_add(out, a[1], RW_MIN(a[2], (u64)res));
      if (a[0] == 62 && a[1] == 0) /* PR_SCHED_CORE, PR_SCHED_CORE_GET */
        return rec__ranges_add(out, a[4], 8);
      return 0;
    }
    case REC_NR_seccomp: /* SECCOMP_GET_NOTIF_SIZES: three u16 */
      return res == 0 && a[0] == 3 ? rec__ranges_add(out, a[2], 6) : 0;
    case REC_NR_arch_prctl:
      if (res < 0) return 0;
      switch (a[0]) {
        case 0x1003: /* ARCH_GET_FS */
        case 0x1004: /* ARCH_GET_GS */
        case 0x1021: /* ARCH_GET_XCOMP_SUPP */
        case 0x1022: /* ARCH_GET_XCOMP_PERM */
        case 0x1024: /* ARCH_GET_XCOMP_GUEST_PERM */
        case 0x5005: /* ARCH_SHSTK_STATUS */
          return rec__ranges_add(out, a[1], 8);
        default:
          return 0;
      }
    case REC_NR_futex:
      switch (a[1] & 0x7f) {
        case 5: /* FUTEX_WAKE_OP changes the word at uaddr2 (argument 4) */
        case 12: /* FUTEX_CMP_REQUEUE_PI */
          return rec__ranges_add(out, a[4], 4);
        case 11: /* FUTEX_WAIT_REQUEUE_PI: both words */
          RW_FORWARD(rec__ranges_add(out, a[4], 4));
          return rec__ranges_add(out, a[0], 4);
        case 6:  /* FUTEX_LOCK_PI: the kernel sets owner and waiter bits */
        case 7:  /* FUTEX_UNLOCK_PI */
        case 8:  /* FUTEX_TRYLOCK_PI */
        case 13: /* FUTEX_LOCK_PI2 */
          return rec__ranges_add(out, a[0], 4);
        default:
          return 0;
      }
    case REC_NR_select:
    case REC_NR_pselect6: {
      /* The kernel updates the timeout even when interrupted. */
      RW_FORWARD(rec__ranges_add(out, a[4], 16));
      if (res < 0) return 0;
      u64 n = ((a[0] & 0xffffffffu) + 63) / 64 * 8;
      for (int i = 1; i <= 3; i++) RW_FORWARD(rec__ranges_add(out, a[i], n));
      return 0;
    }
    case REC_NR_recvmsg:
      if (res < 0) return 0;
      return add_msghdr(out, rd, ctx, a[1], (u64)res);
    case REC_NR_recvmmsg:
      RW_FORWARD(rec__ranges_add(out, a[4], 16));
      for (i64 i = 0; i < res && i < 1024; i++) {
        u64 mh = a[1] + 64 * (u64)i;
        RW_FORWARD(rec__ranges_add(out, mh + 56, 8));
        RW_FORWARD(add_msghdr(out, rd, ctx, mh, rd32(rd, ctx, mh + 56)));
      }
      return 0;
    case REC_NR_sendmmsg:
      /* Fills msg_len of each message sent. */
      if (res > 0) RW_FORWARD(rec__ranges_add(out, a[1], 64 * (u64)res));
      return 0;
    case REC_NR_mincore:
      if (res < 0) return 0;
      return rec__ranges_add(out, a[2], (a[1] + REC_PAGE - 1) / REC_PAGE);
    case REC_NR_shmctl: {
      u64 cmd = a[1] & 0xff;
      if (res < 0 || cmd == 0 || cmd == 1 || cmd == 11 || cmd == 12) return 0;
      return rec__ranges_add(out, a[2], 128);
    }
    case REC_NR_msgrcv:
      if (res < 0) return 0;
      return rec__ranges_add(out, a[1], 8 + (u64)res);
    case REC_NR_syslog:
      if (res > 0 && (a[0] == 2 || a[0] == 3 || a[0] == 4))
        return rec__ranges_add(out, a[1], (u64)res);
      return 0;
    case REC_NR_clone:
      if (res <= 0) return 0;
      if (a[0] & (REC_CLONE_PARENT_SETTID | REC_CLONE_PIDFD))
        return rec__ranges_add(out, a[2], 4);
      return 0;
    case REC_NR_clone3: {
      if (res <= 0) return 0;
      u64 flags = rd64(rd, ctx, a[0]);
      if (flags & REC_CLONE_PIDFD)
        RW_FORWARD(rec__ranges_add(out, rd64(rd, ctx, a[0] + 8), 4));
      if (flags & REC_CLONE_PARENT_SETTID)
        RW_FORWARD(rec__ranges_add(out, rd64(rd, ctx, a[0] + 24), 4));
      return 0;
    }
    default:
      return 0;
  }
}

int rec__sc_outputs(u64 nr, const u64 args[6], i64 result, rec__read_fn rd,
                    void *ctx, struct rec__ranges *out) {
  const struct rec__sc *sc = rec__sc_lookup(nr);
  if (!sc) return 0;
  if (sc->flags & REC_SC_CUSTOM)
    RW_FORWARD(custom_outputs(nr, args, result, rd, ctx, out));
  for (int i = 0; i < 3; i++) {
    const struct rec__out *o = &sc->out[i];
    if (o->kind == REC_OUT_NONE) continue;
    if (result < 0 && o->kind == REC_OUT_LENPTR && args[o->b]) {
      /* The kernel may write the length and then fail (EFAULT). */
      RW_FORWARD(rec__ranges_add(out, args[o->b], 4));
      continue;
    }
    if (result < 0 && !(o->flags & REC_OUTF_ONERR)) continue;
    u64 ptr = args[o->a], n = 0;
    u64 ures = result > 0 ? (u64)result : 0;
    switch ((enum rec__out_kind)o->kind) {
      case REC_OUT_FIXED:
        n = o->n;
        break;
      case REC_OUT_RET:
        n = ures;
        break;
      case REC_OUT_ARGLEN:
        n = args[o->b];
        break;
      case REC_OUT_RETMUL:
        n = ures * o->n;
        break;
      case REC_OUT_ARGMUL:
        n = (args[o->b] & 0xffffffffu) * o->n;
        break;
      case REC_OUT_LENPTR:
        if (!args[o->b]) break;
        /* The length word is written back even without a buffer. */
        RW_FORWARD(rec__ranges_add(out, args[o->b], 4));
        if (ptr) n = RW_MIN(rd32(rd, ctx, args[o->b]), 65536u);
        break;
      case REC_OUT_IOV:
        RW_FORWARD(add_iov(out, rd, ctx, ptr, args[o->b], ures));
        break;
      case REC_OUT_FDSET:
        n = ((args[o->b] & 0xffffffffu) + 63) / 64 * 8;
        break;
      case REC_OUT_NONE:
      case REC_OUT_CUSTOM:
        break;
    }
    /* A length that cannot be real (a negative int passed as size) is
     * clamped; the reads stop at the first unreadable page anyway. */
    if (n > (1ull << 40)) n = 1ull << 40;
    RW_FORWARD(rec__ranges_add(out, ptr, n));
  }
  return 0;
}
