/* SPDX-License-Identifier: MIT */
/* Test program, time: clock_gettime, gettimeofday, time, nanosleep,
 * clock_nanosleep, times and getrusage. With the vDSO hidden, every time
 * query is a real syscall. Prints the CLOCK_REALTIME seconds it saw. */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/times.h>
#include <time.h>

int main(void) {
  struct timespec ts, mono, d = {0, 1000000};
  struct timeval tv;
  clock_gettime(CLOCK_REALTIME, &ts);
  clock_gettime(CLOCK_MONOTONIC, &mono);
  gettimeofday(&tv, NULL);
  time_t t = time(NULL);
  nanosleep(&d, NULL);
  clock_nanosleep(CLOCK_MONOTONIC, 0, &d, NULL);
  struct tms tm;
  times(&tm);
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  printf("realtime %lld tv %lld time %lld\n", (long long)ts.tv_sec,
         (long long)tv.tv_sec, (long long)t);
  return 0;
}
