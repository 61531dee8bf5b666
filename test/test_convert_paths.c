/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* The SIMD paths of the conversion kernels (lib/kernels/convert_simd.c)
 * against the scalar reference: for every path this CPU can run, every
 * kernel and every flag combination, with and without stats, the same bytes
 * and the same stats as the scalar reference, on every 16-bit input, random
 * bit patterns, and the values at each boundary of the numeric policy, at
 * lengths and offsets that exercise the vector loops, their tails and
 * unaligned buffers. Also the dispatch itself: LIBONNXSLIM_KERNELS, fallback to
 * an available path, the scalar code in a non-default floating-point
 * environment.
 *
 * This program calls the library's internal functions, so it is linked with
 * the library's objects (Makefile), not with the shared library. */
#define _GNU_SOURCE
#include <fenv.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <onnxslim.h>

#include "kernels/convert_kernels.h"
#include "kernels/convert_simd.h"
#include "t.h"

#define TRUNC ONNXSLIM_CONVERT_TRUNCATE
#define SAT ONNXSLIM_CONVERT_SATURATE
#define FLUSH ONNXSLIM_CONVERT_FLUSH_SUBNORMALS

static uint64_t rng = 0x243F6A8885A308D3u;
static uint64_t next_rand(void) { /* splitmix64 */
  uint64_t z = (rng += 0x9E3779B97F4A7C15u);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return z ^ (z >> 31);
}

static const osl_convert_fn scalar_fn[K_COUNT] = {
    [K_F32_BF16] = onnxslim__convert_scalar_f32_to_bf16,
    [K_F32_F16] = onnxslim__convert_scalar_f32_to_f16,
    [K_BF16_F32] = onnxslim__convert_scalar_bf16_to_f32,
    [K_F16_F32] = onnxslim__convert_scalar_f16_to_f32,
    [K_F64_F32] = onnxslim__convert_scalar_f64_to_f32,
    [K_F32_F64] = onnxslim__convert_scalar_f32_to_f64,
    [K_F16_BF16] = onnxslim__convert_scalar_f16_to_bf16,
    [K_BF16_F16] = onnxslim__convert_scalar_bf16_to_f16,
};
static const int32_t kdt[K_COUNT][2] = {
    [K_F32_BF16] = {ONNXSLIM_DTYPE_FLOAT, ONNXSLIM_DTYPE_BFLOAT16},
    [K_F32_F16] = {ONNXSLIM_DTYPE_FLOAT, ONNXSLIM_DTYPE_FLOAT16},
    [K_BF16_F32] = {ONNXSLIM_DTYPE_BFLOAT16, ONNXSLIM_DTYPE_FLOAT},
    [K_F16_F32] = {ONNXSLIM_DTYPE_FLOAT16, ONNXSLIM_DTYPE_FLOAT},
    [K_F64_F32] = {ONNXSLIM_DTYPE_DOUBLE, ONNXSLIM_DTYPE_FLOAT},
    [K_F32_F64] = {ONNXSLIM_DTYPE_FLOAT, ONNXSLIM_DTYPE_DOUBLE},
    [K_F16_BF16] = {ONNXSLIM_DTYPE_FLOAT16, ONNXSLIM_DTYPE_BFLOAT16},
    [K_BF16_F16] = {ONNXSLIM_DTYPE_BFLOAT16, ONNXSLIM_DTYPE_FLOAT16},
};

/* FP32 bit patterns at the boundaries of the policy (each also negated, and
 * with neighbours +-1, +-2 below). */
static const uint32_t edges32[] = {
    0x00000000, 0x00000001, 0x00007FFF, 0x00008000, 0x00400000, 0x007FFFFF, 0x00800000, 0x00FF8000,
    0x33000000, 0x33800000, 0x387FE000, 0x387FF000, 0x38800000, 0x3F800000, 0x3F808000, 0x3F818000,
    0x477FE000, 0x477FEFFF, 0x477FF000, 0x47800000, 0x7F7F7FFF, 0x7F7F8000, 0x7F7FFFFF, 0x7F800000,
    0x7F800001, 0x7FBFFFFF, 0x7FC00000, 0x7FFFFFFF, 0x33FFFFFF};

/* FP64 bit patterns: around FLT_MAX and its midpoint with 2^128, the FP32
 * subnormal range and the smallest subnormal's half, Inf, NaNs. */
static const uint64_t edges64[] = {
    0x0000000000000000, 0x0000000000000001, 0x36A0000000000000, 0x3690000000000000,
    0x3690000000000001, 0x380FFFFFF0000000, 0x380FFFFFE0000000, 0x3810000000000000,
    0x3FF0000010000000, 0x3FF0000030000000, 0x47EFFFFFE0000000, 0x47EFFFFFEFFFFFFF,
    0x47EFFFFFF0000000, 0x47F0000000000000, 0x7FEFFFFFFFFFFFFF, 0x7FF0000000000000,
    0x7FF0000000000001, 0x7FF8000000000000, 0x7FF7FFFFFFFFFFFF, 0x7FFFFFFFFFFFFFFF};

/* Fills buf with n inputs of `size` bytes: edges and their neighbours,
 * typical magnitudes and random patterns, mixed. For 16-bit inputs n >= 65536
 * covers every pattern once, then random ones. With `typical`, only normal
 * values of moderate magnitude (no underflow, so the maximum relative error
 * is below 1 and grows by small steps: the stats' filter of candidate maxima
 * must not miss one). */
static void fill(unsigned char *buf, size_t n, unsigned size, int typical) {
  for (size_t i = 0; i < n; i++) {
    uint64_t r = next_rand();
    if (typical) r = size == 8 ? r - r % 4 + 2 : r - r % 3 + 1; /* "typical magnitudes" only */
    if (size == 2) {
      uint16_t v = i < 65536 ? (uint16_t)i : (uint16_t)r;
      memcpy(buf + 2 * i, &v, 2);
    } else if (size == 4) {
      uint32_t v = (uint32_t)r;
      if (r % 3 == 0) { /* near an edge */
        v = edges32[(r >> 8) % (sizeof edges32 / 4)] + (uint32_t)((r >> 16) % 5) - 2u;
        v ^= (uint32_t)(r >> 40 & 1) << 31;
      } else if (r % 3 == 1) { /* typical magnitudes */
        v = (uint32_t)(r >> 20) % 0x0C000000u + 0x34000000u;
      }
      memcpy(buf + 4 * i, &v, 4);
    } else {
      uint64_t v = r;
      if (r % 4 == 0) {
        v = edges64[(r >> 8) % (sizeof edges64 / 8)] + ((r >> 16) % 5) - 2u;
        v ^= (r >> 40 & 1) << 63;
      } else if (r % 4 == 1) { /* an FP32 value, maybe exactly (midpoints, ties) */
        uint32_t f = (uint32_t)(r >> 24);
        v = ((uint64_t)(f & 0x80000000u) << 32) |
            ((uint64_t)(((f >> 23) & 0xFF) + 1023 - 127) << 52) | ((uint64_t)(f & 0x7FFFFF) << 29);
        v += (r >> 8 & 1) ? 0x10000000u : 0; /* the midpoint to the next */
        v += (r >> 9 & 3) - 1u;
      } else if (r % 4 == 2) { /* typical magnitudes */
        v = (r >> 12) % 0x0200000000000000u + 0x3E00000000000000u;
      }
      memcpy(buf + 8 * i, &v, 8);
    }
  }
}

static int stats_equal(const onnxslim_convert_stats *a, const onnxslim_convert_stats *b) {
  return a->count == b->count && a->nan == b->nan && a->to_inf == b->to_inf &&
         a->saturated == b->saturated && a->flushed == b->flushed &&
         a->max_abs_error == b->max_abs_error && a->max_rel_error == b->max_rel_error;
}

static int paths_tried;

TEST(every_path_same_results) {
  enum { N = 200000 };
  unsigned char *in = calloc(1, (size_t)N * 8 + 64), *want = malloc((size_t)N * 8 + 64),
                *got = malloc((size_t)N * 8 + 64);
  CHECK(in && want && got);
  if (!in || !want || !got) return;
  static const unsigned int flag_sets[] = {
      0, TRUNC, SAT, FLUSH, TRUNC | SAT, TRUNC | FLUSH, SAT | FLUSH, TRUNC | SAT | FLUSH};
  /* lengths: whole vectors, tails, a partial stats chunk, an odd number of
   * vectors for each path (the loops take two at a time); offsets: unaligned */
  static const size_t lens[] = {0, 1, 7, 15, 16, 17, 33, 100, 115, 1000, 65536 + 77, N};
  for (int p = OSL_PATH_SCALAR + 1; p < OSL_PATH_COUNT; p++) {
    if (!onnxslim__convert_path_available(p)) {
      fprintf(stderr, "path %s: not on this CPU\n", onnxslim__convert_path_name(p));
      continue;
    }
    CHECK_OK(onnxslim__convert_set_path(p));
    CHECK(onnxslim__convert_path() == p);
    paths_tried++;
    int bad = 0;
    for (int kind = 0; kind < K_COUNT; kind++) {
      const osl_convert_kernel *k = onnxslim__convert_kernel(kdt[kind][0], kdt[kind][1]);
      CHECK(k != NULL && onnxslim__convert_simd(kind) != NULL);
      if (!k) continue;
      for (int typical = 0; typical < 2; typical++) {
        fill(in + 3, N, k->from_size, typical);
        for (size_t f = 0; f < sizeof flag_sets / sizeof flag_sets[0]; f++) {
          unsigned int fl = flag_sets[f];
          if (fl & ~k->flags_allowed) continue;
          for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
            size_t n = lens[li], off = li % 3 ? 3 : 0, doff = li % 2;
            for (int with_stats = 0; with_stats < 2; with_stats++) {
              onnxslim_convert_stats sw = ONNXSLIM_CONVERT_STATS_INIT,
                                     sg = ONNXSLIM_CONVERT_STATS_INIT;
              memset(want, 0x5A, (size_t)N * 8 + 64);
              memset(got, 0x5A, (size_t)N * 8 + 64);
              scalar_fn[kind](want + doff, in + off, n, fl, with_stats ? &sw : NULL);
              k->fn(got + doff, in + off, n, fl, with_stats ? &sg : NULL);
              if (memcmp(want, got, (size_t)N * 8 + 64) != 0 || !stats_equal(&sw, &sg)) {
                if (bad++ < 5) {
                  size_t i = 0;
                  while (i < n * k->to_size && want[doff + i] == got[doff + i]) i++;
                  fprintf(stderr,
                          "path %s %s flags %u n %zu stats %d: first byte differing %zu "
                          "(element %zu); stats nan %llu/%llu inf %llu/%llu sat %llu/%llu "
                          "flush %llu/%llu abs %g/%g rel %g/%g\n",
                          onnxslim__convert_path_name(p), k->name, fl, n, with_stats, i,
                          i / k->to_size, (unsigned long long)sw.nan, (unsigned long long)sg.nan,
                          (unsigned long long)sw.to_inf, (unsigned long long)sg.to_inf,
                          (unsigned long long)sw.saturated, (unsigned long long)sg.saturated,
                          (unsigned long long)sw.flushed, (unsigned long long)sg.flushed,
                          sw.max_abs_error, sg.max_abs_error, sw.max_rel_error, sg.max_rel_error);
                }
              }
            }
          }
        }
      }
    }
    CHECK(bad == 0);
  }
  CHECK_OK(onnxslim__convert_set_path(-1));
  free(in), free(want), free(got);
}

/* The stats of the SIMD paths see every element: NaN, Inf, saturated and
 * flushed counts on a buffer where each occurs at a known place. */
TEST(stats_counts_every_path) {
  enum { N = 1003 };
  static float in[N];
  static uint16_t out[N];
  for (int i = 0; i < N; i++) in[i] = 0.5f + (float)i / 1024.0f;
  uint32_t nan = 0x7FC01234u, big = 0x4F000000u, tiny = 0x33000001u;
  memcpy(&in[17], &nan, 4), memcpy(&in[500], &big, 4), memcpy(&in[1001], &tiny, 4);
  memcpy(&in[640], &tiny, 4);
  for (int p = 0; p < OSL_PATH_COUNT; p++) {
    if (onnxslim__convert_set_path(p) != 0) continue;
    onnxslim_convert_stats st = ONNXSLIM_CONVERT_STATS_INIT;
    CHECK_OK(onnxslim_convert_f32_to_f16(out, in, N, SAT | FLUSH, &st));
    CHECK(st.count == N && st.nan == 1 && st.saturated == 1 && st.to_inf == 0 && st.flushed == 2);
    CHECK(out[500] == 0x7BFF && out[17] == 0x7E00 + (0x1234 >> 13) && out[1001] == 0);
  }
  CHECK_OK(onnxslim__convert_set_path(-1));
}

TEST(dispatch_env_and_fallback) {
  CHECK(onnxslim__convert_path_available(OSL_PATH_SCALAR));
  CHECK(!onnxslim__convert_path_available(OSL_PATH_COUNT) && !onnxslim__convert_path_available(-1));
  CHECK(onnxslim__convert_set_path(OSL_PATH_COUNT) == -1);
  int best = OSL_PATH_COUNT - 1;
  while (!onnxslim__convert_path_available(best)) best--;
  setenv("LIBONNXSLIM_KERNELS", "scalar", 1);
  CHECK(onnxslim__convert_path_requested() == OSL_PATH_SCALAR);
  CHECK_OK(onnxslim__convert_set_path(-1));
  CHECK(onnxslim__convert_path() == OSL_PATH_SCALAR);
  CHECK(onnxslim__convert_simd(K_F32_F16) == NULL);
  setenv("LIBONNXSLIM_KERNELS", "avx512", 1); /* the best available at most */
  CHECK_OK(onnxslim__convert_set_path(-1));
  CHECK(onnxslim__convert_path() ==
        (onnxslim__convert_path_available(OSL_PATH_AVX512) ? OSL_PATH_AVX512 : best));
  setenv("LIBONNXSLIM_KERNELS", "avx2", 1);
  CHECK_OK(onnxslim__convert_set_path(-1));
  /* without AVX2, best is scalar on x86-64; elsewhere avx2 is another
   * architecture's path, ignored */
  CHECK(onnxslim__convert_path() ==
        (onnxslim__convert_path_available(OSL_PATH_AVX2) ? OSL_PATH_AVX2 : best));
  setenv("LIBONNXSLIM_KERNELS", "neon", 1); /* the baseline of arm64: there always */
  CHECK(onnxslim__convert_path_requested() == OSL_PATH_NEON);
  CHECK_OK(onnxslim__convert_set_path(-1));
  CHECK(onnxslim__convert_path() ==
        (onnxslim__convert_path_available(OSL_PATH_NEON) ? OSL_PATH_NEON : best));
#if defined(__aarch64__) && defined(__linux__)
  CHECK(onnxslim__convert_path_available(OSL_PATH_NEON));
#endif
  setenv("LIBONNXSLIM_KERNELS", "fastest-please", 1); /* unknown: ignored */
  CHECK(onnxslim__convert_path_requested() == -1);
  CHECK_OK(onnxslim__convert_set_path(-1));
  CHECK(onnxslim__convert_path() == best);
  unsetenv("LIBONNXSLIM_KERNELS");
  CHECK_OK(onnxslim__convert_set_path(-1));
  CHECK(onnxslim__convert_path() == best);
  CHECK_STR(onnxslim__convert_path_name(OSL_PATH_AVX2), "avx2");
  CHECK_STR(onnxslim__convert_path_name(OSL_PATH_NEON_BF16), "neon-bf16");
  fprintf(stderr, "dispatched path on this CPU: %s\n", onnxslim__convert_path_name(best));

  /* another rounding mode: the scalar code runs, with the same results */
  if (best > OSL_PATH_SCALAR) {
    CHECK(onnxslim__convert_simd(K_F64_F32) != NULL);
    if (fesetround(FE_UPWARD) == 0) {
      CHECK(onnxslim__convert_simd(K_F64_F32) == NULL);
      double d = 0.1;
      float f;
      CHECK_OK(onnxslim_convert_f64_to_f32(&f, &d, 1, 0, NULL));
      CHECK(f == 0.1f);
      fesetround(FE_TONEAREST);
    }
    CHECK(onnxslim__convert_simd(K_F64_F32) != NULL);
  }
}

/* The stats of the SIMD paths when the first errors come late: a long run
 * of values that convert exactly (zeros among them), so that the maximum
 * relative error stays 0 over many vectors, then values with rounding
 * errors, then values in FP16's subnormal range. Same bytes and stats as
 * the scalar reference, for every narrowing kernel between FP32, FP16 and
 * BF16. */
TEST(stats_first_error_late) {
  enum { N = 4099 };
  static float f[N];
  static uint16_t h[N], b[N], want[N], got[N];
  for (int i = 0; i < N; i++)
    f[i] = i < 3000   ? (i % 5 == 0 ? 0.0f : (float)(i % 64) * 0.25f)
           : i < 3500 ? 1.0f + (float)i * 1e-4f
                      : 1e-7f * (float)(i - 3490);
  onnxslim__convert_scalar_f32_to_f16(h, f, N, 0, NULL);
  onnxslim__convert_scalar_f32_to_bf16(b, f, N, 0, NULL);
  static const struct {
    int kind;
    const void *in;
  } cases[] = {{K_F16_BF16, h}, {K_BF16_F16, b}, {K_F32_F16, f}, {K_F32_BF16, f}};
  for (int p = OSL_PATH_SCALAR + 1; p < OSL_PATH_COUNT; p++) {
    if (onnxslim__convert_set_path(p) != 0) continue;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
      const osl_convert_kernel *k =
          onnxslim__convert_kernel(kdt[cases[c].kind][0], kdt[cases[c].kind][1]);
      CHECK(k != NULL);
      if (!k) continue;
      onnxslim_convert_stats sw = ONNXSLIM_CONVERT_STATS_INIT, sg = ONNXSLIM_CONVERT_STATS_INIT;
      scalar_fn[cases[c].kind](want, cases[c].in, N, 0, &sw);
      k->fn(got, cases[c].in, N, 0, &sg);
      CHECK(memcmp(want, got, sizeof want) == 0);
      CHECK(stats_equal(&sw, &sg));
      CHECK(sw.max_rel_error > 0 && sw.max_abs_error > 0); /* the late errors were seen */
      if (!stats_equal(&sw, &sg))
        fprintf(stderr, "path %s %s: abs %g/%g rel %g/%g flushed %llu/%llu\n",
                onnxslim__convert_path_name(p), k->name, sw.max_abs_error, sg.max_abs_error,
                sw.max_rel_error, sg.max_rel_error, (unsigned long long)sw.flushed,
                (unsigned long long)sg.flushed);
    }
  }
  CHECK_OK(onnxslim__convert_set_path(-1));
}

/* FP16 -> BF16 with stats on normal values, where the AVX2 and NEON paths
 * convert the 16-bit patterns directly and keep the maximum errors with
 * their own filters (convert_simd_body.h, f16_bf16_run): the maximum
 * relative error climbing by small steps (fractions drawn from ever smaller
 * values, the largest error of a normal value, at fraction 4, last or never),
 * the maximum absolute error from errors of 1 to 4 ulp in neighbouring
 * binades (4 ulp of one binade equals 1 of the binade two above: the keys
 * must order them as the values), and a few zeros, subnormals, Inf and NaN
 * among them; and a new maximum relative error at the edge of what the
 * filter must let through. Same bytes and stats as the scalar reference. */
TEST(f16_bf16_normal_stats) {
  enum { N = 60000 };
  static uint16_t h[N], want[N], got[N];
  for (int c = 0; c < 10; c++) {
    for (int i = 0; i < N; i++) {
      uint64_t r = next_rand();
      /* fraction: from 1023 down to its floor as i grows (c 0, 1: floor 4,
       * reached last; c 2: floor 5, rmax stays below 4 / 1028), or any */
      unsigned int floor_m = c == 2 ? 5 : 4;
      unsigned int top = 1023 - (unsigned int)((uint64_t)i * (1023 - floor_m) / (N - 1));
      unsigned int m = c < 3 ? top - (unsigned int)(r % 8 < top - floor_m ? r % 8 : 0)
                             : (unsigned int)(r % 1024);
      /* exponent: c 3: the binade rising with i (errors of 1..4 ulp); else
       * random */
      unsigned int e = c == 3
                           ? 1 + (unsigned int)((uint64_t)i * 27 / N) + (unsigned int)(r >> 20) % 3
                           : 1 + (unsigned int)(r >> 20) % 30;
      /* c 6: errors of 0 or 1 ulp only (low fraction bits 0, 1, 7); c 7:
       * the same in the top binade, 3 ulp in the one below (3 ulp there is
       * 1.5 ulp of the top: the largest error) */
      if (c == 6 || (c == 7 && e == 30)) m = (m & ~7u) | (r % 3 == 0 ? 0 : r % 3 == 1 ? 1 : 7);
      if (c == 7 && e == 29) m = (m & ~7u) | 3;
      /* c 8: exact values but an error of 1 ulp at fraction 1 (1 / 1025),
       * then one of 2 ulp at fraction 1022 (2 / 2046 = 1 / 1023, the
       * boundary of the relative filter's test for that maximum) */
      if (c == 8) m = i == 5 ? 1 : i == N / 2 ? 1022 : 0;
      /* c 9: errors only at elements 29 mod 32 (the second vector of a
       * pair, where the loops take two vectors at a time) */
      if (c == 9) m = i % 32 == 29 ? (unsigned int)(r % 1024) : 0;
      uint16_t v = (uint16_t)(e << 10 | m | (unsigned int)(r >> 40 & 1) << 15);
      if (c == 4 && r % 997 == 0) v = (uint16_t)(r >> 24) % 0x400;             /* 0 or subnormal */
      if (c == 5 && r % 1499 == 0) v = (uint16_t)(0x7C00 | (r >> 24) % 0x400); /* Inf or NaN */
      h[i] = v;
    }
    if (c == 1) h[N - 3] = 0x3C04; /* fraction 4 once, near the end */
    for (int p = OSL_PATH_SCALAR + 1; p < OSL_PATH_COUNT; p++) {
      if (onnxslim__convert_set_path(p) != 0) continue;
      const osl_convert_kernel *k =
          onnxslim__convert_kernel(ONNXSLIM_DTYPE_FLOAT16, ONNXSLIM_DTYPE_BFLOAT16);
      CHECK(k != NULL);
      if (!k) continue;
      for (size_t n = N - 16; n <= N; n += 8) {
        onnxslim_convert_stats sw = ONNXSLIM_CONVERT_STATS_INIT, sg = ONNXSLIM_CONVERT_STATS_INIT;
        memset(got, 0x5A, sizeof got), memset(want, 0x5A, sizeof want);
        onnxslim__convert_scalar_f16_to_bf16(want, h, n, 0, &sw);
        k->fn(got, h, n, 0, &sg);
        CHECK(memcmp(want, got, sizeof want) == 0);
        CHECK(stats_equal(&sw, &sg));
        if (!stats_equal(&sw, &sg))
          fprintf(stderr, "case %d path %s n %zu: abs %a/%a rel %a/%a nan %llu/%llu\n", c,
                  onnxslim__convert_path_name(p), n, sw.max_abs_error, sg.max_abs_error,
                  sw.max_rel_error, sg.max_rel_error, (unsigned long long)sw.nan,
                  (unsigned long long)sg.nan);
      }
    }
  }
  CHECK_OK(onnxslim__convert_set_path(-1));
}

int main(int argc, char **argv) {
  t_args(argc, argv);
  RUN(dispatch_env_and_fallback);
  RUN(every_path_same_results);
  RUN(stats_counts_every_path);
  RUN(stats_first_error_late);
  RUN(f16_bf16_normal_stats);
  if (!t_list) fprintf(stderr, "SIMD paths compared with the scalar reference: %d\n", paths_tried);
  return t_done();
}
