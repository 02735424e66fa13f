# SPDX-License-Identifier: MIT
dist_man_MANS += man/rewind.1
