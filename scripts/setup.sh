#!/bin/bash
# SPDX-License-Identifier: MIT
# Sets up a Debian 12 (or Ubuntu) machine to build rewind: installs the
# packages that are missing with apt-get, generates the build system, and
# builds into a build directory.
#
#   scripts/setup.sh [BUILD_DIR [CONFIGURE_ARGS...]]
#
# BUILD_DIR defaults to build/. The packages are listed once, here.
set -euo pipefail
cd "$(dirname "$0")/.."
top=$PWD

packages=(
  build-essential autoconf automake pkg-config   # compiler and build system
  libzstd-dev libcapstone-dev libunwind-dev      # libraries rewind links
  libssl-dev                                     #   (libcrypto)
  libdw-dev                                      #   (DWARF line tables)
  libcunit1-dev                                  # unit tests
  clang libclang-rt-14-dev                       # libFuzzer for the fuzz targets
  gdb python3 python3-numpy nodejs strace coreutils gzip sqlite3 time openssl # end-to-end tests
  valgrind                                       # callgrind_annotate reads profiles
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
    missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo=
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ ! -x configure ] || [ configure.ac -nt configure ]; then
  echo "setup: generating the build system (autoreconf)"
  autoreconf -fi >/dev/null
fi

build=${1:-build}
shift || true
# A tree configured in place (./configure && make by hand) cannot also be
# built in a separate directory; clean the in-place build first.
if [ -f config.status ] && [ "$build" != . ]; then
  echo "setup: the source tree was configured in place; make distclean first"
  make distclean >/dev/null 2>&1 || rm -f config.status
fi
mkdir -p "$build"
cd "$build"
if [ ! -f Makefile ] || [ "$top/configure" -nt config.status ]; then
  echo "setup: configuring in $build ${*:-}"
  "$top/configure" -q "$@"
fi
echo "setup: building in $build"
make -s -j"$(nproc)" >/dev/null
