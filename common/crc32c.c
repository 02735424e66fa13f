/* SPDX-License-Identifier: MIT */
/* Placeholder. */
#include "rw.h"
