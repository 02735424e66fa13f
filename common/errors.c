/* SPDX-License-Identifier: MIT */
/* Error messages and diagnostics: rw_strerror() maps a negative code to its
 * message from errors.def or strerror(), and rw_diag_set() fills a diagnostic. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "rw.h"

const char *rw_strerror(int code) {
  switch (code) {
    case 0:
      return "success";
#define RW_XERR(name, value, msg) \
  case name:                      \
    return msg;
#include "errors.def"
#undef RW_XERR
    default:
      break;
  }
  if (code < 0 && code > -1000) return strerror(-code);
  return "unknown error";
}

int rw_diag_set(struct rw_diag *diag, int code, u64 offset, const char *fmt,
                ...) {
  if (diag) {
    va_list ap;
    diag->code = code;
    diag->offset = offset;
    va_start(ap, fmt);
    vsnprintf(diag->msg, sizeof diag->msg, fmt, ap);
    va_end(ap);
  }
  return code;
}
