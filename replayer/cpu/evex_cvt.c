/* SPDX-License-Identifier: MIT */
/* (being written) */
#include "replayer/cpu/evex.h"

const struct ev_row cpu__evex_cvt_rows[] = {
    {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, NULL}};
const size_t cpu__evex_cvt_nrows = 0;
