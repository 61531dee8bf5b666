/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - the SIMD conversion kernels, written once over GCC/Clang
 * vector types and included once per path by convert_simd.c (AVX2, AVX-512) and
 * convert_neon.c (NEON, NEON with BF16),
 * with these macros and helpers defined:
 *
 *   X(name)   name with the path's suffix (name_avx2, name_neon, ...)
 *   W         lanes of 32 bits per vector (8, 16; 4 for NEON)
 *   IA        static always-inline function with the path's target attribute
 *   NA        static never-inlined function with the path's target attribute
 *   TA        the target attribute alone (for the kernels)
 *   VU32 VI32 W lanes of uint32_t / int32_t
 *   VF32      W lanes of float
 *   VU64 VI64 VF64  W/2 lanes of uint64_t / int64_t / double
 *   VH        W FP16 values (an __m128i / __m256i / uint16x4_t)
 *   X(sel) X(sel64) m ? a : b lane by lane (m: a compare's result)
 *   X(sel_gt)  a > b ? x : y lane by lane
 *   X(ld32) X(st32) X(ld16) X(st16) X(cvtph) X(h2f) X(ldh) X(sth)
 *   X(stats_hit) the stats' first test of a vector (quick32), a bit mask
 *   X(any32) X(gti_any) X(gti64_any)
 *             X(gtu_any) X(gtu64_any) X(maxps) X(maxpd) X(pd2ps) X(ps2pd) X(ldpd) X(stpd): loads,
 * stores, conversions HAS_BF16  1 when the path has vcvtneps2bf16 (X(bf16_rne), X(st_bf16_rne))
 *
 * and NT_MIN, NT_FENCE() (the outputs written with non-temporal stores, the
 * fence after them).
 *
 * Every function computes, lane by lane, exactly what the scalar reference
 * (convert_scalar.c) computes; comments say where the hardware's own
 * conversion is used and why it agrees. Callers have checked that the
 * floating-point environment (SSE's MXCSR, AArch64's FPCR) is the default one
 * (round to nearest, no flush-to-zero), so the
 * hardware conversions round to nearest even and see subnormals as they are.
 *
 * Stats are computed in the same loop as the conversion, on the vectors just
 * converted: counters are vectors of per-lane counts (a comparison gives -1 in
 * a lane, subtracted), folded into 64-bit totals once per chunk; maximum
 * errors are per-lane maxima in double, folded once per call. The errors are
 * the scalar reference's: |y - x| in double of the exact input and result
 * magnitudes, and |y - x| / x, divided only when some lane may exceed its
 * current maximum (the same conservative test as the reference).
 */

/* ---- element-wise helpers ------------------------------------------------ */

/* FP32 bits -> BF16 bits in the low half of each lane (f32_to_bf16_1). All
 * compares are on values below 2^31, as signed lanes (AVX2 has no unsigned
 * compare). */
IA VU32 X(f32_bf16)(VU32 u, unsigned int fl) {
  VI32 a = (VI32)(u & 0x7FFFFFFFu);
  VU32 r = (fl & F_TRUNC) ? u : u + 0x7FFFu + ((u >> 16) & 1u);
  if ((fl & F_SAT) && !(fl & F_TRUNC))
    r = X(sel)((a >= 0x7F7F8000) & (a < 0x7F800000), (u & 0x80000000u) | 0x7F7F0000u, r);
  if (fl & F_FLUSH) r = X(sel)((VI32)((r & 0x7F800000u) == 0), r & 0x80000000u, r);
  r = X(sel_gt)(a, 0x7F800000, u | 0x00400000u, r);
  return r >> 16;
}

/* f32_bf16 for the lanes without a special input (below sat_min: no NaN,
 * nothing SATURATE changes), in fewer instructions. */
IA VU32 X(f32_bf16_quick)(VU32 u, unsigned int fl) {
  VU32 r = (fl & F_TRUNC) ? u : u + 0x7FFFu + ((u >> 16) & 1u);
  if (fl & F_FLUSH) r = X(sel)((VI32)((r & 0x7F800000u) == 0), r & 0x80000000u, r);
  return r >> 16;
}

/* FP32 bits -> FP16 with the hardware conversion (F16C vcvtps2ph, round to
 * nearest even from its immediate), which agrees with f32_to_f16_1 on every
 * input: overflow to Inf from 65520 on, subnormal results rounded, NaN made
 * quiet with the top payload bits. The flags are applied to the input first:
 * SATURATE replaces finite values that would overflow by 65504, FLUSH
 * replaces values below the midpoint of the largest subnormal and the
 * smallest normal (2^-14 - 2^-25, which rounds to even: up) by signed zero. */
IA VH X(f32_f16)(VU32 u, unsigned int fl) {
  if (fl & (F_SAT | F_FLUSH)) u = X(f16_flags)(u, fl);
  return X(cvtph)(u);
}

/* BF16 in the low half of each lane -> FP32 bits (bf16_to_f32_1). */
IA VU32 X(bf16_f32)(VU32 h) {
  VU32 r = h << 16;
  return r | ((VU32)((VI32)(r & 0x7FFFFFFFu) > 0x7F800000) & 0x00400000u);
}

/* FP64 (two halves) -> FP32 bits with the hardware conversion (vcvtpd2ps,
 * correctly rounded in the default environment; NaN quiet with the top
 * payload bits, as f64_to_f32_1 makes it). SATURATE: finite inputs above
 * FLT_MAX become FLT_MAX first (all of them that do not overflow round to it
 * anyway); FLUSH: subnormal results become signed zero (the result has the
 * input's sign). */
IA VU32 X(f64_f32)(VU64 lo, VU64 hi, unsigned int fl) {
  if (fl & F_SAT) {
    VI64 al = (VI64)(lo & 0x7FFFFFFFFFFFFFFFu), ah = (VI64)(hi & 0x7FFFFFFFFFFFFFFFu);
    VI64 ml = (al > 0x47EFFFFFE0000000) & (al < 0x7FF0000000000000);
    VI64 mh = (ah > 0x47EFFFFFE0000000) & (ah < 0x7FF0000000000000);
    lo = X(sel64)(ml, (lo & 0x8000000000000000u) | 0x47EFFFFFE0000000u, lo);
    hi = X(sel64)(mh, (hi & 0x8000000000000000u) | 0x47EFFFFFE0000000u, hi);
  }
  VU32 r = X(pd2ps)((VF64)lo, (VF64)hi);
  if (fl & F_FLUSH) r = X(sel)((VI32)(r & 0x7FFFFFFFu) < 0x00800000, r & 0x80000000u, r);
  return r;
}

/* ---- fused stats ----------------------------------------------------------- *
 * Counters: NaN, Inf, overflow and saturation all have |x| at or above the
 * overflow threshold (or Inf): one compare per vector finds them, and only
 * vectors with such a lane (rare in weights) count them, with vectors of
 * per-lane counts, folded into 64-bit totals once per chunk.
 *
 * Maximum absolute error: per-lane maxima. For FP32, FP16 and BF16 inputs x
 * and the result y are FP32 values, and unless the result was saturated,
 * y - x is exact in float (y is x rounded to fewer bits, or 0, or the
 * smallest normal for tiny x: the difference is a multiple of x's ulp no
 * larger than x), so |y - x| in float equals the reference's double. A
 * vector with a saturated lane (y = 65504 for a huge x) is done in double.
 *
 * Maximum relative error: only the maximum over all elements matters, so one
 * running maximum `rmax` serves every lane, and a vector is divided (in
 * double, as the reference) only when some lane may exceed it. The test is
 * e * inv >= x, inv = (1 / rmax) (1 + margin) (while rmax = 0: e > 0), compared
 * as the bit patterns of non-negative values (integer order is float order;
 * x - 1 makes it strict for x = 0, whose error is 0 and never counts). It
 * never misses a maximum: if e / x > rmax, e * inv exceeds x by more than the
 * product's rounding, and a subnormal product rounds to a multiple of the
 * smallest subnormal, of which x is one, so it cannot fall below x. Flushed
 * lanes (y = 0, relative error 1 >= rmax) always pass the test, so they are
 * counted there. */

typedef struct {
  VU32 nan, inf, sat, flush; /* per-lane counts since the last fold */
  VF32 fabs, finv;           /* per-lane maximum error (float); e * finv >= x test */
  VF64 dabs, dinv;           /* the same in double */
  double rmax;               /* maximum relative error */
  uint64_t t_nan, t_inf, t_sat, t_flush;
} X(acc);

typedef struct {
  VU64 nan, inf, sat, flush;
  VF32 fabs, finv; /* unused */
  VF64 dabs, dinv;
  double rmax;
  uint64_t t_nan, t_inf, t_sat, t_flush;
} X(acc64);

/* The inverse thresholds for rmax, with margins that cover the roundings of
 * 1 / rmax, its conversion to float and the product e * inv. */
IA void X(inv_of)(VF32 *finv, VF64 *dinv, double rmax) {
  VF32 zf = {0};
  VF64 zd = {0};
  double i = 1.0 / rmax; /* rmax > 0 */
  double f = i * (1 + 0x1p-19);
  *finv = zf + (f < 0x1p127 ? (float)f : __builtin_inff());
  *dinv = zd + i * (1 + 0x1p-40);
}

/* Relative errors e / x of 2 x W/2 lanes (x > 0 where e > 0) into *rmax.
 * Returns 1 when *rmax changed. */
IA int X(rel)(double *rmax, VF64 xl, VF64 el, VF64 xh, VF64 eh) {
  VF64 one = (VF64)((VU64)xl ^ (VU64)xl) + 1.0;
  VF64 ql = el / (VF64)X(sel64)(xl > 0.0, (VU64)xl, (VU64)one);
  VF64 qh = eh / (VF64)X(sel64)(xh > 0.0, (VU64)xh, (VU64)one);
  VF64 q = X(maxpd)(ql, qh);
  int changed = 0;
  for (int i = 0; i < W / 2; i++)
    if (q[i] > *rmax) *rmax = q[i], changed = 1;
  return changed;
}

/* 1 when some lane has e > r * x exactly (e, x: FP32 values as doubles,
 * x >= 0, r >= 0). Only such a lane can have a rounded quotient e / x above
 * r (rounding is monotonic and r is a double), so lanes with e / x = r
 * exactly, frequent where inputs are few distinct values, are not divided.
 * r = rh + rl with rh of 26 significant bits (Veltkamp's split), so x * rh
 * and x * rl are exact (x has at most 24 bits; no underflow for FP32 x and
 * the r that occur). With a = x * rh, b = x * rl (|b| <= 2^-26 a):
 * if a / 2 <= e <= 2a, e - a is exact (Sterbenz) and e > a + b is e - a > b;
 * if e > 2a, e - a rounds to at least a > b; if e < a / 2, e - a rounds to at
 * most -a / 2 < -|b|: the rounded e - a > b is the exact answer in all
 * cases. */
IA int X(rel_may_exceed)(double r, VF64 xl, VF64 el, VF64 xh, VF64 eh) {
  double c = r * 134217729.0; /* 2^27 + 1 */
  double rh = c - (c - r), rl = r - rh;
  VI64 ml = (el - xl * rh) > xl * rl, mh = (eh - xh * rh) > xh * rl;
  return X(any32)((VI32)(ml | mh));
}

/* Errors in double of 2 x W/2 lanes: x, y are the input and result
 * magnitudes (0 in lanes that do not count, where the error is then 0).
 * Returns the mask of the lanes that passed the relative-error test (so the
 * caller can count flushed lanes among them), or 0. */
IA int X(err)(VF64 *mabs, VF64 *dinv, VF32 *finv, double *rmax, VF64 xl, VF64 yl, VF64 xh,
              VF64 yh) {
  VF64 el = (VF64)((VU64)(yl - xl) & 0x7FFFFFFFFFFFFFFFu);
  VF64 eh = (VF64)((VU64)(yh - xh) & 0x7FFFFFFFFFFFFFFFu);
  *mabs = X(maxpd)(*mabs, X(maxpd)(el, eh));
  VU64 z = (VU64)xl ^ (VU64)xl;
  if (*rmax > 0
          ? !X(gtu64_any)((VU64)(el * *dinv), (VU64)xl - 1u, (VU64)(eh * *dinv), (VU64)xh - 1u)
          : !X(gtu64_any)((VU64)el, z, (VU64)eh, z))
    return 0;
  if (X(rel)(rmax, xl, el, xh, eh)) X(inv_of)(finv, dinv, *rmax);
  return 1;
}

/* Errors of W lanes in float: x, y are the input and result as FP32 bits,
 * of the same sign (or both magnitudes), xa = |x| (0 in lanes that do not
 * count, where x = y = 0 too); the result not saturated. count_flush: count
 * the flushed lanes (see above). sub: x may be an FP32 subnormal; if not, the
 * test e * inv >= x is e * inv > x: a product that stays normal exceeds x by
 * more than its rounding when e / x > rmax, and one from a normal x does. */
IA void X(err32)(X(acc) * A, VU32 xa, VU32 x, VU32 y, int count_flush, int sub) {
  VF32 e = (VF32)((VU32)((VF32)y - (VF32)x) & 0x7FFFFFFFu);
  A->fabs = X(maxps)(A->fabs, e);
  if (A->rmax > 0 ? X(rel_test)((VU32)(e * A->finv), xa, sub) : X(gtu_any)((VU32)e, xa ^ xa)) {
    /* Lanes with y = 0 < x: e = x, relative error exactly 1, no division. */
    VI32 fz = (VI32)((y & 0x7FFFFFFFu) == 0) & (VI32)(xa != 0);
    if (count_flush) A->flush -= (VU32)fz;
    if (X(any32)(fz)) {
      xa &= ~(VU32)fz;
      e = (VF32)((VU32)e & ~(VU32)fz);
      if (A->rmax < 1) {
        A->rmax = 1;
        X(inv_of)(&A->finv, &A->dinv, 1);
      }
      if (!X(rel_test)((VU32)(e * A->finv), xa, sub)) return;
    }
    VF64 xl, xh, el, eh;
    X(ps2pd)(xa, &xl, &xh);
    X(ps2pd)((VU32)e, &el, &eh);
    if (X(rel_may_exceed)(A->rmax, xl, el, xh, eh) && X(rel)(&A->rmax, xl, el, xh, eh))
      X(inv_of)(&A->finv, &A->dinv, A->rmax);
  }
}

/* Stats of W values with a special lane (NaN, Inf, overflow): every counter,
 * and the errors of the lanes that count; in double when a lane was
 * saturated. */
IA void X(stats32_special)(X(acc) * A, VI32 a, VI32 oa, int32_t sat_min, int sub) {
  VI32 fin = a < 0x7F800000, inf = oa == 0x7F800000, ok = fin & ~inf;
  VI32 sat = ok & (a >= sat_min);
  A->nan -= (VU32)(a > 0x7F800000);
  A->inf -= (VU32)(fin & inf);
  A->sat -= (VU32)sat;
  A->flush -= (VU32)(ok & (oa == 0) & (a != 0));
  VU32 xa = (VU32)(a & ok), ya = (VU32)(oa & ok);
  if (sat_min != 0x7FFFFFFF && X(any32)(sat)) {
    VF64 xl, xh, yl, yh;
    X(ps2pd)(xa, &xl, &xh);
    X(ps2pd)(ya, &yl, &yh);
    X(err)(&A->dabs, &A->dinv, &A->finv, &A->rmax, xl, yl, xh, yh);
    return;
  }
  X(err32)(A, xa, xa, ya, 0, sub);
}

/* Stats of W values, given as FP32 bits: input `in`, result `out` (acc_f32).
 * sat_min: the smallest |input| that overflows (0x7FFFFFFF: none). sub: an
 * input may be an FP32 subnormal. */
IA void X(stats32)(X(acc) * A, VU32 in, VU32 out, int32_t sat_min, int sub) {
  VI32 a = (VI32)(in & 0x7FFFFFFFu);
  int32_t lim = sat_min < 0x7F800000 ? sat_min : 0x7F800000;
  if (X(gti_any)(a, lim - 1)) X(stats32_special)(A, a, (VI32)(out & 0x7FFFFFFFu), sat_min, sub);
  else X(err32)(A, (VU32)a, in, out, 1, sub);
}

/* The common case of stats32 first, in a few instructions: the errors
 * |out - in| into *e, and nonzero when some lane needs stats32 (a special
 * input, or an error that may be a new maximum, or a flushed result: the
 * test of err32 with the float compare of stats_hit). When it returns 0,
 * stats32 would only have taken the maximum of A->fabs and *e, which the
 * caller does (for two vectors at once). finv is A->finv, or while
 * A->rmax = 0 (every error > 0 is then tested) +Inf (KERNEL_BODY sets it),
 * or with sub = 0 FLT_MAX (see FINV0).
 * sub = 0 is used for FP16 inputs converted to BF16 only: their special
 * lanes (NaN, Inf) have a NaN error there (NaN input, or Inf - Inf), which
 * stats_hit takes as a hit, so it needs no test of its own; and an error
 * > 0 is at least 2^-24 (both values are multiples of 2^-24), so
 * e * FLT_MAX > a tests e > 0 without the NaN of 0 * Inf. */
IA unsigned int X(quick32)(VF32 finv, VU32 in, VU32 out, int32_t sat_min, int sub, VF32 *e) {
  VI32 a = (VI32)(in & 0x7FFFFFFFu);
  int32_t lim = sat_min < 0x7F800000 ? sat_min : 0x7F800000;
  *e = (VF32)((VU32)((VF32)out - (VF32)in) & 0x7FFFFFFFu);
  return X(stats_hit)(a, *e, finv, lim - 1, sub);
}

/* stats32 as a function of its own, for the loops' rare calls: inlined, its
 * code made the compiler keep the loops' accumulators in memory. */
NA void X(stats32_call)(X(acc) * A, VU32 in, VU32 out, int32_t sat_min, int sub) {
  X(stats32)(A, in, out, sat_min, sub);
}

/* Stats of 2 x W/2 FP64 inputs b and their results as doubles y (acc_f64). */
IA void X(stats64)(X(acc64) * A, VU64 bl, VF64 yl, VU64 bh, VF64 yh) {
  VI64 al = (VI64)(bl & 0x7FFFFFFFFFFFFFFFu), ah = (VI64)(bh & 0x7FFFFFFFFFFFFFFFu);
  VI64 ol = (VI64)((VU64)yl & 0x7FFFFFFFFFFFFFFFu), oh = (VI64)((VU64)yh & 0x7FFFFFFFFFFFFFFFu);
  int special = X(gti64_any)(al, ah, 0x47EFFFFFF0000000 - 1);
  if (special) {
    VI64 finl = al < 0x7FF0000000000000, infl = ol == 0x7FF0000000000000, okl = finl & ~infl;
    VI64 finh = ah < 0x7FF0000000000000, infh = oh == 0x7FF0000000000000, okh = finh & ~infh;
    A->nan -= (VU64)(al > 0x7FF0000000000000) + (VU64)(ah > 0x7FF0000000000000);
    A->inf -= (VU64)(finl & infl) + (VU64)(finh & infh);
    A->sat -= (VU64)(okl & (al >= 0x47EFFFFFF0000000)) + (VU64)(okh & (ah >= 0x47EFFFFFF0000000));
    A->flush -= (VU64)(okl & (ol == 0) & (al != 0)) + (VU64)(okh & (oh == 0) & (ah != 0));
    al &= okl, ol &= okl, ah &= okh, oh &= okh;
  }
  if (X(err)(&A->dabs, &A->dinv, &A->finv, &A->rmax, (VF64)al, (VF64)ol, (VF64)ah, (VF64)oh) &&
      !special)
    A->flush -= (VU64)((ol == 0) & (al != 0)) + (VU64)((oh == 0) & (ah != 0));
}

IA void X(fold)(X(acc) * A) {
  for (int i = 0; i < W; i++)
    A->t_nan += A->nan[i], A->t_inf += A->inf[i], A->t_sat += A->sat[i], A->t_flush += A->flush[i];
  A->nan = A->inf = A->sat = A->flush = A->nan ^ A->nan;
}

IA void X(fold64)(X(acc64) * A) {
  for (int i = 0; i < W / 2; i++)
    A->t_nan += A->nan[i], A->t_inf += A->inf[i], A->t_sat += A->sat[i], A->t_flush += A->flush[i];
  A->nan = A->inf = A->sat = A->flush = A->nan ^ A->nan;
}

IA void X(merge)(onnxslim_convert_stats *st, size_t n, uint64_t nan, uint64_t inf, uint64_t sat,
                 uint64_t flush, VF32 fabs, VF64 dabs, double rmax) {
  st->count += n, st->nan += nan, st->to_inf += inf, st->saturated += sat, st->flushed += flush;
  for (int i = 0; i < W / 2; i++)
    if (dabs[i] > st->max_abs_error) st->max_abs_error = dabs[i];
  for (int i = 0; i < W; i++)
    if ((double)fabs[i] > st->max_abs_error) st->max_abs_error = fabs[i];
  if (rmax > st->max_rel_error) st->max_rel_error = rmax;
}

/* Once the maximum relative error is 1, no error can raise it: a result
 * rounded to nearest (or truncated) from a finite x is 0 or has x's sign
 * and |y - x| < |x|; a saturated one is below |x| too. Then only special
 * lanes (NaN, Inf, overflow) need stats32, and the flushed lanes (a zero
 * from a nonzero x) are counted in the loop: they are the lanes whose error
 * is |x|, nonzero (a lane without a special input has no other).
 * special2: the errors |out - in| of two vectors into *e0, *e1, and 1 when
 * some lane's input is special. flushed: -1 in the flushed lanes. */
IA int X(special2)(VU32 in0, VU32 out0, VU32 in1, VU32 out1, int32_t sat_min, VF32 *e0, VF32 *e1) {
  int32_t lim = (sat_min < 0x7F800000 ? sat_min : 0x7F800000) - 1;
  *e0 = (VF32)((VU32)((VF32)out0 - (VF32)in0) & 0x7FFFFFFFu);
  *e1 = (VF32)((VU32)((VF32)out1 - (VF32)in1) & 0x7FFFFFFFu);
  return X(any32)(((VI32)(in0 & 0x7FFFFFFFu) > lim) | ((VI32)(in1 & 0x7FFFFFFFu) > lim));
}

IA VU32 X(flushed)(VU32 in, VF32 e) {
  /* e >= |x| > 0 as e > the float below |x| (a NaN for x = 0: false) */
  return (VU32)(e > (VF32)((in & 0x7FFFFFFFu) - 1u));
}

/* ---- loops ------------------------------------------------------------------ *
 * Each loop converts nv elements (a multiple of W), with stats into A when A
 * is not NULL; fl and A's presence are constants after inlining. The input
 * PREFETCH bytes ahead is requested while it is inside the input (see
 * convert_scalar.c: the hardware prefetcher alone did not keep up). */
#define PREFETCH 4096
#define PF(IN) \
  if ((nv - k) * (IN) > PREFETCH) __builtin_prefetch(s + (IN)*k + PREFETCH)

/* Two vectors per iteration, for the kernels whose stats are stats32:
 * LOAD(K) gives the input of elements K.. as FP32 bits, FULL(u) the result
 * to store, FAST(u) the same result for the vectors that pass the quick
 * test of the stats (it may be wrong in the lanes that fail it: special
 * inputs), OBITS(r) a result as FP32 bits, STORE(K, r) stores it. With
 * stats, both vectors are tested at once (quick32) and only then, rarely,
 * converted again with FULL and given to stats32; once the maximum
 * relative error is 1, the test is special2's and the flushed lanes are
 * counted in the loop (see special2). The pairs that go to stats32 are
 * handled outside the inner loops, which call nothing, so that the compiler
 * keeps their accumulators in registers (a call in the loop made it keep
 * the maximum error in memory, a store and a load on every pair's path:
 * f32->f16 with stats at 22 GB/s instead of 32 on AVX2). DIRECT(K), with stats
 * only: 1 when it has converted and stored the two vectors of elements K..
 * itself, known to convert exactly, without a special lane (nothing to
 * count, errors 0); without stats, the hardware's conversion (FULL) takes
 * fewer instructions. */
/* LOOP32X2's inner loop (its arguments passed on): the pairs from k on
 * while HIT (of u0, u1, their results r0, r1 and errors e0, e1) is 0, each
 * pair's errors into fmax and COUNT done; it leaves k at the pair that HIT
 * stopped (or the end). */
#define PAIRS32(IN, LOAD, FAST, FULL, STORE, DIRECT, HIT, COUNT) \
  for (; k + 2 * W <= nv; k += 2 * W) {                          \
    PF(IN);                                                      \
    if (DIRECT(k)) continue;                                     \
    VU32 u0 = LOAD(k), u1 = LOAD(k + W);                         \
    __typeof__(FULL(u0)) r0 = FAST(u0), r1 = FAST(u1);           \
    VF32 e0, e1;                                                 \
    if (HIT) break;                                              \
    fmax = X(maxps)(fmax, X(maxps)(e0, e1));                     \
    COUNT;                                                       \
    STORE(k, r0);                                                \
    STORE(k + W, r1);                                            \
  }

#define LOOP32X2(IN, LOAD, FAST, FULL, OBITS, STORE, SAT_MIN, SUB, DIRECT)     \
  X(acc) L;                                                                    \
  const VF32 zf = {0};                                                         \
  VF32 fmax = zf, finv = zf; /* the maximum error and A->finv, in registers */ \
  VU32 nflush = (VU32)zf;    /* flushed lanes counted in the loop */           \
  size_t k = 0;                                                                \
  if (!Ap) {                                                                   \
    for (; k + 2 * W <= nv; k += 2 * W) {                                      \
      PF(IN);                                                                  \
      STORE(k, FULL(LOAD(k)));                                                 \
      STORE(k + W, FULL(LOAD(k + W)));                                         \
    }                                                                          \
  } else {                                                                     \
    L = *Ap, finv = FINV0(L, SUB, zf);                                         \
    for (;;) {                                                                 \
      /* the inner loops call nothing: their accumulators stay in registers */ \
      if (L.rmax < 1)                                                          \
        PAIRS32(IN, LOAD, FAST, FULL, STORE, DIRECT,                           \
                X(quick32)(finv, u0, OBITS(r0), SAT_MIN, SUB, &e0) |           \
                    X(quick32)(finv, u1, OBITS(r1), SAT_MIN, SUB, &e1),        \
                (void)0)                                                       \
      else /* no error raises rmax = 1 (see X(special2)) */                    \
        PAIRS32(IN, LOAD, FAST, FULL, STORE, DIRECT,                           \
                X(special2)(u0, OBITS(r0), u1, OBITS(r1), SAT_MIN, &e0, &e1),  \
                nflush -= X(flushed)(u0, e0) + X(flushed)(u1, e1))             \
      if (k + 2 * W > nv) break;                                               \
      /* the pair that stopped it, by stats32 */                               \
      VU32 u0 = LOAD(k), u1 = LOAD(k + W);                                     \
      __typeof__(FULL(u0)) r0 = FULL(u0), r1 = FULL(u1);                       \
      X(stats32_call)(&L, u0, OBITS(r0), SAT_MIN, SUB);                        \
      X(stats32_call)(&L, u1, OBITS(r1), SAT_MIN, SUB);                        \
      finv = FINV0(L, SUB, zf);                                                \
      STORE(k, r0);                                                            \
      STORE(k + W, r1);                                                        \
      k += 2 * W;                                                              \
    }                                                                          \
  }                                                                            \
  if (k < nv) {                                                                \
    VU32 u = LOAD(k);                                                          \
    __typeof__(FULL(u)) r = FULL(u);                                           \
    STORE(k, r);                                                               \
    if (Ap) X(stats32_call)(&L, u, OBITS(r), SAT_MIN, SUB);                    \
  }                                                                            \
  if (Ap) L.fabs = X(maxps)(L.fabs, fmax), L.flush += nflush, *Ap = L

#define FINV0(L, SUB, ZERO) ((SUB) || (L).rmax > 0 ? (L).finv : (ZERO) + 0x1.fffffep127f)
#define BITS16(r) ((r) << 16)
#define NO_DIRECT(K) 0
#define ST16(K, r) X(st16)(d + 2 * (K), r, nt)
#define STH(K, h) X(sth)(d + 2 * (K), h, nt)

/* BF16 -> FP16 of 2W elements at s, stored at d, when all are zeros or
 * BF16 values in the FP16 normal range (from 2^-14 up to 65280, the largest
 * BF16 value below FP16's overflow threshold): FP16 values whatever the
 * flags, converted exactly by integer arithmetic on the 16-bit patterns
 * (the exponent rebiased from 127 to 15, the 7 fraction bits shifted into
 * FP16's 10). Returns 1, or 0 (nothing stored) when some value is not such
 * a value. */
typedef uint16_t X(u16v) __attribute__((vector_size(4 * W)));
typedef int16_t X(i16v) __attribute__((vector_size(4 * W)));
IA int X(bf16_f16_direct)(unsigned char *d, const unsigned char *s, int nt) {
  X(u16v) b;
  memcpy(&b, s, sizeof b);
  X(i16v) a = (X(i16v))(b & 0x7FFF), zero = a == 0;
  if (X(any32)((VI32)((a > 0x477F) | ((a < 0x3880) ^ zero)))) return 0;
  X(u16v) h = ((X(u16v))(a - 0x3800) << 3 & ~(X(u16v))zero) | (b & 0x8000);
  X(st32)(d, (VU32)h, nt);
  return 1;
}

#if HAS_BF16
IA void X(loop_f32_bf16)(unsigned char *d, const unsigned char *s, size_t nv, int nt,
                         unsigned int fl, X(acc) * Ap, int32_t sat_min) {
  X(acc) L; /* a local copy, which the compiler keeps in registers */
  if (Ap) L = *Ap;
  for (size_t k = 0; k < nv; k += W) {
    PF(4);
    VU32 u = X(ld32)(s + 4 * k);
    if (fl == 0 && !Ap) {
      X(st_bf16_rne)(d + 2 * k, u, nt);
      continue;
    }
    VU32 r = fl == 0 ? X(bf16_rne)(u) : X(f32_bf16)(u, fl);
    X(st16)(d + 2 * k, r, nt);
    if (Ap) X(stats32)(&L, u, r << 16, sat_min, 1);
  }
  if (Ap) *Ap = L;
}

#else
IA void X(loop_f32_bf16)(unsigned char *d, const unsigned char *s, size_t nv, int nt,
                         unsigned int fl, X(acc) * Ap, int32_t sat_min) {
/* FAST leaves out what only special lanes need (their input at or above
 * sat_min: SATURATE, and making NaNs quiet); FULL converts them again. */
#  define LD(K) X(ld32)(s + 4 * (K))
#  define CONV(u) X(f32_bf16)(u, fl)
#  define FAST(u) X(f32_bf16_quick)(u, fl)
  LOOP32X2(4, LD, FAST, CONV, BITS16, ST16, sat_min, 1, NO_DIRECT);
#  undef LD
#  undef CONV
#  undef FAST
}

#endif

/* FAST rounds without making NaNs quiet: NaN lanes are special. */
IA void X(loop_f16_bf16_f32)(unsigned char *d, const unsigned char *s, size_t nv, int nt,
                             unsigned int fl, X(acc) * Ap) {
#define LD(K) X(h2f)(X(ldh)(s + 2 * (K))) /* exact; NaN already quiet */
#define FAST(u) ((fl & F_TRUNC) ? (u) >> 16 : ((u) + 0x7FFFu + (((u) >> 16) & 1u)) >> 16)
#define CONV(u) ((fl & F_TRUNC) ? (u) >> 16 : X(f32_bf16)(u, 0))
  LOOP32X2(2, LD, FAST, CONV, BITS16, ST16, 0x7FFFFFFF, 0, NO_DIRECT);
#undef LD
#undef FAST
#undef CONV
}

/* FP16 -> BF16 (nearest even) with stats on the 16-bit patterns, 2W values
 * per vector: the FP32 route above costs two conversions and twice the
 * vectors, and its stats miss the targets on AVX2. For an FP16 normal
 * number a (sign off) of exponent field E and fraction m, the BF16 result
 * is a rounded to 7 fraction bits, t = (a + 3 + bit 3 of a) >> 3 (nearest
 * even; a carry into the exponent gives the next binade's first value,
 * 65504 gives 65536), rebiased by 127 - 15 = 112 exponents. Its error is
 * e ulp, e = |(t << 3) - a| in 0..4, ulp = 2^(E - 25): the reference's errors
 * are e * 2^(E - 25) and fl(e / q), q = 1024 + m (the powers of two cancel
 * exactly in the division).
 * Maximum absolute error: a key per lane, 0 for e = 0, else 2E + (0, 2, 3,
 * 4 for e = 1..4): e * 2^E is (1, or 1.5 for an odd key) * 2^(key >> 1), so
 * keys order as the errors do; the maximum key is decoded once
 * (f16_bf16_key_max).
 * Maximum relative error: a lane can raise it only if fl(e / q) > rmax;
 * rel_k16 gives the smallest k with e * k > q for every such e and q, so
 * the test e * k > q never misses one, and the lanes at rmax itself do not
 * pass it. A vector with a lane that passes, or with a zero, subnormal, Inf
 * or NaN lane, is left to the FP32 route (f16_bf16_slow). */
/* The smallest k with e * k > q for every e in 1..4 and q in 1024 + e..2047
 * (an error of e ulp needs a fraction m >= e) with fl(e / q) > rmax (for
 * each e, the largest such q is the binary search's: fl(e / q) does not
 * increase with q); 0 when there is none. */
NA int16_t X(rel_k16)(double rmax) {
  int32_t k = 0;
  for (int32_t e = 1; e <= 4; e++) {
    if (!((double)e / (1024 + e) > rmax)) continue;
    int32_t lo = 1024 + e, hi = 2047; /* e / lo > rmax */
    while (lo < hi) {
      int32_t mid = (lo + hi + 1) / 2;
      if ((double)e / mid > rmax) lo = mid;
      else hi = mid - 1;
    }
    if (lo / e + 1 > k) k = lo / e + 1;
  }
  return (int16_t)k;
}

/* The 16-bit route on one vector h of 2W FP16 values: its BF16 values in
 * *out and, with stats (st), each lane's error key (see above) in *key;
 * returns the mask of the lanes that send the vector to the FP32 route: not
 * normal, or (with stats and rel) passing the relative test (factor kf). */
IA X(i16v) X(f16_bf16_lanes)(X(i16v) h, int st, int16_t kf, int rel, X(i16v) * out, X(i16v) * key) {
  X(i16v) a = h & 0x7FFF, t = (a + 3 + ((a >> 3) & 1)) >> 3;
  X(i16v) stop = (a < 0x400) | (a > 0x7BFF);
  *out = (t + 0x3800) | (h ^ a);
  if (st) {
    X(i16v) e = X(abs16)((t << 3) - a);
    if (rel) stop |= e * kf > ((a & 0x3FF) | 0x400);
    *key = X(nz16)((a >> 10) + (a >> 10) + e + (e == 1), e);
  }
  return stop;
}

/* One vector of 2W values at s: 0 when f16_bf16_lanes sends it to the
 * FP32 route; else 1, its BF16 values in *out and, with stats (keyp), the
 * maximum of the keys into *keyp. */
IA int X(f16_bf16_vec)(const unsigned char *s, X(i16v) * keyp, int16_t kf, int rel, X(i16v) * out) {
  X(i16v) h, key = {0};
  memcpy(&h, s, sizeof h);
  if (X(any32)((VI32)X(f16_bf16_lanes)(h, keyp != NULL, kf, rel, out, &key))) return 0;
  if (keyp) *keyp = X(max16)(*keyp, key);
  return 1;
}

/* One or more vectors of W values by the FP32 route, with stats into A
 * unless it is NULL: the rounding without NaNs made quiet, and its quick
 * test (quick32) first, as in LOOP32X2. */
NA void X(f16_bf16_slow)(unsigned char *d, const unsigned char *s, int nt, X(acc) * A, int nvec) {
  const VF32 zf = {0};
  for (int i = 0; i < nvec; i++) {
    VU32 u = X(h2f)(X(ldh)(s + 2 * W * i)), r = (u + 0x7FFFu + ((u >> 16) & 1u)) >> 16;
    VF32 e;
    if (!A) r = X(f32_bf16)(u, 0);
    else if (X(quick32)(FINV0(*A, 0, zf), u, r << 16, 0x7FFFFFFF, 0, &e)) {
      r = X(f32_bf16)(u, 0);
      X(stats32)(A, u, r << 16, 0x7FFFFFFF, 0);
    } else A->fabs = X(maxps)(A->fabs, e);
    X(st16)(d + 2 * W * i, r, nt);
  }
}

/* Converts the pairs of vectors of 2W values from element k on while
 * f16_bf16_lanes sends neither to the FP32 route (no relative test when
 * rel is 0; no stats when keyp is NULL, the maximum of the keys into *keyp
 * otherwise); returns the index of the first pair that it does, or where
 * fewer than 4W values are left. Both vectors' tests are one branch, and
 * the loop calls nothing, so that its key stays in a register. */
IA size_t X(f16_bf16_run)(unsigned char *d, const unsigned char *s, size_t k, size_t nv, int nt,
                          X(i16v) * keyp, int16_t kf, int rel) {
  X(i16v) key = {0};
  if (keyp) key = *keyp;
  for (; k + 4 * W <= nv; k += 4 * W) {
    PF(2);
    X(i16v) h0, h1, r0, r1, k0 = {0}, k1 = {0};
    memcpy(&h0, s + 2 * k, sizeof h0);
    memcpy(&h1, s + 2 * k + 4 * W, sizeof h1);
    X(i16v) m0 = X(f16_bf16_lanes)(h0, keyp != NULL, kf, rel, &r0, &k0);
    X(i16v) m1 = X(f16_bf16_lanes)(h1, keyp != NULL, kf, rel, &r1, &k1);
    if (X(any32)((VI32)(m0 | m1))) break;
    if (keyp) key = X(max16)(key, X(max16)(k0, k1));
    X(st32)(d + 2 * k, (VU32)r0, nt);
    X(st32)(d + 2 * k + 4 * W, (VU32)r1, nt);
  }
  if (keyp) *keyp = key;
  return k;
}

/* The largest error of the keys into A->fabs. */
IA void X(f16_bf16_key_max)(X(acc) * A, X(i16v) key) {
  int32_t m = 0;
  for (int i = 0; i < 2 * W; i++)
    if (key[i] > m) m = key[i];
  if (!m) return;
  union {
    uint32_t u;
    float f;
  } v = {(uint32_t)((m >> 1) - 25 + 127) << 23 | (uint32_t)(m & 1) << 22};
  if (v.f > A->fabs[0]) A->fabs[0] = v.f;
}

/* The run of one case; ST the stats' part, REL the relative test, NT the
 * stores (constants: each case its own loop). */
#define F16_BF16_RUN(ST, REL)                                        \
  (nt ? X(f16_bf16_run)(d, s, k, nv, 1, (ST) ? &key : NULL, kf, REL) \
      : X(f16_bf16_run)(d, s, k, nv, 0, (ST) ? &key : NULL, kf, REL))

IA void X(loop_f16_bf16)(unsigned char *d, const unsigned char *s, size_t nv, int nt,
                         unsigned int fl, X(acc) * Ap) {
  if (fl & F_TRUNC) {
    X(loop_f16_bf16_f32)(d, s, nv, nt, fl, Ap);
    return;
  }
  X(i16v) key = {0}, out;
  int16_t kf = Ap ? X(rel_k16)(Ap->rmax) : 0;
  size_t k = 0;
  for (;;) {
    /* once rmax is the largest relative error of a normal value, 4 / 1028
     * (an error of 4 ulp needs m = 4 mod 8), kf = 0: no test */
    k = !Ap ? F16_BF16_RUN(0, 0) : kf ? F16_BF16_RUN(1, 1) : F16_BF16_RUN(1, 0);
    if (k + 4 * W > nv) break;
    /* the pair that stopped the run, whole, by the FP32 route */
    double rmax = Ap ? Ap->rmax : 0;
    X(f16_bf16_slow)(d + 2 * k, s + 2 * k, nt, Ap, 4);
    if (Ap && Ap->rmax != rmax) kf = X(rel_k16)(Ap->rmax);
    k += 4 * W;
  }
  if (k + 2 * W <= nv) { /* one vector of 2W values left */
    if (X(f16_bf16_vec)(s + 2 * k, Ap ? &key : NULL, kf, kf != 0, &out))
      X(st32)(d + 2 * k, (VU32)out, nt);
    else X(f16_bf16_slow)(d + 2 * k, s + 2 * k, nt, Ap, 2);
    k += 2 * W;
  }
  if (k < nv) X(f16_bf16_slow)(d + 2 * k, s + 2 * k, nt, Ap, 1);
  if (Ap) X(f16_bf16_key_max)(Ap, key);
}
#undef F16_BF16_RUN

/* FAST leaves SATURATE out: a lane it would change is special (its input
 * at or above SAT_MIN) and converted again by FULL. */
IA void X(loop_f32_f16)(unsigned char *d, const unsigned char *s, size_t nv, int nt,
                        unsigned int fl, X(acc) * Ap) {
#define LD(K) X(ld32)(s + 4 * (K))
#define CONV(u) X(f32_f16)(u, fl)
#define FAST(u) X(f32_f16)(u, fl & F_FLUSH)
  LOOP32X2(4, LD, FAST, CONV, X(h2f), STH, 0x477FF000, 1, NO_DIRECT);
#undef LD
#undef CONV
#undef FAST
}

IA void X(loop_bf16_f16)(unsigned char *d, const unsigned char *s, size_t nv, int nt,
                         unsigned int fl, X(acc) * Ap) {
  /* a signaling NaN is made quiet by the conversion */
#define LD(K) (X(ld16)(s + 2 * (K)) << 16)
#define CONV(u) X(f32_f16)(u, fl)
#define FAST(u) X(f32_f16)(u, fl & F_FLUSH)
#define DIRECT(K) X(bf16_f16_direct)(d + 2 * (K), s + 2 * (K), nt)
  LOOP32X2(2, LD, FAST, CONV, X(h2f), STH, 0x477FF000, 1, DIRECT);
#undef LD
#undef CONV
#undef FAST
#undef DIRECT
}

#undef LOOP32X2
#undef FINV0
#undef NO_DIRECT
#undef BITS16
#undef ST16
#undef STH

IA void X(loop_f64_f32)(unsigned char *d, const unsigned char *s, size_t nv, int nt,
                        unsigned int fl, X(acc64) * Ap) {
  X(acc64) L; /* a local copy, which the compiler keeps in registers */
  if (Ap) L = *Ap;
  for (size_t k = 0; k < nv; k += W) {
    PF(8);
    VU64 lo = X(ldpd)(s + 8 * k), hi = X(ldpd)(s + 8 * k + 4 * W);
    VU32 r = X(f64_f32)(lo, hi, fl);
    X(st32)(d + 4 * k, r, nt);
    if (Ap) {
      VF64 yl, yh;
      X(ps2pd)(r, &yl, &yh);
      X(stats64)(&L, lo, yl, hi, yh);
    }
  }
  if (Ap) *Ap = L;
}

IA void X(loop_bf16_f32)(unsigned char *d, const unsigned char *s, size_t nv, int nt, X(acc) * Ap) {
  X(acc) L; /* a local copy, which the compiler keeps in registers */
  if (Ap) L = *Ap;
  for (size_t k = 0; k < nv; k += W) {
    PF(2);
    VU32 r = X(bf16_f32)(X(ld16)(s + 2 * k));
    X(st32)(d + 4 * k, r, nt);
    if (Ap) L.nan -= (VU32)((VI32)(r & 0x7FFFFFFFu) > 0x7F800000);
  }
  if (Ap) *Ap = L;
}

IA void X(loop_f16_f32)(unsigned char *d, const unsigned char *s, size_t nv, int nt, X(acc) * Ap) {
  X(acc) L; /* a local copy, which the compiler keeps in registers */
  if (Ap) L = *Ap;
  for (size_t k = 0; k < nv; k += W) {
    PF(2);
    VU32 r = X(h2f)(X(ldh)(s + 2 * k)); /* exact; NaN quiet, payload kept */
    X(st32)(d + 4 * k, r, nt);
    if (Ap) L.nan -= (VU32)((VI32)(r & 0x7FFFFFFFu) > 0x7F800000);
  }
  if (Ap) *Ap = L;
}

IA void X(loop_f32_f64)(unsigned char *d, const unsigned char *s, size_t nv, int nt, X(acc) * Ap) {
  X(acc) L; /* a local copy, which the compiler keeps in registers */
  if (Ap) L = *Ap;
  for (size_t k = 0; k < nv; k += W) {
    PF(4);
    VU32 u = X(ld32)(s + 4 * k);
    VF64 lo, hi;
    X(ps2pd)(u, &lo, &hi); /* exact; NaN quiet, payload kept */
    X(stpd)(d + 8 * k, (VU64)lo, nt);
    X(stpd)(d + 8 * k + 4 * W, (VU64)hi, nt);
    if (Ap) L.nan -= (VU32)((VI32)(u & 0x7FFFFFFFu) > 0x7F800000);
  }
  if (Ap) *Ap = L;
}

/* ---- kernels -------------------------------------------------------------------- *
 * RUN_STATS(ACC, FOLD, CALL) runs CALL(d, s, c, &A) over chunks of CHUNK
 * elements with stats, folding counters after each, then adds everything to
 * `stats`; the last n % W elements go to the scalar reference (SCALAR).
 * Outputs of NT_MIN bytes or more are written with non-temporal stores
 * (nt): a large output would only evict the input from the caches, and
 * ordinary stores first read every output line (as much traffic again as
 * the output itself). They need aligned vectors, so the scalar code converts
 * the elements before the first aligned output vector; when the output is not
 * even aligned to its element size, ordinary stores are used. */
#define CHUNK ((size_t)1 << 16)
#define KERNEL_BODY(IN, OUT, ACC, FOLD, SCALAR)                                        \
  unsigned char *d = dst;                                                              \
  const unsigned char *s = src;                                                        \
  int nt = n * (OUT) >= NT_MIN && (uintptr_t)d % (OUT) == 0;                           \
  if (nt) { /* the scalar code up to the first aligned output vector */                \
    size_t head = (4 * W - (uintptr_t)d % (4 * W)) % (4 * W) / (OUT);                  \
    SCALAR(d, s, head, flags, stats);                                                  \
    d += (OUT)*head, s += (IN)*head, n -= head;                                        \
  }                                                                                    \
  size_t nv = n - n % W;                                                               \
  if (!stats) {                                                                        \
    CALL(d, s, nv, (ACC *)NULL);                                                       \
  } else if (nv) {                                                                     \
    ACC A;                                                                             \
    memset(&A, 0, sizeof A);                                                           \
    A.finv += __builtin_inff(); /* rmax = 0: every error > 0 may exceed it */          \
    for (size_t done = 0; done < nv;) {                                                \
      size_t c = nv - done < CHUNK ? nv - done : CHUNK;                                \
      CALL(d + (OUT)*done, s + (IN)*done, c, &A);                                      \
      FOLD(&A);                                                                        \
      done += c;                                                                       \
    }                                                                                  \
    X(merge)(stats, nv, A.t_nan, A.t_inf, A.t_sat, A.t_flush, A.fabs, A.dabs, A.rmax); \
  }                                                                                    \
  if (nt) NT_FENCE();                                                                  \
  SCALAR(d + (OUT)*nv, s + (IN)*nv, n - nv, flags, stats)

TA static void X(f32_to_bf16)(void *dst, const void *src, size_t n, unsigned int flags,
                              onnxslim_convert_stats *stats) {
  int32_t sat_min = (flags & F_TRUNC) ? 0x7FFFFFFF : 0x7F7F8000;
#define CALL(D, S, C, A)                                                                   \
  switch (flags & F_ALL) {                                                                 \
  case 0: X(loop_f32_bf16)(D, S, C, nt, 0, A, sat_min); break;                             \
  case F_SAT: X(loop_f32_bf16)(D, S, C, nt, F_SAT, A, sat_min); break;                     \
  case F_FLUSH: X(loop_f32_bf16)(D, S, C, nt, F_FLUSH, A, sat_min); break;                 \
  case F_SAT | F_FLUSH: X(loop_f32_bf16)(D, S, C, nt, F_SAT | F_FLUSH, A, sat_min); break; \
  case F_TRUNC:                                                                            \
  case F_TRUNC | F_SAT: X(loop_f32_bf16)(D, S, C, nt, F_TRUNC, A, sat_min); break;         \
  default: X(loop_f32_bf16)(D, S, C, nt, F_TRUNC | F_FLUSH, A, sat_min); break;            \
  }
  KERNEL_BODY(4, 2, X(acc), X(fold), onnxslim__convert_scalar_f32_to_bf16);
#undef CALL
}

TA static void X(f16_to_bf16)(void *dst, const void *src, size_t n, unsigned int flags,
                              onnxslim_convert_stats *stats) {
  /* No FP16 value overflows or is subnormal in BF16: only TRUNCATE matters. */
#define CALL(D, S, C, A)                                          \
  if (flags & F_TRUNC) X(loop_f16_bf16)(D, S, C, nt, F_TRUNC, A); \
  else X(loop_f16_bf16)(D, S, C, nt, 0, A)
  KERNEL_BODY(2, 2, X(acc), X(fold), onnxslim__convert_scalar_f16_to_bf16);
#undef CALL
}

#define SWITCH_SF(LOOP, D, S, C, A)                      \
  switch (flags & (F_SAT | F_FLUSH)) {                   \
  case 0: LOOP(D, S, C, nt, 0, A); break;                \
  case F_SAT: LOOP(D, S, C, nt, F_SAT, A); break;        \
  case F_FLUSH: LOOP(D, S, C, nt, F_FLUSH, A); break;    \
  default: LOOP(D, S, C, nt, F_SAT | F_FLUSH, A); break; \
  }

TA static void X(f32_to_f16)(void *dst, const void *src, size_t n, unsigned int flags,
                             onnxslim_convert_stats *stats) {
#define CALL(D, S, C, A) SWITCH_SF(X(loop_f32_f16), D, S, C, A)
  KERNEL_BODY(4, 2, X(acc), X(fold), onnxslim__convert_scalar_f32_to_f16);
#undef CALL
}

TA static void X(bf16_to_f16)(void *dst, const void *src, size_t n, unsigned int flags,
                              onnxslim_convert_stats *stats) {
#define CALL(D, S, C, A) SWITCH_SF(X(loop_bf16_f16), D, S, C, A)
  KERNEL_BODY(2, 2, X(acc), X(fold), onnxslim__convert_scalar_bf16_to_f16);
#undef CALL
}

TA static void X(f64_to_f32)(void *dst, const void *src, size_t n, unsigned int flags,
                             onnxslim_convert_stats *stats) {
#define CALL(D, S, C, A) SWITCH_SF(X(loop_f64_f32), D, S, C, A)
  KERNEL_BODY(8, 4, X(acc64), X(fold64), onnxslim__convert_scalar_f64_to_f32);
#undef CALL
}

TA static void X(bf16_to_f32)(void *dst, const void *src, size_t n, unsigned int flags,
                              onnxslim_convert_stats *stats) {
#define CALL(D, S, C, A) X(loop_bf16_f32)(D, S, C, nt, A)
  KERNEL_BODY(2, 4, X(acc), X(fold), onnxslim__convert_scalar_bf16_to_f32);
#undef CALL
}

TA static void X(f16_to_f32)(void *dst, const void *src, size_t n, unsigned int flags,
                             onnxslim_convert_stats *stats) {
#define CALL(D, S, C, A) X(loop_f16_f32)(D, S, C, nt, A)
  KERNEL_BODY(2, 4, X(acc), X(fold), onnxslim__convert_scalar_f16_to_f32);
#undef CALL
}

TA static void X(f32_to_f64)(void *dst, const void *src, size_t n, unsigned int flags,
                             onnxslim_convert_stats *stats) {
#define CALL(D, S, C, A) X(loop_f32_f64)(D, S, C, nt, A)
  KERNEL_BODY(4, 8, X(acc), X(fold), onnxslim__convert_scalar_f32_to_f64);
#undef CALL
}

static const osl_convert_fn X(table)[K_COUNT] = {
    [K_F32_BF16] = X(f32_to_bf16), [K_F32_F16] = X(f32_to_f16),   [K_BF16_F32] = X(bf16_to_f32),
    [K_F16_F32] = X(f16_to_f32),   [K_F64_F32] = X(f64_to_f32),   [K_F32_F64] = X(f32_to_f64),
    [K_F16_BF16] = X(f16_to_bf16), [K_BF16_F16] = X(bf16_to_f16),
};

#undef PF
#undef PREFETCH
#undef CHUNK
#undef KERNEL_BODY
#undef SWITCH_SF
