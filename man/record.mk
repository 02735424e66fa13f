# SPDX-License-Identifier: MIT
# The page of `rewind record`.
dist_man_MANS += man/rewind-record.1
