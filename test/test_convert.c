/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/* Unit tests of the numeric conversion kernels (include/onnxslim/convert.h):
 * specific values (NaN payloads, signed zeros, infinities, largest finite,
 * smallest subnormal, ties, the FP16 overflow threshold), flags, stats,
 * argument errors; every one of the 2^16 inputs of the FP16/BF16 kernels; a
 * sample of FP32 and FP64 inputs. The reference here is plain double
 * arithmetic on values (no bit tricks): a value is decoded from its fields,
 * rounded by scaling to an integer and looking at the fraction. The
 * exhaustive 2^32 checks are in test/check_long/convert_exhaustive.c. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <onnxslim.h>

#include "t.h"

#define TRUNC ONNXSLIM_CONVERT_TRUNCATE
#define SAT ONNXSLIM_CONVERT_SATURATE
#define FLUSH ONNXSLIM_CONVERT_FLUSH_SUBNORMALS

/* ---- reference arithmetic -------------------------------------------------- */

static double p2tab[2400]; /* 2^e for e in [-1200, 1199] */
static double p2(int e) { return p2tab[e + 1200]; }
static void init_p2(void) {
  p2tab[1200] = 1.0;
  for (int e = 1; e < 1200; e++) p2tab[1200 + e] = p2tab[1200 + e - 1] * 2.0;
  for (int e = 1; e <= 1074; e++) p2tab[1200 - e] = p2tab[1200 - e + 1] / 2.0;
}

/* A binary format: p significand bits (with the implicit one), normal
 * exponents emin..emax, e bits of exponent field. */
typedef struct {
  int p, emin, emax, ebits;
} fmt;
static const fmt F16 = {11, -14, 15, 5}, BF16 = {8, -126, 127, 8}, F32 = {24, -126, 127, 8};

/* Value of the bit pattern `bits` of format f (NaN for NaNs). */
static double decode(fmt f, uint64_t bits) {
  int mbits = f.p - 1;
  uint64_t m = bits & ((UINT64_C(1) << mbits) - 1);
  int e = (int)((bits >> mbits) & ((1u << f.ebits) - 1));
  int neg = (int)((bits >> (mbits + f.ebits)) & 1);
  double v;
  if (e == (1 << f.ebits) - 1) v = m ? NAN : INFINITY;
  else if (e == 0) v = (double)m * p2(f.emin - mbits);
  else v = (double)(m + (UINT64_C(1) << mbits)) * p2(e - (1 << (f.ebits - 1)) + 1 - mbits);
  return neg ? -v : v;
}

/* |x| (finite, not NaN) rounded to format f: round to nearest even, or
 * toward zero when trunc; overflow gives Inf (or the largest finite value
 * with sat); results below the normal range become 0 with flush. */
static double round_to(fmt f, double x, int trunc, int sat, int flush) {
  double ax = x < 0 ? -x : x, r;
  if (ax == 0) return x;
  int e = f.emin;
  while (e < 1100 && p2(e + 1) <= ax) e++;
  double q = p2(e - f.p + 1); /* quantum at this exponent */
  double y = ax / q;          /* exact: power-of-two scaling */
  double fl = (double)(uint64_t)y;
  double frac = y - fl;
  if (!trunc && (frac > 0.5 || (frac == 0.5 && ((uint64_t)fl & 1u)))) fl += 1.0;
  r = fl * q;
  double maxf = (p2(f.p) - 1) * p2(f.emax - f.p + 1);
  if (r > maxf) r = sat ? maxf : INFINITY;
  if (flush && r < p2(f.emin)) r = 0;
  return x < 0 ? -r : r;
}

static int same_value(double got, double want) {
  if (got != got || want != want) return 0;
  return got == want && signbit(got) == signbit(want);
}

/* Checks a narrowing result `out` (format fo) for the input value x whose NaN
 * payload bits are `payload_top` (the input mantissa below the quiet bit,
 * aligned to fo's mantissa, 0 when not NaN). */
static int check_one(fmt fo, uint64_t out, double x, int in_neg, uint64_t nan_mant, int trunc,
                     int sat, int flush) {
  if (x != x) {
    int mbits = fo.p - 1;
    uint64_t quiet = UINT64_C(1) << (mbits - 1);
    uint64_t want = ((uint64_t)in_neg << (mbits + fo.ebits)) |
                    ((uint64_t)((1u << fo.ebits) - 1) << mbits) | quiet | nan_mant;
    return out == want;
  }
  double want = x;
  if (!(x == INFINITY || x == -INFINITY)) want = round_to(fo, x, trunc, sat, flush);
  return same_value(decode(fo, out), want);
}

/* ---- tiny helpers ------------------------------------------------------------- */

static float f32_of(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}
static uint32_t bits_f32(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
static double f64_of(uint64_t u) {
  double d;
  memcpy(&d, &u, 8);
  return d;
}
static uint64_t bits_f64(double d) {
  uint64_t u;
  memcpy(&u, &d, 8);
  return u;
}
static uint16_t bf16(uint32_t u, unsigned int flags) {
  float f = f32_of(u);
  uint16_t h = 0xDEAD;
  if (onnxslim_convert_f32_to_bf16(&h, &f, 1, flags, NULL) != 0) return 0xDEAD;
  return h;
}
static uint16_t f16(uint32_t u, unsigned int flags) {
  float f = f32_of(u);
  uint16_t h = 0xDEAD;
  if (onnxslim_convert_f32_to_f16(&h, &f, 1, flags, NULL) != 0) return 0xDEAD;
  return h;
}
static uint32_t f64to32(uint64_t b, unsigned int flags) {
  double d = f64_of(b);
  float f = 0;
  if (onnxslim_convert_f64_to_f32(&f, &d, 1, flags, NULL) != 0) return 0xDEADBEEFu;
  return bits_f32(f);
}

static uint64_t rng = 0x853C49E6748FEA9Bu;
static uint64_t next_rand(void) { /* splitmix64 */
  uint64_t z = (rng += 0x9E3779B97F4A7C15u);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return z ^ (z >> 31);
}

/* ---- specific values ---------------------------------------------------------- */

TEST(f32_to_bf16_values) {
  CHECK(bf16(0x00000000, 0) == 0x0000);
  CHECK(bf16(0x80000000, 0) == 0x8000);
  CHECK(bf16(0x3F800000, 0) == 0x3F80); /* 1.0 */
  CHECK(bf16(0xC0000000, 0) == 0xC000); /* -2.0 */
  CHECK(bf16(0x3F808000, 0) == 0x3F80); /* tie, even stays */
  CHECK(bf16(0x3F818000, 0) == 0x3F82); /* tie, odd rounds up */
  CHECK(bf16(0x3F808001, 0) == 0x3F81); /* above the tie */
  CHECK(bf16(0x3F807FFF, 0) == 0x3F80); /* below the tie */
  CHECK(bf16(0xBF818000, 0) == 0xBF82); /* negative tie */
  CHECK(bf16(0x3F80FFFF, TRUNC) == 0x3F80);
  CHECK(bf16(0xBF80FFFF, TRUNC) == 0xBF80);
  CHECK(bf16(0x3F80FFFF, 0) == 0x3F81);
  /* largest finite and overflow by rounding */
  CHECK(bf16(0x7F7F0000, 0) == 0x7F7F);
  CHECK(bf16(0x7F7F7FFF, 0) == 0x7F7F);
  CHECK(bf16(0x7F7F8000, 0) == 0x7F80); /* tie to even = Inf */
  CHECK(bf16(0x7F7FFFFF, 0) == 0x7F80); /* FLT_MAX rounds to Inf */
  CHECK(bf16(0xFF7FFFFF, 0) == 0xFF80);
  CHECK(bf16(0x7F7FFFFF, SAT) == 0x7F7F);
  CHECK(bf16(0xFF7F8000, SAT) == 0xFF7F);
  CHECK(bf16(0x7F7FFFFF, TRUNC) == 0x7F7F);
  CHECK(bf16(0x7F7FFFFF, TRUNC | SAT) == 0x7F7F);
  /* infinities stay, also with SATURATE */
  CHECK(bf16(0x7F800000, 0) == 0x7F80);
  CHECK(bf16(0xFF800000, 0) == 0xFF80);
  CHECK(bf16(0x7F800000, SAT) == 0x7F80);
  CHECK(bf16(0xFF800000, SAT | TRUNC) == 0xFF80);
  /* NaN: quiet, sign and top payload kept, never Inf, never wrapped */
  CHECK(bf16(0x7FC00000, 0) == 0x7FC0);
  CHECK(bf16(0x7F800001, 0) == 0x7FC0); /* sNaN, payload only in low bits */
  CHECK(bf16(0x7F800001, TRUNC) == 0x7FC0);
  CHECK(bf16(0x7FBF0000, 0) == 0x7FFF); /* sNaN, payload in kept bits */
  CHECK(bf16(0x7FBFFFFF, 0) == 0x7FFF);
  CHECK(bf16(0x7F817FFF, 0) == 0x7FC1);
  CHECK(bf16(0xFFFFFFFF, 0) == 0xFFFF); /* a naive add would wrap to +0 */
  CHECK(bf16(0xFF800001, 0) == 0xFFC0);
  CHECK(bf16(0xFFC00000, SAT | FLUSH) == 0xFFC0);
  /* subnormals: kept, rounded; flushed on request (after rounding) */
  CHECK(bf16(0x00000001, 0) == 0x0000);
  CHECK(bf16(0x80000001, 0) == 0x8000);
  CHECK(bf16(0x00008000, 0) == 0x0000); /* tie to even 0 */
  CHECK(bf16(0x00018000, 0) == 0x0002); /* tie, odd rounds up */
  CHECK(bf16(0x00010000, 0) == 0x0001); /* smallest BF16 subnormal */
  CHECK(bf16(0x00400000, 0) == 0x0040);
  CHECK(bf16(0x00400000, FLUSH) == 0x0000);
  CHECK(bf16(0x80400000, FLUSH) == 0x8000);
  CHECK(bf16(0x007FFFFF, 0) == 0x0080); /* rounds up to the smallest normal */
  CHECK(bf16(0x007FFFFF, FLUSH) == 0x0080);
  CHECK(bf16(0x007FFFFF, FLUSH | TRUNC) == 0x0000);
  CHECK(bf16(0x00800000, FLUSH) == 0x0080);
}

TEST(f32_to_f16_values) {
  CHECK(f16(0x00000000, 0) == 0x0000);
  CHECK(f16(0x80000000, 0) == 0x8000);
  CHECK(f16(0x3F800000, 0) == 0x3C00); /* 1.0 */
  CHECK(f16(0xC0000000, 0) == 0xC000); /* -2.0 */
  CHECK(f16(0x3F801000, 0) == 0x3C00); /* 1 + 2^-11: tie, even */
  CHECK(f16(0x3F803000, 0) == 0x3C02); /* 1 + 3*2^-11: tie, odd up */
  CHECK(f16(0x3F801001, 0) == 0x3C01);
  CHECK(f16(bits_f32(0.1f), 0) == 0x2E66);
  /* largest finite, the overflow threshold 65520, infinities */
  CHECK(f16(bits_f32(65504.0f), 0) == 0x7BFF);
  CHECK(f16(bits_f32(65519.0f), 0) == 0x7BFF);
  CHECK(f16(bits_f32(65519.996f), 0) == 0x7BFF);
  CHECK(f16(bits_f32(65520.0f), 0) == 0x7C00);
  CHECK(f16(bits_f32(-65520.0f), 0) == 0xFC00);
  CHECK(f16(bits_f32(65536.0f), 0) == 0x7C00);
  CHECK(f16(bits_f32(1e30f), 0) == 0x7C00);
  CHECK(f16(0x7F7FFFFF, 0) == 0x7C00);
  CHECK(f16(bits_f32(65519.0f), SAT) == 0x7BFF);
  CHECK(f16(bits_f32(65520.0f), SAT) == 0x7BFF);
  CHECK(f16(bits_f32(-65520.0f), SAT) == 0xFBFF);
  CHECK(f16(0xFF7FFFFF, SAT) == 0xFBFF);
  CHECK(f16(0x7F800000, 0) == 0x7C00);
  CHECK(f16(0xFF800000, 0) == 0xFC00);
  CHECK(f16(0x7F800000, SAT) == 0x7C00); /* Inf stays Inf */
  CHECK(f16(0xFF800000, SAT | FLUSH) == 0xFC00);
  /* NaN */
  CHECK(f16(0x7FC00000, 0) == 0x7E00);
  CHECK(f16(0xFFC00000, 0) == 0xFE00);
  CHECK(f16(0x7F800001, 0) == 0x7E00); /* sNaN, low payload dropped */
  CHECK(f16(0x7F802000, 0) == 0x7E01); /* lowest payload bit that fits */
  CHECK(f16(0x7FFFFFFF, SAT) == 0x7FFF);
  CHECK(f16(0xFFBFE000, FLUSH) == 0xFFFF);
  /* subnormal results */
  CHECK(f16(0x33800000, 0) == 0x0001); /* 2^-24, smallest subnormal */
  CHECK(f16(0xB3800000, 0) == 0x8001);
  CHECK(f16(0x33000000, 0) == 0x0000); /* 2^-25: tie to even 0 */
  CHECK(f16(0xB3000000, 0) == 0x8000);
  CHECK(f16(0x33000001, 0) == 0x0001); /* just above the tie */
  CHECK(f16(0x32FFFFFF, 0) == 0x0000);
  CHECK(f16(0x33C00000, 0) == 0x0002); /* 1.5 * 2^-24: tie, odd up */
  CHECK(f16(0x34200000, 0) == 0x0002); /* 2.5 * 2^-24: tie, even */
  CHECK(f16(0x387FE000, 0) == 0x0400); /* 1023.5 * 2^-24: tie -> 1024, normal */
  CHECK(f16(0x387FDFFF, 0) == 0x03FF);
  CHECK(f16(0x387FC000, 0) == 0x03FF); /* largest subnormal 1023 * 2^-24 */
  CHECK(f16(0x387FA000, 0) == 0x03FE); /* 1022.5 * 2^-24: tie, even */
  CHECK(f16(0x38800000, 0) == 0x0400); /* 2^-14 */
  CHECK(f16(0x00000001, 0) == 0x0000); /* FP32 subnormal */
  CHECK(f16(0x807FFFFF, 0) == 0x8000);
  CHECK(f16(0x33800000, FLUSH) == 0x0000);
  CHECK(f16(0x387FC000, FLUSH) == 0x0000);
  CHECK(f16(0x387FDFFF, FLUSH) == 0x0000);
  CHECK(f16(0xB87F8000, FLUSH) == 0x8000);
  CHECK(f16(0x387FE000, FLUSH) == 0x0400); /* rounds to normal: kept */
  CHECK(f16(0x38800000, FLUSH) == 0x0400);
  CHECK(f16(0x3F800000, TRUNC) == 0xDEAD); /* TRUNCATE refused */
}

TEST(f64_to_f32_values) {
  CHECK(f64to32(bits_f64(1.0), 0) == 0x3F800000);
  CHECK(f64to32(bits_f64(-0.0), 0) == 0x80000000);
  CHECK(f64to32(bits_f64(0.1), 0) == bits_f32(0.1f));
  CHECK(f64to32(bits_f64(1.0 + 0x1p-24), 0) == 0x3F800000); /* tie, even */
  CHECK(f64to32(bits_f64(1.0 + 0x1p-24 + 0x1p-52), 0) == 0x3F800001);
  CHECK(f64to32(bits_f64(1.0 + 3 * 0x1p-24), 0) == 0x3F800002); /* tie, odd up */
  CHECK(f64to32(bits_f64(FLT_MAX), 0) == 0x7F7FFFFF);
  CHECK(f64to32(0x47EFFFFFEFFFFFFFu, 0) == 0x7F7FFFFF); /* below the midpoint */
  CHECK(f64to32(0x47EFFFFFF0000000u, 0) == 0x7F800000); /* midpoint: Inf */
  CHECK(f64to32(0x47EFFFFFF0000000u, SAT) == 0x7F7FFFFF);
  CHECK(f64to32(bits_f64(-DBL_MAX), 0) == 0xFF800000);
  CHECK(f64to32(bits_f64(-DBL_MAX), SAT) == 0xFF7FFFFF);
  CHECK(f64to32(bits_f64(INFINITY), SAT) == 0x7F800000);
  CHECK(f64to32(bits_f64(-INFINITY), 0) == 0xFF800000);
  CHECK(f64to32(bits_f64(0x1p-149), 0) == 0x00000001);
  CHECK(f64to32(bits_f64(0x1p-150), 0) == 0x00000000);    /* tie to even 0 */
  CHECK(f64to32(bits_f64(-0x1.8p-149), 0) == 0x80000002); /* tie, odd up */
  CHECK(f64to32(bits_f64(0x1p-150 + 0x1p-200), 0) == 0x00000001);
  CHECK(f64to32(bits_f64(1e-300), 0) == 0x00000000);
  CHECK(f64to32(bits_f64(-1e-300), 0) == 0x80000000);
  CHECK(f64to32(0x0000000000000001u, 0) == 0x00000000); /* FP64 subnormal */
  CHECK(f64to32(bits_f64(0x1p-130), FLUSH) == 0x00000000);
  CHECK(f64to32(bits_f64(-0x1p-130), FLUSH) == 0x80000000);
  CHECK(f64to32(bits_f64(0x1p-126), FLUSH) == 0x00800000);
  CHECK(f64to32(bits_f64(0x1p-126 - 0x1p-160), FLUSH) == 0x00800000); /* rounds to normal */
  CHECK(f64to32(0x7FF8000000000000u, 0) == 0x7FC00000);
  CHECK(f64to32(0x7FF0000000000001u, 0) == 0x7FC00000); /* sNaN, low payload */
  CHECK(f64to32(0x7FF4000000000000u, 0) == 0x7FE00000); /* sNaN, top payload */
  CHECK(f64to32(0xFFF0000020000000u, SAT) == 0xFFC00001);
  CHECK(f64to32(0xFFFFFFFFFFFFFFFFu, FLUSH) == 0xFFFFFFFF);
  CHECK(f64to32(bits_f64(1.0), TRUNC) == 0xDEADBEEFu);
}

TEST(widening_values) {
  uint16_t h[6] = {0x3C00, 0x0001, 0x83FF, 0x7C00, 0x7D01, 0xFC00};
  float f[6];
  CHECK_OK(onnxslim_convert_f16_to_f32(f, h, 6));
  CHECK(f[0] == 1.0f && f[1] == 0x1p-24f && f[2] == -1023 * 0x1p-24f && f[3] == INFINITY);
  CHECK(bits_f32(f[4]) == 0x7FE02000); /* sNaN quieted, payload kept */
  CHECK(f[5] == -INFINITY);
  uint16_t b[4] = {0x3F80, 0x0001, 0xFF81, 0x8000};
  CHECK_OK(onnxslim_convert_bf16_to_f32(f, b, 4));
  CHECK(f[0] == 1.0f && bits_f32(f[1]) == 0x00010000 && bits_f32(f[2]) == 0xFFC10000 &&
        bits_f32(f[3]) == 0x80000000);
  float s[5] = {1.5f, -0.0f, 0x1p-149f, f32_of(0x7F800001), -INFINITY};
  double d[5];
  CHECK_OK(onnxslim_convert_f32_to_f64(d, s, 5));
  CHECK(d[0] == 1.5 && bits_f64(d[1]) == 0x8000000000000000u && d[2] == 0x1p-149);
  CHECK(bits_f64(d[3]) == 0x7FF8000020000000u && d[4] == -INFINITY);
}

TEST(f16_bf16_values) {
  uint16_t in[6] = {0x3C00, 0x3C01, 0x7BFF, 0x0001, 0x7C01, 0x8000}, out[6];
  CHECK_OK(onnxslim_convert_f16_to_bf16(out, in, 6, 0, NULL));
  CHECK(out[0] == 0x3F80 && out[1] == 0x3F80 && out[2] == 0x4780 && out[3] == 0x3380);
  CHECK(out[4] == 0x7FC0 && out[5] == 0x8000);
  CHECK_OK(onnxslim_convert_f16_to_bf16(out, in, 6, TRUNC, NULL));
  CHECK(out[2] == 0x477F);
  uint16_t b[5] = {0x477F, 0x4780, 0x3380, 0x3300, 0xFFC1}, o[5];
  CHECK_OK(onnxslim_convert_bf16_to_f16(o, b, 5, 0, NULL));
  CHECK(o[0] == 0x7BF8 && o[1] == 0x7C00 && o[2] == 0x0001 && o[3] == 0x0000 && o[4] == 0xFE08);
  CHECK_OK(onnxslim_convert_bf16_to_f16(o, b, 5, SAT | FLUSH, NULL));
  CHECK(o[1] == 0x7BFF && o[2] == 0x0000);
}

/* ---- exhaustive 2^16 ------------------------------------------------------------ */

TEST(exhaustive_bf16_to_f32) {
  static uint16_t in[65536];
  static float out[65536];
  for (uint32_t i = 0; i < 65536; i++) in[i] = (uint16_t)i;
  CHECK_OK(onnxslim_convert_bf16_to_f32(out, in, 65536));
  int bad = 0;
  for (uint32_t i = 0; i < 65536; i++) {
    double v = decode(BF16, i);
    uint32_t got = bits_f32(out[i]);
    int ok = v == v ? same_value(out[i], v)
                    : got == ((i << 16) | 0x00400000u); /* NaN: quiet, all payload */
    if (!ok && bad++ < 5) fprintf(stderr, "bf16 %04x -> %08x\n", i, got);
  }
  CHECK(bad == 0);
}

TEST(exhaustive_f16_to_f32) {
  static uint16_t in[65536];
  static float out[65536];
  for (uint32_t i = 0; i < 65536; i++) in[i] = (uint16_t)i;
  CHECK_OK(onnxslim_convert_f16_to_f32(out, in, 65536));
  int bad = 0;
  for (uint32_t i = 0; i < 65536; i++) {
    double v = decode(F16, i);
    uint32_t got = bits_f32(out[i]);
    uint32_t nan = ((i & 0x8000u) << 16) | 0x7FC00000u | ((i & 0x3FFu) << 13);
    int ok = v == v ? same_value(out[i], v) : got == nan;
    if (!ok && bad++ < 5) fprintf(stderr, "f16 %04x -> %08x\n", i, got);
  }
  CHECK(bad == 0);
}

static const unsigned int flag_sets[8] = {0,     SAT,         FLUSH,         SAT | FLUSH,
                                          TRUNC, TRUNC | SAT, TRUNC | FLUSH, TRUNC | SAT | FLUSH};

TEST(exhaustive_f16_to_bf16) {
  static uint16_t in[65536], out[65536], out2[65536];
  for (uint32_t i = 0; i < 65536; i++) in[i] = (uint16_t)i;
  for (int fs = 0; fs < 8; fs++) {
    unsigned int fl = flag_sets[fs];
    onnxslim_convert_stats st = ONNXSLIM_CONVERT_STATS_INIT;
    CHECK_OK(onnxslim_convert_f16_to_bf16(out, in, 65536, fl, NULL));
    CHECK_OK(onnxslim_convert_f16_to_bf16(out2, in, 65536, fl, &st));
    CHECK(memcmp(out, out2, sizeof out) == 0);
    int bad = 0;
    for (uint32_t i = 0; i < 65536; i++) {
      double v = decode(F16, i);
      uint64_t nan_mant = (i & 0x1FFu) >> 3; /* payload below the quiet bit, top 6 bits */
      if (!check_one(BF16, out[i], v, (int)(i >> 15), nan_mant, fl & TRUNC, 0, 0) && bad++ < 5)
        fprintf(stderr, "f16 %04x flags %u -> bf16 %04x\n", i, fl, out[i]);
    }
    CHECK(bad == 0);
    CHECK(st.count == 65536 && st.nan == 2 * 1023 && st.to_inf == 0 && st.saturated == 0 &&
          st.flushed == 0);
    CHECK(st.max_rel_error > 0 && st.max_rel_error <= ((fl & TRUNC) ? 0x1p-7 : 0x1p-8));
  }
}

TEST(exhaustive_bf16_to_f16) {
  static uint16_t in[65536], out[65536], out2[65536];
  for (uint32_t i = 0; i < 65536; i++) in[i] = (uint16_t)i;
  for (int fs = 0; fs < 4; fs++) {
    unsigned int fl = flag_sets[fs];
    onnxslim_convert_stats st = ONNXSLIM_CONVERT_STATS_INIT;
    CHECK_OK(onnxslim_convert_bf16_to_f16(out, in, 65536, fl, NULL));
    CHECK_OK(onnxslim_convert_bf16_to_f16(out2, in, 65536, fl, &st));
    CHECK(memcmp(out, out2, sizeof out) == 0);
    int bad = 0;
    uint64_t to_inf = 0, sat = 0, flushed = 0;
    for (uint32_t i = 0; i < 65536; i++) {
      double v = decode(BF16, i);
      uint64_t nan_mant = (i & 0x3Fu) << 3;
      if (!check_one(F16, out[i], v, (int)(i >> 15), nan_mant, 0, fl & SAT, fl & FLUSH) &&
          bad++ < 5)
        fprintf(stderr, "bf16 %04x flags %u -> f16 %04x\n", i, fl, out[i]);
      if (v == v && v != INFINITY && v != -INFINITY) {
        double r = round_to(F16, v, 0, 0, 0);
        if (r == INFINITY || r == -INFINITY) (fl & SAT) ? sat++ : to_inf++;
        else if (v != 0 && round_to(F16, v, 0, 0, fl & FLUSH) == 0) flushed++;
      }
    }
    CHECK(bad == 0);
    CHECK(st.count == 65536 && st.nan == 2 * 127);
    CHECK(st.to_inf == to_inf && st.saturated == sat && st.flushed == flushed);
    CHECK((fl & SAT) ? st.to_inf == 0 && sat > 0 : st.saturated == 0 && to_inf > 0);
  }
}

/* ---- FP32 and FP64 inputs: a sample ------------------------------------------- */

/* Every 4099th FP32 pattern (about a million, all exponents), plus the
 * patterns around each FP16 and BF16 rounding boundary of interest. Under
 * LIBONNXSLIM_TEST_SCALE=K (t.h), every (4099 K | 1)-th pattern: still
 * odd, so every mantissa bit and all exponents, and every boundary. */
static size_t fp32_sample(uint32_t **out) {
  uint64_t all = UINT64_C(1) << 32, k = (all / 4099) / t_scaled((size_t)(all / 4099), 1 << 16);
  uint64_t step = k > 1 ? (4099 * k) | 1 : 4099;
  size_t cap = (size_t)(all / step) + 4096, n = 0;
  uint32_t *u = malloc(cap * sizeof *u);
  if (!u) return 0;
  for (uint64_t v = 0; v < all; v += step) u[n++] = (uint32_t)v;
  static const uint32_t edges[] = {0x477FE000, 0x477FF000, 0x38800000, 0x387FE000, 0x33000000,
                                   0x33800000, 0x7F7F8000, 0x7F800000, 0x00800000, 0x00000000,
                                   0x3F808000, 0x3F801000, 0x34200000, 0x7FC00000};
  for (size_t e = 0; e < sizeof edges / sizeof edges[0]; e++)
    for (int d = -64; d < 64; d++) {
      u[n++] = edges[e] + (uint32_t)d;
      u[n++] = (edges[e] + (uint32_t)d) ^ 0x80000000u;
    }
  *out = u;
  return n;
}

TEST(sample_f32_to_bf16_f16) {
  uint32_t *u = NULL;
  size_t n = fp32_sample(&u);
  uint16_t *o = malloc(n * 2), *o2 = malloc(n * 2);
  CHECK(n > 0 && o && o2);
  if (!n || !o || !o2) return;
  for (int fs = 0; fs < 8; fs++) {
    unsigned int fl = flag_sets[fs];
    int bad = 0;
    CHECK_OK(onnxslim_convert_f32_to_bf16(o, (const float *)u, n, fl, NULL));
    for (size_t i = 0; i < n; i++) {
      double v = decode(F32, u[i]);
      if (!check_one(BF16, o[i], v, (int)(u[i] >> 31), (u[i] >> 16) & 0x3F, fl & TRUNC, fl & SAT,
                     fl & FLUSH) &&
          bad++ < 5)
        fprintf(stderr, "f32 %08x flags %u -> bf16 %04x\n", u[i], fl, o[i]);
    }
    CHECK(bad == 0);
    onnxslim_convert_stats st = ONNXSLIM_CONVERT_STATS_INIT;
    CHECK_OK(onnxslim_convert_f32_to_bf16(o2, (const float *)u, n, fl, &st));
    CHECK(memcmp(o, o2, n * 2) == 0 && st.count == n);
    if (fl & TRUNC) continue;
    bad = 0;
    CHECK_OK(onnxslim_convert_f32_to_f16(o, (const float *)u, n, fl, NULL));
    for (size_t i = 0; i < n; i++) {
      double v = decode(F32, u[i]);
      if (!check_one(F16, o[i], v, (int)(u[i] >> 31), (u[i] >> 13) & 0x1FF, 0, fl & SAT,
                     fl & FLUSH) &&
          bad++ < 5)
        fprintf(stderr, "f32 %08x flags %u -> f16 %04x\n", u[i], fl, o[i]);
    }
    CHECK(bad == 0);
    CHECK_OK(onnxslim_convert_f32_to_f16(o2, (const float *)u, n, fl, &st));
    CHECK(memcmp(o, o2, n * 2) == 0 && st.count == 2 * n);
  }
  free(u), free(o), free(o2);
}

TEST(sample_f64_to_f32) {
  /* 2^20 inputs; under LIBONNXSLIM_TEST_SCALE=K (t.h) 2^20 / K, each
   * kind of input still a quarter of them */
  const size_t N = t_scaled((size_t)1 << 20, (size_t)1 << 16) & ~(size_t)3;
  uint64_t *in = malloc(N * 8);
  float *o = malloc(N * 4), *o2 = malloc(N * 4);
  CHECK(in && o && o2);
  if (!in || !o || !o2) return;
  for (size_t i = 0; i < N; i++) {
    uint64_t r = next_rand();
    switch (i % 4) {
    case 0: in[i] = r; break; /* any pattern */
    case 1:                   /* exponent in or near the FP32 range */
      in[i] = (r & 0x800FFFFFFFFFFFFFu) | ((uint64_t)(1023 - 160 + (r >> 52) % 300) << 52);
      break;
    case 2: /* exactly an FP32 rounding midpoint: 24 significant bits and a one */
      in[i] = (r & 0x800FFFFFE0000000u) | 0x0000000010000000u |
              ((uint64_t)(1023 - 155 + (r >> 52) % 290) << 52);
      break;
    default: /* an FP32 value as FP64 */ in[i] = bits_f64((double)f32_of((uint32_t)r));
    }
  }
  for (int fs = 0; fs < 4; fs++) {
    unsigned int fl = flag_sets[fs];
    int bad = 0;
    CHECK_OK(onnxslim_convert_f64_to_f32(o, (const double *)in, N, fl, NULL));
    for (size_t i = 0; i < N; i++) {
      double v = f64_of(in[i]);
      if (!check_one(F32, bits_f32(o[i]), v, (int)(in[i] >> 63), (in[i] >> 29) & 0x3FFFFF, 0,
                     fl & SAT, fl & FLUSH) &&
          bad++ < 5)
        fprintf(stderr, "f64 %016llx flags %u -> f32 %08x\n", (unsigned long long)in[i], fl,
                bits_f32(o[i]));
    }
    CHECK(bad == 0);
    onnxslim_convert_stats st = ONNXSLIM_CONVERT_STATS_INIT;
    CHECK_OK(onnxslim_convert_f64_to_f32(o2, (const double *)in, N, fl, &st));
    CHECK(memcmp(o, o2, (size_t)N * 4) == 0 && st.count == N);
  }
  free(in), free(o), free(o2);
}

/* ---- tails, alignment ------------------------------------------------------------ */

TEST(every_length_and_misaligned) {
  enum { N = 300 };
  static unsigned char src[N * 8 + 8], dst[N * 8 + 8], one[8];
  for (size_t i = 0; i < sizeof src; i++) src[i] = (unsigned char)next_rand();
  int bad = 0;
  for (size_t off = 0; off < 3; off++)
    for (size_t n = 0; n <= N; n += (n < 140 ? 1 : 37)) {
      memset(dst, 0xA5, sizeof dst);
      CHECK_OK(onnxslim_convert_f32_to_f16((uint16_t *)(void *)(dst + off),
                                           (const float *)(void *)(src + off), n, 0, NULL));
      for (size_t i = 0; i < n; i++) {
        CHECK_OK(onnxslim_convert_f32_to_f16(
            (uint16_t *)(void *)one, (const float *)(void *)(src + off + 4 * i), 1, 0, NULL));
        if (memcmp(one, dst + off + 2 * i, 2) != 0) bad++;
      }
      if (dst[off + 2 * n] != 0xA5) bad++; /* nothing written past the end */
    }
  CHECK(bad == 0);
}

/* ---- stats ---------------------------------------------------------------------- */

TEST(stats_counts) {
  float in[10] = {1.0f,     70000.0f, -1e30f, INFINITY,           NAN,
                  0x1p-26f, 0x1p-20f, 0.0f,   f32_of(0x3F801000), 65504.0f};
  uint16_t out[10];
  onnxslim_convert_stats st = ONNXSLIM_CONVERT_STATS_INIT;
  CHECK(st.version == ONNXSLIM_CONVERT_STATS_VERSION);
  CHECK_OK(onnxslim_convert_f32_to_f16(out, in, 10, 0, &st));
  CHECK(st.count == 10 && st.nan == 1 && st.to_inf == 2 && st.saturated == 0);
  CHECK(st.flushed == 1);             /* 2^-26 underflows to 0 */
  CHECK(st.max_abs_error == 0x1p-11); /* the tie 1 + 2^-11 -> 1 */
  CHECK(st.max_rel_error == 1.0);     /* the underflow */
  /* accumulate: the same again with SATURATE and FLUSH */
  CHECK_OK(onnxslim_convert_f32_to_f16(out, in, 10, SAT | FLUSH, &st));
  CHECK(out[1] == 0x7BFF && out[2] == 0xFBFF && out[3] == 0x7C00);
  CHECK(st.count == 20 && st.nan == 2 && st.to_inf == 2 && st.saturated == 2);
  CHECK(st.flushed == 3);                             /* 2^-26 twice, 2^-20 once */
  CHECK(st.max_abs_error == (double)1e30f - 65504.0); /* the saturated -1e30 */
  CHECK(st.max_rel_error == 1.0);
  CHECK_OK(onnxslim_convert_stats_init(&st, ONNXSLIM_CONVERT_STATS_VERSION));
  CHECK(st.count == 0 && st.max_abs_error == 0 && st.version == ONNXSLIM_CONVERT_STATS_VERSION);

  /* BF16: overflow only at the top, truncation error */
  float b[4] = {f32_of(0x7F7FFFFF), f32_of(0x3F80FFFF), 1.0f, f32_of(0x00400000)};
  uint16_t bo[4];
  CHECK_OK(onnxslim_convert_f32_to_bf16(bo, b, 4, TRUNC | FLUSH, &st));
  CHECK(st.count == 4 && st.to_inf == 0 && st.saturated == 0 && st.flushed == 1);
  CHECK(st.max_rel_error == 1.0);
  CHECK_OK(onnxslim_convert_stats_init(&st, ONNXSLIM_CONVERT_STATS_VERSION));
  CHECK_OK(onnxslim_convert_f32_to_bf16(bo, b, 3, 0, &st));
  CHECK(st.to_inf == 1 && st.max_abs_error == 0x1p-23 && st.max_rel_error > 0x1p-24);
  CHECK_OK(onnxslim_convert_stats_init(&st, ONNXSLIM_CONVERT_STATS_VERSION));
  CHECK_OK(onnxslim_convert_f32_to_bf16(bo, b, 3, SAT, &st));
  CHECK(st.to_inf == 0 && st.saturated == 1 && bo[0] == 0x7F7F);

  /* FP64 */
  double d[5] = {1e300, -1e-300, 0.1, NAN, -INFINITY};
  float fo[5];
  CHECK_OK(onnxslim_convert_stats_init(&st, ONNXSLIM_CONVERT_STATS_VERSION));
  CHECK_OK(onnxslim_convert_f64_to_f32(fo, d, 5, 0, &st));
  CHECK(st.count == 5 && st.to_inf == 1 && st.flushed == 1 && st.nan == 1);
  CHECK(st.max_abs_error == (double)0.1f - 0.1 && st.max_rel_error == 1.0);
  CHECK_OK(onnxslim_convert_f64_to_f32(fo, d, 5, SAT, &st));
  CHECK(st.count == 10 && st.saturated == 1 && fo[0] == FLT_MAX && fo[4] == -INFINITY);
  CHECK(st.max_abs_error == 1e300 - (double)FLT_MAX);
}

TEST(stats_chunked_equals_whole) {
  enum { N = 10000 };
  float *in = malloc(N * 4);
  uint16_t *o = malloc(N * 2);
  CHECK(in && o);
  if (!in || !o) return;
  for (size_t i = 0; i < N; i++) in[i] = f32_of((uint32_t)next_rand());
  onnxslim_convert_stats whole = ONNXSLIM_CONVERT_STATS_INIT, parts = ONNXSLIM_CONVERT_STATS_INIT;
  CHECK_OK(onnxslim_convert_f32_to_f16(o, in, N, 0, &whole));
  for (size_t i = 0; i < N;) {
    size_t c = 1 + next_rand() % 3000;
    if (c > N - i) c = N - i;
    CHECK_OK(onnxslim_convert_f32_to_f16(o + i, in + i, c, 0, &parts));
    i += c;
  }
  CHECK(whole.count == N && parts.count == N && whole.nan == parts.nan &&
        whole.to_inf == parts.to_inf && whole.flushed == parts.flushed &&
        whole.max_abs_error == parts.max_abs_error && whole.max_rel_error == parts.max_rel_error);
  CHECK(whole.nan > 0 && whole.to_inf > 0 && whole.flushed > 0);
  free(in), free(o);
}

/* ---- argument errors ------------------------------------------------------------- */

TEST(errors) {
  float f[2] = {1.0f, 2.0f};
  uint16_t h[2] = {0x1111, 0x2222};
  double d[2] = {1.0, 2.0};
  onnxslim_convert_stats st = ONNXSLIM_CONVERT_STATS_INIT;
  onnxslim_error_clear();
  CHECK(onnxslim_convert_f32_to_bf16(NULL, f, 2, 0, NULL) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_error_last_code() == ONNXSLIM_EINVAL && onnxslim_error_last()[0] != '\0');
  CHECK(strstr(onnxslim_error_last(), "onnxslim_convert_f32_to_bf16") != NULL);
  CHECK(onnxslim_convert_f32_to_bf16(h, NULL, 2, 0, NULL) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_convert_f32_to_f16(h, NULL, 1, 0, NULL) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_convert_bf16_to_f32(NULL, h, 1) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_convert_f16_to_f32(f, NULL, 1) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_convert_f64_to_f32(NULL, d, 1, 0, NULL) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_convert_f32_to_f64(d, NULL, 1) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_convert_f16_to_bf16(NULL, h, 1, 0, NULL) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_convert_bf16_to_f16(h, NULL, 1, 0, NULL) == ONNXSLIM_EINVAL);
  /* n == 0 with NULL pointers is a no-op */
  CHECK_OK(onnxslim_convert_f32_to_bf16(NULL, NULL, 0, 0, NULL));
  CHECK_OK(onnxslim_convert_f32_to_f16(NULL, NULL, 0, 0, &st));
  CHECK_OK(onnxslim_convert_bf16_to_f32(NULL, NULL, 0));
  CHECK_OK(onnxslim_convert_f16_to_f32(NULL, NULL, 0));
  CHECK_OK(onnxslim_convert_f64_to_f32(NULL, NULL, 0, SAT, NULL));
  CHECK_OK(onnxslim_convert_f32_to_f64(NULL, NULL, 0));
  CHECK_OK(onnxslim_convert_f16_to_bf16(NULL, NULL, 0, TRUNC, NULL));
  CHECK_OK(onnxslim_convert_bf16_to_f16(NULL, NULL, 0, FLUSH, NULL));
  CHECK(st.count == 0);
  /* reserved and inapplicable flags, also with n == 0; nothing written */
  CHECK(onnxslim_convert_f32_to_bf16(h, f, 2, 0x8, NULL) == ONNXSLIM_EINVAL);
  CHECK(strstr(onnxslim_error_last(), "reserved") != NULL);
  CHECK(onnxslim_convert_f32_to_bf16(h, f, 2, 0x80000000u, NULL) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_convert_f32_to_bf16(NULL, NULL, 0, 0x10, NULL) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_convert_f32_to_f16(h, f, 2, TRUNC, NULL) == ONNXSLIM_EINVAL);
  CHECK(strstr(onnxslim_error_last(), "TRUNCATE") != NULL);
  CHECK(onnxslim_convert_f64_to_f32(f, d, 2, TRUNC | SAT, NULL) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_convert_bf16_to_f16(h, h + 1, 1, TRUNC, NULL) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_convert_f16_to_bf16(h, h + 1, 1, 0x100, NULL) == ONNXSLIM_EINVAL);
  CHECK(h[0] == 0x1111 && h[1] == 0x2222 && f[0] == 1.0f && f[1] == 2.0f);
  /* stats version */
  st.version = 0;
  CHECK(onnxslim_convert_f32_to_bf16(h, f, 2, 0, &st) == ONNXSLIM_EINVAL);
  st.version = ONNXSLIM_CONVERT_STATS_VERSION + 1;
  CHECK(onnxslim_convert_f32_to_f16(h, f, 2, 0, &st) == ONNXSLIM_EINVAL);
  CHECK(strstr(onnxslim_error_last(), "stats version") != NULL);
  CHECK(h[0] == 0x1111 && st.count == 0);
  CHECK(onnxslim_convert_stats_init(NULL, ONNXSLIM_CONVERT_STATS_VERSION) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_convert_stats_init(&st, 0) == ONNXSLIM_EINVAL);
  CHECK(onnxslim_convert_stats_init(&st, ONNXSLIM_CONVERT_STATS_VERSION + 1) == ONNXSLIM_EINVAL);
  /* the accepted flags work */
  st.version = ONNXSLIM_CONVERT_STATS_VERSION;
  CHECK_OK(onnxslim_convert_f32_to_bf16(h, f, 2, TRUNC | SAT | FLUSH, &st));
  CHECK_OK(onnxslim_convert_f16_to_bf16(h, h, 0, TRUNC | SAT | FLUSH, &st));
  CHECK_OK(onnxslim_convert_f64_to_f32(f, d, 2, SAT | FLUSH, &st));
  CHECK(st.count == 4);
}

int main(int argc, char **argv) {
  t_args(argc, argv);
  init_p2();
  RUN(f32_to_bf16_values);
  RUN(f32_to_f16_values);
  RUN(f64_to_f32_values);
  RUN(widening_values);
  RUN(f16_bf16_values);
  RUN(exhaustive_bf16_to_f32);
  RUN(exhaustive_f16_to_f32);
  RUN(exhaustive_f16_to_bf16);
  RUN(exhaustive_bf16_to_f16);
  RUN(sample_f32_to_bf16_f16);
  RUN(sample_f64_to_f32);
  RUN(every_length_and_misaligned);
  RUN(stats_counts);
  RUN(stats_chunked_equals_whole);
  RUN(errors);
  return t_done();
}
