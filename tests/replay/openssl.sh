#!/bin/bash
# SPDX-License-Identifier: MIT
# OpenSSL on its fast paths: the recorder sets no OPENSSL_ia32cap, so
# openssl takes its AES-NI, PCLMULQDQ, SHA, AVX2 (ChaCha20, with
# vbroadcasti128, which vexraw.c decodes), AVX-512 (VAES and VPCLMULQDQ
# for AES-GCM), BMI2 and ADX (X25519) code on a CPU that has them. Each recording gives the native output and its
# replay verifies.
. "${top_srcdir:-.}/tests/recorder/lib.sh"

command -v openssl >/dev/null || { echo "SKIP: no openssl"; exit 77; }
O=$(command -v openssl)
K=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
IV=0f0e0d0c0b0a09080706050403020100
python3 -c 'import random, sys; r = random.Random(7); sys.stdout.buffer.write(bytes(r.getrandbits(8) for _ in range(1 << 20)))' >"$T/data"
"$O" genpkey -algorithm x25519 -out "$T/a.pem" 2>/dev/null
"$O" genpkey -algorithm x25519 -out "$T/b.pem" 2>/dev/null
"$O" pkey -in "$T/b.pem" -pubout -out "$T/b.pub"

# NAME ARGS...: record openssl ARGS, compare with the native output and
# verify the replay.
one() {
  local name=$1
  shift
  local native
  native=$("$O" "$@" | sha256sum; echo "status ${PIPESTATUS[0]}")
  "$REWIND" record -o "$T/$name.rwd" -- "$O" "$@" >"$T/$name.bin" 2>"$T/$name.err"
  local st=$?
  check_eq "$name: same output as natively" "$native" \
    "$(sha256sum <"$T/$name.bin"; echo "status $st")"
  "$REWIND" replay --verify --no-progress "$T/$name.rwd" >"$T/$name.replay" 2>&1
  check_eq "$name: replay --verify exits 0" 0 "$?"
  grep -q '^replay verified: ' "$T/$name.replay" || head -n 20 "$T/$name.replay"
}

one aes-ctr enc -aes-256-ctr -K "$K" -iv "$IV" -in "$T/data"
one aes-cbc-dec enc -d -aes-128-cbc -nopad -K "${K:0:32}" -iv "$IV" -in "$T/data"
one chacha20 enc -chacha20 -K "$K" -iv "$IV" -in "$T/data"
one digests dgst -sha1 -sha256 -sha512 -sha3-256 -blake2b512 "$T/data"
one gmac mac -cipher AES-128-GCM -macopt "hexkey:${K:0:32}" -macopt "hexiv:${IV:0:24}" -in "$T/data" GMAC
one x25519 pkeyutl -derive -inkey "$T/a.pem" -peerkey "$T/b.pub"
finish
