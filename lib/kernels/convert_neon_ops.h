/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - the helpers convert_simd_body.h needs, for AArch64 Advanced
 * SIMD (NEON): 4 lanes of 32 bits. Included by convert_neon.c once per NEON
 * path, with X, IA and HAS_BF16 defined (see there).
 *
 * The hardware conversions used (FCVTN, FCVTL, BFCVTN) follow FPCR; callers
 * have checked it is the default (round to nearest even, no flush-to-zero,
 * no default NaN, IEEE half precision), where they round exactly as the
 * scalar reference and make NaNs quiet keeping the top payload bits.
 * Maxima keep x86's maxps rule (a > b ? a : b) so that every path keeps
 * the same values.
 */

IA VU32 X(sel)(VI32 m, VU32 a, VU32 b) { return (a & (VU32)m) | (b & ~(VU32)m); }
IA VU32 X(sel_gt)(VI32 a, int32_t b, VU32 x, VU32 y) { return X(sel)(a > b, x, y); }
IA VU64 X(sel64)(VI64 m, VU64 a, VU64 b) { return (a & (VU64)m) | (b & ~(VU64)m); }
IA VU32 X(ld32)(const unsigned char *p) {
  VU32 v;
  memcpy(&v, p, sizeof v);
  return v;
}
/* Non-temporal stores are not used on this path (NT_MIN below). */
IA void X(st32)(unsigned char *p, VU32 v, int nt) {
  (void)nt;
  memcpy(p, &v, sizeof v);
}
IA VU64 X(ldpd)(const unsigned char *p) {
  VU64 v;
  memcpy(&v, p, sizeof v);
  return v;
}
IA void X(stpd)(unsigned char *p, VU64 v, int nt) {
  (void)nt;
  memcpy(p, &v, sizeof v);
}
IA VH X(ldh)(const unsigned char *p) {
  VH h;
  memcpy(&h, p, sizeof h);
  return h;
}
IA void X(sth)(unsigned char *p, VH h, int nt) {
  (void)nt;
  memcpy(p, &h, sizeof h);
}
IA VU32 X(ld16)(const unsigned char *p) { return (VU32)vmovl_u16(X(ldh)(p)); }
/* The low 16 bits of each lane (the lanes hold values below 2^16). */
IA void X(st16)(unsigned char *p, VU32 v, int nt) { X(sth)(p, vmovn_u32((uint32x4_t)v), nt); }
IA VH X(cvtph)(VU32 bits) { return vreinterpret_u16_f16(vcvt_f16_f32((float32x4_t)bits)); }
IA VU32 X(h2f)(VH h) { return (VU32)vcvt_f32_f16(vreinterpret_f16_u16(h)); }
/* f32_f16's flags on the input (convert_simd_body.h). */
IA VU32 X(f16_flags)(VU32 u, unsigned int fl) {
  VI32 a = (VI32)(u & 0x7FFFFFFFu);
  VU32 s = u & 0x80000000u;
  if (fl & F_SAT) u = X(sel)((a >= 0x477FF000) & (a < 0x7F800000), s | 0x477FE000u, u);
  if (fl & F_FLUSH) u = X(sel)(a < 0x387FE000, s, u);
  return u;
}
IA int X(any32)(VI32 m) { return vmaxvq_u32((uint32x4_t)m) != 0; }
/* 16-bit lanes: |x|; x where s > 0, 0 where s = 0 (s >= 0); the maximum */
IA VI16 X(abs16)(VI16 x) { return (VI16)vabsq_s16((int16x8_t)x); }
IA VI16 X(nz16)(VI16 x, VI16 s) { return x & (VI16)(s != 0); }
IA VI16 X(max16)(VI16 a, VI16 b) { return (VI16)vmaxq_s16((int16x8_t)a, (int16x8_t)b); }
IA VF32 X(maxps)(VF32 a, VF32 b) { return (VF32)X(sel)(a > b, (VU32)a, (VU32)b); }
IA int X(gti_any)(VI32 a, int32_t b) { return X(any32)(a > b); }
IA int X(gti64_any)(VI64 a, VI64 c, int64_t b) { return X(any32)((VI32)((a > b) | (c > b))); }
IA int X(gtu_any)(VU32 a, VU32 b) { return X(any32)(a > b); }
IA int X(gtu64_any)(VU64 a, VU64 b, VU64 c, VU64 d) { return X(any32)((VI32)((a > b) | (c > d))); }
IA int X(rel_test)(VU32 p, VU32 x, int sub) { return X(gtu_any)(p, sub ? x - 1u : x); }
/* The stats' first test of a vector (quick32 in convert_simd_body.h), as
 * the x86 paths do it: nonzero when some lane has a > lim or e * finv > a as
 * floats (a - 1 of a = 0 is a NaN, for which the ordered compare is false);
 * sub = 0: some lane with e * finv > a or a NaN product. */
IA unsigned int X(stats_hit)(VI32 a, VF32 e, VF32 finv, int32_t lim, int sub) {
  VF32 p = e * finv;
  if (!sub) return (unsigned int)X(any32)(~(p <= (VF32)a));
  return (unsigned int)X(any32)((p > (VF32)(a - 1)) | (a > lim));
}
IA VF64 X(maxpd)(VF64 a, VF64 b) { return (VF64)X(sel64)(a > b, (VU64)a, (VU64)b); }
IA VU32 X(pd2ps)(VF64 lo, VF64 hi) {
  return (VU32)vcvt_high_f32_f64(vcvt_f32_f64((float64x2_t)lo), (float64x2_t)hi);
}
IA void X(ps2pd)(VU32 bits, VF64 *lo, VF64 *hi) {
  float32x4_t f = (float32x4_t)bits;
  *lo = (VF64)vcvt_f64_f32(vget_low_f32(f));
  *hi = (VF64)vcvt_high_f64_f32(f);
}

#if HAS_BF16
/* BFCVTN (ARMv8.6 BF16): round to nearest even in the default FPCR,
 * subnormal inputs and results kept, NaN quiet with the top payload bits:
 * f32_to_bf16_1 with no flags, on every input (no fix-up as on AVX-512). */
IA VH X(bf16_pack)(VU32 u) { return vreinterpret_u16_bf16(vcvt_bf16_f32((float32x4_t)u)); }
IA VU32 X(bf16_rne)(VU32 u) { return (VU32)vmovl_u16(X(bf16_pack)(u)); }
IA void X(st_bf16_rne)(unsigned char *p, VU32 u, int nt) { X(sth)(p, X(bf16_pack)(u), nt); }
#endif
