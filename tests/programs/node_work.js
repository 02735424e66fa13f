// SPDX-License-Identifier: MIT
// A small node program for tests/replay/node.sh: enough work for V8 to
// compile it optimized (its JIT writes code under protection keys where
// the kernel offers them), then a deterministic summary.
'use strict';
function primes(n) {
  const sieve = new Uint8Array(n + 1);
  let count = 0;
  for (let i = 2; i <= n; i++) {
    if (sieve[i]) continue;
    count++;
    for (let j = i * i; j <= n; j += i) sieve[j] = 1;
  }
  return count;
}
let total = 0;
for (let round = 0; round < 20; round++) total += primes(20000);
const doc = JSON.parse(JSON.stringify({ total, words: 'to be or not'.split(' ') }));
const f = new Float64Array(1000).map((_, i) => Math.sqrt(i));
console.log('primes', total, 'words', doc.words.length,
            'sum', f.reduce((a, b) => a + b, 0).toFixed(6));
