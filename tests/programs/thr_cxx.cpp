// SPDX-License-Identifier: MIT
// Test program, threads in C++: 4 std::thread workers started with a
// lambda that captures its index, each counting the primes in its fifth
// of [0, 20000) with count_primes() and appending the count to a shared
// std::vector under a std::mutex (std::lock_guard); main joins them and
// prints the sorted counts and their sum, the same on every run.
#include <algorithm>
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

static std::mutex mu;
static std::vector<long> parts;

__attribute__((noinline)) long count_primes(long lo, long hi) {
  long n = 0;
  for (long v = lo < 2 ? 2 : lo; v < hi; v++) {
    bool prime = true;
    for (long d = 2; d * d <= v; d++)
      if (v % d == 0) {
        prime = false;
        break;
      }
    n += prime;
  }
  return n;
}

int main() {
  const long span = 5000;
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; i++)
    threads.emplace_back([i, span] {
      long n = count_primes(i * span, (i + 1) * span);
      std::lock_guard<std::mutex> hold(mu);
      parts.push_back(n);
    });
  for (auto &t : threads) t.join();
  std::sort(parts.begin(), parts.end());
  long total = 0;
  std::printf("cxx: parts");
  for (long p : parts) {
    std::printf(" %ld", p);
    total += p;
  }
  std::printf(", %ld primes below %ld\n", total, 4 * span);
  return total != 2262;
}
