/* SPDX-License-Identifier: MIT */
/* Replayer benchmark, floating-point vector code: a dense matrix product
 * and a polynomial over an array, in float and double. Built twice from
 * this source: -march=x86-64-v3 (AVX2 and FMA: vfmadd on ymm registers)
 * and -march=x86-64-v2 (SSE4.2: mulps/addps on xmm registers), so that
 * both replays do the same work and their speeds per instruction and per
 * element can be compared. Prints a checksum. */
#include <stdio.h>
#include <stdlib.h>

enum { N = 160, M = 1 << 16 };

static float fa[N][N], fb[N][N], fc[N][N];
static double da[N][N], db[N][N], dc[N][N];
static float fx[M], fy[M];
static double dx[M], dy[M];

static void matmul_f(void) {
  for (int i = 0; i < N; i++)
    for (int k = 0; k < N; k++) {
      float a = fa[i][k];
      for (int j = 0; j < N; j++) fc[i][j] += a * fb[k][j];
    }
}

static void matmul_d(void) {
  for (int i = 0; i < N; i++)
    for (int k = 0; k < N; k++) {
      double a = da[i][k];
      for (int j = 0; j < N; j++) dc[i][j] += a * db[k][j];
    }
}

static void poly(void) {
  for (int i = 0; i < M; i++) {
    float x = fx[i];
    fy[i] = (((0.25f * x + 0.5f) * x - 1.25f) * x + 2.0f) * x - 0.75f;
    double y = dx[i];
    dy[i] = (((0.125 * y - 0.5) * y + 1.5) * y - 2.0) * y + 0.25;
  }
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 8;
  unsigned x = 1;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      x = x * 1103515245u + 12345u;
      fa[i][j] = (float)(x >> 8) / 16777216.0f - 0.5f;
      fb[i][j] = (float)(x & 0xffff) / 65536.0f;
      da[i][j] = fa[i][j] * 0.5;
      db[i][j] = fb[i][j] * 2.0;
    }
  for (int i = 0; i < M; i++) {
    fx[i] = (float)i / M;
    dx[i] = 1.0 - (double)i / M;
  }
  double sum = 0;
  for (int r = 0; r < rounds; r++) {
    matmul_f();
    matmul_d();
    for (int p = 0; p < 8; p++) poly();
    sum += fc[r % N][r % N] + dc[N - 1 - r % N][r % N] + fy[r] + dy[M - 1 - r];
  }
  printf("%.9g\n", sum);
  return 0;
}
