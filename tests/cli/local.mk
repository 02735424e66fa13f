# SPDX-License-Identifier: MIT
# The command line as a new user meets it (tests/cli/ux.sh).
TESTS += tests/cli/ux.sh
EXTRA_DIST += tests/cli/ux.sh
