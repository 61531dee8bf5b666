/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* Throughput of the dtype-conversion kernels beside memcpy of the same
 * number of bytes, for every kernel path this CPU has (scalar reference,
 * AVX2, AVX-512; lib/kernels/convert_simd.h), measured in one run (best of
 * several repetitions, memcpy, conversion and conversion with statistics
 * interleaved in each, their order rotated from one repetition to the next:
 * what runs right after a memcpy of 64 MiB was measured 5-8% slower, so
 * each of the three takes every place in turn).
 *
 *   bench_convert [MiB of input per kernel, default 64] [repetitions, default 7]
 *
 * One line per kernel and path: input GB/s, memcpy GB/s of the same input
 * bytes, their ratio (1.00 = as fast as copying the input), the GB/s with the
 * report's statistics computed in the same call, its ratio to memcpy, and
 * the time with statistics / the time without. Then the verdicts, one set
 * per path this CPU has: the SIMD paths (AVX2, AVX-512) must meet the
 * targets, whichever the dispatcher picks (an AVX2-only CPU runs the AVX2
 * path); the scalar reference's are printed for information. The input is
 * FP32 weights drawn
 * like a trained layer's (roughly normal, sigma 0.02, about 0.25% below the
 * FP16 normal range), converted to each source type.
 *
 * It calls the library's internal kernel table and path selection, so it is
 * linked with the library's objects (bench/sections/20-kernels.sh). */
#define _POSIX_C_SOURCE 199309L
#include <onnxslim.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kernels/convert_kernels.h"
#include "kernels/convert_simd.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t rng = 0x9E3779B97F4A7C15u;
static double uniform(void) { /* xorshift64*, [0, 1) */
  rng ^= rng >> 12;
  rng ^= rng << 25;
  rng ^= rng >> 27;
  return (double)((rng * 0x2545F4914F6CDD1Du) >> 11) * 0x1p-53;
}

#define F ONNXSLIM_DTYPE_FLOAT
#define H ONNXSLIM_DTYPE_FLOAT16
#define BF ONNXSLIM_DTYPE_BFLOAT16
#define D ONNXSLIM_DTYPE_DOUBLE

static const struct row {
  const char *name;
  int32_t from, to;
  unsigned int flags;
} rows[] = {
    {"f32->bf16", F, BF, 0},
    {"f32->bf16 truncate", F, BF, ONNXSLIM_CONVERT_TRUNCATE},
    {"f32->f16", F, H, 0},
    {"f32->f16 saturate", F, H, ONNXSLIM_CONVERT_SATURATE},
    {"f32->f16 flush", F, H, ONNXSLIM_CONVERT_FLUSH_SUBNORMALS},
    {"bf16->f32", BF, F, 0},
    {"f16->f32", H, F, 0},
    {"f64->f32", D, F, 0},
    {"f32->f64", F, D, 0},
    {"f16->bf16", H, BF, 0},
    {"bf16->f16", BF, H, 0},
};
#define NROWS (sizeof rows / sizeof rows[0])

int main(int argc, char **argv) {
  size_t mib = argc > 1 ? (size_t)atol(argv[1]) : 64;
  int reps = argc > 2 ? atoi(argv[2]) : 7;
  if (mib < 1 || reps < 1) {
    fprintf(stderr, "usage: bench_convert [MiB] [repetitions]\n");
    return 2;
  }
  size_t bytes = mib << 20;
  /* Each kernel reads `bytes` of input: n = bytes / input element size. */
  size_t n32 = bytes / 4;
  float *f32 = malloc(n32 * 4);
  double *f64 = malloc(bytes);
  uint16_t *bf16 = malloc(bytes), *f16 = malloc(bytes);
  unsigned char *dst = malloc(bytes * 2), *copy = malloc(bytes);
  float *tmp = malloc(bytes * 2);
  if (!f32 || !f64 || !bf16 || !f16 || !dst || !copy || !tmp) {
    fprintf(stderr, "out of memory\n");
    return 1;
  }
  for (size_t i = 0; i < n32; i++) { /* Irwin-Hall approximation of N(0, 0.02^2) */
    double z = uniform() + uniform() + uniform() + uniform() - 2.0;
    f32[i] = (float)(z * 0.02 * 1.7320508);
  }
  for (size_t i = 0; i < bytes / 8; i++) f64[i] = f32[i % n32];
  for (size_t i = 0; i < bytes / 2; i++) tmp[i] = f32[i % n32];
  onnxslim_convert_f32_to_bf16(bf16, tmp, bytes / 2, 0, NULL);
  onnxslim_convert_f32_to_f16(f16, tmp, bytes / 2, 0, NULL);
  free(tmp);
  memset(dst, 1, bytes * 2);
  memset(copy, 1, bytes);

  int picked = onnxslim__convert_path();
  printf(
      "conversion kernels: %zu MiB of input each, best of %d; ratio = GB/s / memcpy GB/s of "
      "the input bytes; stats/conv = time with statistics / time without\n",
      mib, reps);
  printf("paths on this CPU:");
  for (int p = 0; p < OSL_PATH_COUNT; p++)
    if (onnxslim__convert_path_available(p)) printf(" %s", onnxslim__convert_path_name(p));
  printf("; the dispatcher picks %s%s\n", onnxslim__convert_path_name(picked),
         onnxslim__convert_path_requested() >= 0 ? " (LIBONNXSLIM_KERNELS)" : "");
  printf("%-20s %-7s %8s %8s %6s %9s %6s %11s\n", "kernel", "path", "GB/s in", "memcpy", "ratio",
         "+stats", "ratio", "stats/conv");
  /* per path: the lowest ratios to memcpy and the highest cost of stats */
  double worst_conv[OSL_PATH_COUNT], worst_stats[OSL_PATH_COUNT], worst_cost[OSL_PATH_COUNT];
  const char *worst_conv_name[OSL_PATH_COUNT], *worst_stats_name[OSL_PATH_COUNT],
      *worst_cost_name[OSL_PATH_COUNT];
  for (int p = 0; p < OSL_PATH_COUNT; p++) {
    worst_conv[p] = worst_stats[p] = 1e30, worst_cost[p] = 0;
    worst_conv_name[p] = worst_stats_name[p] = worst_cost_name[p] = "";
  }
  int rc = 0;
  for (size_t r = 0; r < NROWS; r++) {
    const osl_convert_kernel *k = onnxslim__convert_kernel(rows[r].from, rows[r].to);
    if (!k) return 1;
    const void *in = rows[r].from == F    ? (const void *)f32
                     : rows[r].from == D  ? (const void *)f64
                     : rows[r].from == BF ? (const void *)bf16
                                          : (const void *)f16;
    size_t n = bytes / k->from_size;
    for (int p = 0; p < OSL_PATH_COUNT; p++) {
      if (onnxslim__convert_set_path(p) != 0) continue;
      double best_k = 1e30, best_m = 1e30, best_s = 1e30;
      for (int rep = 0; rep < reps; rep++) {
        onnxslim_convert_stats st = ONNXSLIM_CONVERT_STATS_INIT;
        double tm = 0, tk = 0, ts = 0;
        for (int j = 0; j < 3; j++) {
          int w = (j + rep) % 3;
          double t0 = now();
          if (w == 0) memcpy(copy, in, bytes);
          else if (w == 1) k->fn(dst, in, n, rows[r].flags, NULL);
          else k->fn(dst, in, n, rows[r].flags, &st);
          double t1 = now();
          if (w == 0) tm = t1 - t0;
          else if (w == 1) tk = t1 - t0;
          else ts = t1 - t0;
        }
        if (st.count != n) rc = 1;
        if (tm < best_m) best_m = tm;
        if (tk < best_k) best_k = tk;
        if (ts < best_s) best_s = ts;
      }
      double gk = (double)bytes / best_k * 1e-9, gm = (double)bytes / best_m * 1e-9;
      double gs = (double)bytes / best_s * 1e-9;
      printf("%-20s %-7s %8.2f %8.2f %6.2f %9.2f %6.2f %11.2f\n", rows[r].name,
             onnxslim__convert_path_name(p), gk, gm, gk / gm, gs, gs / gm, best_s / best_k);
      if (gk / gm < worst_conv[p]) worst_conv[p] = gk / gm, worst_conv_name[p] = rows[r].name;
      if (gs / gm < worst_stats[p]) worst_stats[p] = gs / gm, worst_stats_name[p] = rows[r].name;
      if (best_s / best_k > worst_cost[p])
        worst_cost[p] = best_s / best_k, worst_cost_name[p] = rows[r].name;
    }
  }
  onnxslim__convert_set_path(-1);
  for (int p = 0; p < OSL_PATH_COUNT; p++) {
    if (!onnxslim__convert_path_available(p)) continue;
    /* the scalar reference is not held to the targets */
    const char *what = p == OSL_PATH_SCALAR ? "informative, not a target" : "target";
    const char *pn = onnxslim__convert_path_name(p);
#define VERDICT(ok) \
  (p == OSL_PATH_SCALAR ? ((ok) ? "would be met" : "would be missed") : ((ok) ? "met" : "MISSED"))
    printf("%s: every kernel >= 0.5 of memcpy (path %s): %s (lowest %.2f, %s)\n", what, pn,
           VERDICT(worst_conv[p] >= 0.5), worst_conv[p], worst_conv_name[p]);
    printf("%s: every kernel with statistics >= 0.5 of memcpy (path %s): %s (lowest %.2f, %s)\n",
           what, pn, VERDICT(worst_stats[p] >= 0.5), worst_stats[p], worst_stats_name[p]);
    printf("%s: statistics cost <= 2x the conversion alone (path %s): %s (highest %.2fx, %s)\n",
           what, pn, VERDICT(worst_cost[p] <= 2.0), worst_cost[p], worst_cost_name[p]);
#undef VERDICT
  }
  /* keep the outputs alive */
  unsigned sum = 0;
  for (size_t i = 0; i < bytes; i += 4096) sum += dst[i] + copy[i];
  if (sum == 12345678u) printf("\n");
  free(f32), free(f64), free(bf16), free(f16), free(dst), free(copy);
  return rc;
}
