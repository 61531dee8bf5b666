/* Throughput of the dtype-conversion kernels beside memcpy of the same
 * number of bytes, measured in one run (best of several repetitions).
 *
 *   bench_convert [MiB of input per kernel, default 64] [repetitions, default 7]
 *
 * One line per kernel: input GB/s, memcpy GB/s of the same input bytes, and
 * the ratio kernel / memcpy (1.00 = as fast as copying the input). The input
 * is FP32 weights drawn like a trained layer's (roughly normal, sigma 0.02,
 * about 0.25% below the FP16 normal range), converted to each source type. */
#define _POSIX_C_SOURCE 199309L
#include <onnxslim.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

enum {
  F32_BF16,
  F32_BF16_TRUNC,
  F32_F16,
  F32_F16_SAT,
  F32_F16_FLUSH,
  BF16_F32,
  F16_F32,
  F64_F32,
  F32_F64,
  F16_BF16,
  BF16_F16,
  F32_BF16_STATS,
  F32_F16_STATS,
  NK
};
static const char *names[NK] = {
    "f32->bf16", "f32->bf16 truncate", "f32->f16",       "f32->f16 saturate", "f32->f16 flush",
    "bf16->f32", "f16->f32",           "f64->f32",       "f32->f64",          "f16->bf16",
    "bf16->f16", "f32->bf16 +stats",   "f32->f16 +stats"};
static const size_t in_size[NK] = {4, 4, 4, 4, 4, 2, 2, 8, 4, 2, 2, 4, 4};

static void *src_of[9];

static int run(int k, void *dst, size_t n) {
  onnxslim_convert_stats st = ONNXSLIM_CONVERT_STATS_INIT;
  switch (k) {
  case F32_BF16: return onnxslim_convert_f32_to_bf16(dst, src_of[0], n, 0, NULL);
  case F32_BF16_TRUNC:
    return onnxslim_convert_f32_to_bf16(dst, src_of[0], n, ONNXSLIM_CONVERT_TRUNCATE, NULL);
  case F32_F16: return onnxslim_convert_f32_to_f16(dst, src_of[0], n, 0, NULL);
  case F32_F16_SAT:
    return onnxslim_convert_f32_to_f16(dst, src_of[0], n, ONNXSLIM_CONVERT_SATURATE, NULL);
  case F32_F16_FLUSH:
    return onnxslim_convert_f32_to_f16(dst, src_of[0], n, ONNXSLIM_CONVERT_FLUSH_SUBNORMALS, NULL);
  case BF16_F32: return onnxslim_convert_bf16_to_f32(dst, src_of[1], n);
  case F16_F32: return onnxslim_convert_f16_to_f32(dst, src_of[2], n);
  case F64_F32: return onnxslim_convert_f64_to_f32(dst, src_of[3], n, 0, NULL);
  case F32_F64: return onnxslim_convert_f32_to_f64(dst, src_of[0], n);
  case F16_BF16: return onnxslim_convert_f16_to_bf16(dst, src_of[2], n, 0, NULL);
  case BF16_F16: return onnxslim_convert_bf16_to_f16(dst, src_of[1], n, 0, NULL);
  case F32_BF16_STATS: return onnxslim_convert_f32_to_bf16(dst, src_of[0], n, 0, &st);
  case F32_F16_STATS: return onnxslim_convert_f32_to_f16(dst, src_of[0], n, 0, &st);
  }
  return -1;
}

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
  if (!f32 || !f64 || !bf16 || !f16 || !dst || !copy) {
    fprintf(stderr, "out of memory\n");
    return 1;
  }
  for (size_t i = 0; i < n32; i++) { /* Irwin-Hall approximation of N(0, 0.02^2) */
    double z = uniform() + uniform() + uniform() + uniform() - 2.0;
    f32[i] = (float)(z * 0.02 * 1.7320508);
  }
  for (size_t i = 0; i < bytes / 8; i++) f64[i] = f32[i % n32];
  float *tmp = malloc(bytes * 2);
  if (!tmp) return 1;
  for (size_t i = 0; i < bytes / 2; i++) tmp[i] = f32[i % n32];
  onnxslim_convert_f32_to_bf16(bf16, tmp, bytes / 2, 0, NULL);
  onnxslim_convert_f32_to_f16(f16, tmp, bytes / 2, 0, NULL);
  free(tmp);
  src_of[0] = f32, src_of[1] = bf16, src_of[2] = f16, src_of[3] = f64;
  memset(dst, 1, bytes * 2);
  memset(copy, 1, bytes);

  printf(
      "conversion kernels: %zu MiB of input each, best of %d, ratio = kernel / memcpy of "
      "the input bytes\n",
      mib, reps);
  printf("%-20s %10s %10s %7s\n", "kernel", "GB/s in", "memcpy", "ratio");
  int rc = 0;
  for (int k = 0; k < NK; k++) {
    size_t n = bytes / in_size[k];
    const void *in = src_of[k == BF16_F32 || k == BF16_F16  ? 1
                            : k == F16_F32 || k == F16_BF16 ? 2
                            : k == F64_F32                  ? 3
                                                            : 0];
    double best_k = 1e30, best_m = 1e30;
    for (int r = 0; r < reps; r++) {
      double t0 = now();
      memcpy(copy, in, bytes);
      double t1 = now();
      if (run(k, dst, n) != 0) rc = 1;
      double t2 = now();
      if (t1 - t0 < best_m) best_m = t1 - t0;
      if (t2 - t1 < best_k) best_k = t2 - t1;
    }
    double gk = (double)bytes / best_k * 1e-9, gm = (double)bytes / best_m * 1e-9;
    printf("%-20s %10.2f %10.2f %7.2f\n", names[k], gk, gm, gk / gm);
  }
  /* keep the outputs alive */
  unsigned sum = 0;
  for (size_t i = 0; i < bytes; i += 4096) sum += dst[i] + copy[i];
  if (sum == 12345678u) printf("\n");
  free(f32), free(f64), free(bf16), free(f16), free(dst), free(copy);
  return rc;
}
