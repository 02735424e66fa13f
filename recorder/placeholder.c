/* SPDX-License-Identifier: MIT */
/* Placeholder. */
#include "recorder/recorder.h"
int rec__placeholder;
