# SPDX-License-Identifier: MIT
# The command line as a new user meets it (tests/cli/ux.sh), and rewind
# installed with `make install` (tests/cli/install.sh).
TESTS += tests/cli/ux.sh tests/cli/install.sh
EXTRA_DIST += tests/cli/ux.sh tests/cli/install.sh
