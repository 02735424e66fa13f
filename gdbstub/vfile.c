/* SPDX-License-Identifier: MIT */
/* Host I/O (vFile packets) over the files embedded in the trace, so that
 * gdb's default sysroot "target:" loads the program and its libraries from
 * the recording even where the original files no longer exist. Files are
 * read-only; the host's file system is never touched. /proc/PID/maps (and
 * a thread's) is made up from the replay's mappings at the current
 * position: gdb finds the vDSO's extent there, and `info proc mappings`
 * shows it; cmdline and environ are the trace's, for the program the
 * recording began with (`info proc`). GDB_SBLIB_PATH is the syscall buffer's library, kept in the
 * trace's metadata. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/format.h"
#include "gdbstub/serve_int.h"

/* gdb File-I/O errno values (not the host's). */
enum {
  FIO_ENOENT = 2,
  FIO_EBADF = 9,
  FIO_EACCES = 13,
  FIO_EINVAL = 22,
  FIO_EMFILE = 24,
  FIO_EROFS = 30
};

static struct rp_file *file_of(struct gdb__sess *s, i64 fd) {
  if (fd < 0 || fd >= GDB__NFILES || !s->files[fd].used) return NULL;
  return &s->files[fd].f;
}

/* "/proc/PID/exe" names the program itself. */
static int is_proc_exe(struct gdb__sess *s, const char *name, char *dst,
                       size_t cap) {
  struct rp_image img;
  char want[64];
  if (rp_get_image(s->rp, &img) < 0 || !img.path) return 0;
  snprintf(want, sizeof want, "/proc/%u/exe", img.pid);
  if (strcmp(name, want) && strcmp(name, "/proc/self/exe")) return 0;
  snprintf(dst, cap, "%s", img.path);
  return 1;
}

/* The file NAME names in /proc/self/, /proc/PID/ or /proc/PID/task/TID/
 * ("maps", "cmdline"), or NULL for another name. */
static const char *proc_leaf(const char *name) {
  const char *p = name;
  if (strncmp(p, "/proc/", 6)) return NULL;
  p += 6;
  if (!strncmp(p, "self/", 5)) {
    p += 5;
  } else {
    if (!(*p >= '0' && *p <= '9')) return NULL;
    while (*p >= '0' && *p <= '9') p++;
    if (*p++ != '/') return NULL;
    if (!strncmp(p, "task/", 5)) {
      p += 5;
      if (!(*p >= '0' && *p <= '9')) return NULL;
      while (*p >= '0' && *p <= '9') p++;
      if (*p++ != '/') return NULL;
    }
  }
  return p;
}

/* /proc/PID/cmdline or environ (KEY: the trace's metadata of that name)
 * into a new buffer *OUT of *LEN bytes, each string ending with a NUL as
 * the kernel gives them: the recording's own, for the program it began
 * with (`info proc`). Returns 0, or -1 for another program. */
static int proc_strings(struct gdb__sess *s, const char *key, char **out,
                        size_t *len) {
  struct rp_image img;
  size_t cap = 1u << 20;
  if (rp_get_image(s->rp, &img) < 0 || !img.first) return -1;
  char *text = malloc(cap);
  int n = text ? rp_meta(s->rp, key, text, cap - 1) : -1;
  if (n < 0) {
    free(text);
    return -1;
  }
  if (n > 0 && text[n - 1]) text[n++] = 0;
  *out = text;
  *len = (size_t)n;
  return 0;
}

static void put_fd(struct gdb__sess *s, const struct rp_file *f, char *text,
                   size_t tlen) {
  for (int fd = 0; fd < GDB__NFILES; fd++) {
    if (s->files[fd].used) continue;
    s->files[fd].used = 1;
    if (f) s->files[fd].f = *f;
    s->files[fd].text = text;
    s->files[fd].tlen = tlen;
    gdb_reply_fio(&s->reply, fd, 0);
    return;
  }
  free(text);
  gdb_reply_fio(&s->reply, -1, FIO_EMFILE);
}

static void vopen(struct gdb__sess *s) {
  const struct gdb_request *q = &s->req;
  char path[GDB_TEXT_MAX];
  struct rp_file f;
  if (q->u.file.flags & (GDB_FIO_O_WRONLY | GDB_FIO_O_RDWR | GDB_FIO_O_CREAT |
                         GDB_FIO_O_TRUNC | GDB_FIO_O_APPEND)) {
    gdb_reply_fio(&s->reply, -1, FIO_EROFS);
    return;
  }
  const char *leaf = proc_leaf(q->text);
  if (leaf && (!strcmp(leaf, "maps") || !strcmp(leaf, "cmdline") ||
               !strcmp(leaf, "environ"))) {
    char *text;
    size_t len;
    if (!strcmp(leaf, "maps") ? rp_maps_text(s->rp, &text, &len) < 0
        : proc_strings(s, !strcmp(leaf, "cmdline") ? TRACE_META_CMDLINE
                                                    : TRACE_META_ENVIRON,
                       &text, &len) < 0) {
      gdb_reply_fio(&s->reply, -1, leaf[0] == 'm' ? FIO_EACCES : FIO_ENOENT);
      return;
    }
    memset(&f, 0, sizeof f);
    f.size = len;
    put_fd(s, &f, text, len);
    return;
  }
  if (!strcmp(q->text, GDB_SBLIB_PATH)) {
    /* The syscall buffer's library, as the trace keeps it (ELF with
     * symbols and unwind tables): `add-symbol-file target:/rewind/sblib`. */
    size_t cap = 1u << 20;
    char *text = malloc(cap);
    int n = text ? rp_meta(s->rp, TRACE_META_SBLIB, text, cap) : -1;
    if (n <= 0 || (size_t)n >= cap - 1) {
      free(text);
      gdb_reply_fio(&s->reply, -1, text ? FIO_ENOENT : FIO_EMFILE);
      return;
    }
    memset(&f, 0, sizeof f);
    f.size = (u64)n;
    put_fd(s, &f, text, (size_t)n);
    return;
  }
  if (!is_proc_exe(s, q->text, path, sizeof path))
    snprintf(path, sizeof path, "%s", q->text);
  if (rp_file_find(s->rp, path, &f) < 0) {
    gdb_reply_fio(&s->reply, -1, FIO_ENOENT);
    return;
  }
  put_fd(s, &f, NULL, 0);
}

static void vpread(struct gdb__sess *s) {
  const struct gdb_request *q = &s->req;
  static u8 buf[GDB_DATA_MAX];
  struct rp_file *f = file_of(s, q->u.file.fd);
  if (!f) {
    gdb_reply_fio(&s->reply, -1, FIO_EBADF);
    return;
  }
  size_t want = (size_t)RW_MIN(q->u.file.count, (u64)sizeof buf);
  const char *text = s->files[q->u.file.fd].text;
  size_t tlen = s->files[q->u.file.fd].tlen;
  i64 got;
  if (text) {
    u64 off = RW_MIN(q->u.file.off, (u64)tlen);
    got = (i64)RW_MIN((u64)want, tlen - off);
    memcpy(buf, text + off, (size_t)got);
  } else {
    got = rp_file_read(s->rp, f, q->u.file.off, buf, want);
  }
  if (got < 0) {
    gdb_reply_fio(&s->reply, -1, FIO_EINVAL);
    return;
  }
  /* Format: F count;binary-data (as many bytes as fit once escaped) */
  size_t n = gdb_bin_fit(buf, (size_t)got, GDB_PACKET_MAX - 32);
  gdb_reply_fio(&s->reply, (i64)n, 0);
  gdb_buf_puts(&s->reply, ";");
  gdb_buf_put_bin(&s->reply, buf, n);
}

static void vfstat(struct gdb__sess *s) {
  struct rp_file *f = file_of(s, s->req.u.file.fd);
  struct gdb_fio_stat st;
  if (!f) {
    gdb_reply_fio(&s->reply, -1, FIO_EBADF);
    return;
  }
  memset(&st, 0, sizeof st);
  st.ino = (u32)f->hash[0] << 24 | (u32)f->hash[1] << 16 |
           (u32)f->hash[2] << 8 | f->hash[3];
  st.mode = 0100555; /* a regular file, read-only */
  st.nlink = 1;
  st.size = f->size;
  st.blksize = 4096;
  st.blocks = (f->size + 511) / 512;
  gdb_reply_fstat(&s->reply, &st);
}

static void vreadlink(struct gdb__sess *s) {
  char target[GDB_TEXT_MAX];
  if (!is_proc_exe(s, s->req.text, target, sizeof target)) {
    gdb_reply_fio(&s->reply, -1, FIO_ENOENT);
    return;
  }
  /* Format: F length;target-bytes */
  size_t n = gdb_bin_fit(target, strlen(target), GDB_PACKET_MAX - 32);
  gdb_reply_fio(&s->reply, (i64)n, 0);
  gdb_buf_puts(&s->reply, ";");
  gdb_buf_put_bin(&s->reply, target, n);
}

void gdb__vfile(struct gdb__sess *s) {
  const struct gdb_request *q = &s->req;
  switch ((int)q->kind) {
    case GDB_REQ_VFILE_SETFS: /* Format: vFile:setfs:pid */
      /* One file system: the trace's, whatever process gdb names. */
      gdb_reply_fio(&s->reply, 0, 0);
      return;
    case GDB_REQ_VFILE_OPEN: /* Format: vFile:open:filename,flags,mode */
      vopen(s);
      return;
    case GDB_REQ_VFILE_PREAD: /* Format: vFile:pread:fd,count,offset */
      vpread(s);
      return;
    case GDB_REQ_VFILE_CLOSE: /* Format: vFile:close:fd */
      if (!file_of(s, q->u.file.fd)) {
        gdb_reply_fio(&s->reply, -1, FIO_EBADF);
        return;
      }
      s->files[q->u.file.fd].used = 0;
      free(s->files[q->u.file.fd].text);
      s->files[q->u.file.fd].text = NULL;
      gdb_reply_fio(&s->reply, 0, 0);
      return;
    case GDB_REQ_VFILE_FSTAT: /* Format: vFile:fstat:fd */
      vfstat(s);
      return;
    case GDB_REQ_VFILE_READLINK: /* Format: vFile:readlink:filename */
      vreadlink(s);
      return;
    default:
      gdb_reply_fio(&s->reply, -1, FIO_EACCES);
      return;
  }
}

void gdb__vfile_free(struct gdb__sess *s) {
  for (int fd = 0; fd < GDB__NFILES; fd++) {
    free(s->files[fd].text);
    s->files[fd].text = NULL;
    s->files[fd].used = 0;
  }
}
