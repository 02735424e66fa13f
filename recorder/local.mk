# SPDX-License-Identifier: MIT
noinst_LIBRARIES += recorder/librw_recorder.a
recorder_librw_recorder_a_SOURCES = recorder/recorder.h recorder/placeholder.c
