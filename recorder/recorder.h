/* SPDX-License-Identifier: MIT */
/* The ptrace recorder (DESIGN.md sections 2 and 3). Placeholder. */
#ifndef RW_RECORDER_RECORDER_H
#define RW_RECORDER_RECORDER_H
#endif
