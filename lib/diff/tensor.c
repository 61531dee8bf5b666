/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - the diff's tensor comparison: data type, dims, contents
 * (streamed in chunks of OSL_DIFF_CHUNK elements through
 * onnxslim_tensor_read(), digests and numeric differences), storage, and
 * sparse tensors.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "diff/diff.h"

#define sb_puts onnxslim__sb_puts
#define sb_printf onnxslim__sb_printf
#define sb_str onnxslim__sb_str
#define sb_reset onnxslim__sb_reset
#define sb_free onnxslim__sb_free

static int is_numeric(int32_t dt) {
  switch (dt) {
  case ONNXSLIM_DTYPE_FLOAT:
  case ONNXSLIM_DTYPE_DOUBLE:
  case ONNXSLIM_DTYPE_FLOAT16:
  case ONNXSLIM_DTYPE_BFLOAT16:
  case ONNXSLIM_DTYPE_INT8:
  case ONNXSLIM_DTYPE_UINT8:
  case ONNXSLIM_DTYPE_INT16:
  case ONNXSLIM_DTYPE_UINT16:
  case ONNXSLIM_DTYPE_INT32:
  case ONNXSLIM_DTYPE_UINT32:
  case ONNXSLIM_DTYPE_INT64:
  case ONNXSLIM_DTYPE_UINT64: return 1;
  default: return 0;
  }
}

void onnxslim__diff_decode(osl_diff *c, int32_t dt, const uint8_t *src, size_t k, double *dst) {
  size_t i;
  switch (dt) {
  case ONNXSLIM_DTYPE_FLOAT:
    for (i = 0; i < k; i++) {
      float f;
      memcpy(&f, src + 4 * i, 4);
      dst[i] = f;
    }
    break;
  case ONNXSLIM_DTYPE_DOUBLE: memcpy(dst, src, 8 * k); break;
  case ONNXSLIM_DTYPE_FLOAT16:
  case ONNXSLIM_DTYPE_BFLOAT16: {
    /* src is the start of a chunk buffer (malloc'ed): aligned for uint16_t */
    const uint16_t *h = (const uint16_t *)(const void *)src;
    if (dt == ONNXSLIM_DTYPE_FLOAT16) onnxslim_convert_f16_to_f32(c->fs, h, k);
    else onnxslim_convert_bf16_to_f32(c->fs, h, k);
    for (i = 0; i < k; i++) dst[i] = c->fs[i];
    break;
  }
#define INTS(DT, T)                             \
  case DT:                                      \
    for (i = 0; i < k; i++) {                   \
      T v;                                      \
      memcpy(&v, src + sizeof v * i, sizeof v); \
      dst[i] = (double)v;                       \
    }                                           \
    break;
    INTS(ONNXSLIM_DTYPE_INT8, int8_t)
    INTS(ONNXSLIM_DTYPE_UINT8, uint8_t)
    INTS(ONNXSLIM_DTYPE_INT16, int16_t)
    INTS(ONNXSLIM_DTYPE_UINT16, uint16_t)
    INTS(ONNXSLIM_DTYPE_INT32, int32_t)
    INTS(ONNXSLIM_DTYPE_UINT32, uint32_t)
    INTS(ONNXSLIM_DTYPE_INT64, int64_t)
    INTS(ONNXSLIM_DTYPE_UINT64, uint64_t)
#undef INTS
  default:
    for (i = 0; i < k; i++) dst[i] = 0;
  }
}

void onnxslim__diff_fold(const double *x, const double *y, size_t k, onnxslim_diff_numbers *num) {
  size_t i;
  for (i = 0; i < k; i++) {
    double d;
    if (x[i] == y[i] || (isnan(x[i]) && isnan(y[i]))) continue;
    num->differing++;
    d = fabs(x[i] - y[i]);
    if (isnan(d)) num->nan_mismatches++;
    else if (d > num->max_abs_diff) num->max_abs_diff = d;
  }
}

static void hex128(char out[33], XXH128_hash_t h) {
  snprintf(out, 33, "%016llx%016llx", (unsigned long long)h.high64, (unsigned long long)h.low64);
}

/* What streaming two tensors found. */
typedef struct pair_result {
  int equal;       /* same bytes (same data type only) */
  int has_numbers; /* both numeric: numbers measured */
  onnxslim_diff_numbers num;
  char digest_a[33], digest_b[33];
} pair_result;

/* Bytes of elements [e, e + k) of a tensor of `bits` per element, whose
 * data is `total` bytes. */
static void elem_range(uint64_t e, uint64_t k, unsigned bits, uint64_t total, uint64_t *off,
                       size_t *len) {
  uint64_t o = e * bits / 8, end = (e + k) * bits / 8;
  if ((e + k) * bits % 8) end++;
  if (end > total) end = total;
  *off = o;
  *len = (size_t)(end - o);
}

static void numbers_init(onnxslim_diff_numbers *n, uint64_t elements) {
  onnxslim_diff_numbers z = ONNXSLIM_DIFF_NUMBERS_INIT;
  *n = z;
  n->elements = elements;
}

/*
 * Streams the data of two tensors with the same number of elements,
 * OSL_DIFF_CHUNK at a time: digests (XXH3-128 of the bytes in raw layout),
 * whether the bytes are equal, and the numbers when both types are numeric
 * (only where the bytes differ, when the types are the same). 0 or c->rc.
 */
static int stream_pair(osl_diff *c, const onnxslim_tensor *ta, const onnxslim_tensor *tb,
                       const char *what, pair_result *r) {
  int32_t dta = onnxslim_tensor_dtype(ta), dtb = onnxslim_tensor_dtype(tb);
  unsigned ba = onnxslim_dtype_bits(dta), bb = onnxslim_dtype_bits(dtb);
  uint64_t n = (uint64_t)onnxslim_tensor_element_count(ta), sa = 0, sb = 0, e;
  int numeric = is_numeric(dta) && is_numeric(dtb);
  XXH3_state_t ha, hb;

  memset(r, 0, sizeof *r);
  r->equal = dta == dtb;
  r->has_numbers = numeric;
  numbers_init(&r->num, n);
  if (onnxslim_tensor_byte_size(ta, &sa) != ONNXSLIM_OK ||
      onnxslim_tensor_byte_size(tb, &sb) != ONNXSLIM_OK)
    return onnxslim__diff_fail_lib(c, "%s: size of the data", what);
  XXH3_128bits_reset(&ha);
  XXH3_128bits_reset(&hb);
  for (e = 0; e < n; e += OSL_DIFF_CHUNK) {
    uint64_t k = n - e < OSL_DIFF_CHUNK ? n - e : OSL_DIFF_CHUNK, oa, ob;
    size_t la, lb;
    elem_range(e, k, ba, sa, &oa, &la);
    elem_range(e, k, bb, sb, &ob, &lb);
    if (onnxslim_tensor_read(ta, oa, c->ra, la) != ONNXSLIM_OK ||
        onnxslim_tensor_read(tb, ob, c->rb, lb) != ONNXSLIM_OK)
      return onnxslim__diff_fail_lib(c, "%s: reading the data", what);
    XXH3_128bits_update(&ha, c->ra, la);
    XXH3_128bits_update(&hb, c->rb, lb);
    if (dta == dtb && la == lb && memcmp(c->ra, c->rb, la) == 0) continue;
    r->equal = 0;
    if (numeric) {
      onnxslim__diff_decode(c, dta, c->ra, (size_t)k, c->da);
      onnxslim__diff_decode(c, dtb, c->rb, (size_t)k, c->db);
      onnxslim__diff_fold(c->da, c->db, (size_t)k, &r->num);
    }
  }
  if (r->num.nan_mismatches) r->num.max_abs_diff = NAN;
  hex128(r->digest_a, XXH3_128bits_digest(&ha));
  hex128(r->digest_b, XXH3_128bits_digest(&hb));
  return 0;
}

/* STRING tensors: equal when they hold the same strings. Digests hash each
 * string's length and bytes. 0 or c->rc. */
static int string_pair(osl_diff *c, const onnxslim_tensor *ta, const onnxslim_tensor *tb,
                       const char *what, pair_result *r) {
  size_t na = onnxslim_tensor_string_count(ta), nb = onnxslim_tensor_string_count(tb), i;
  XXH3_state_t ha, hb;
  memset(r, 0, sizeof *r);
  r->equal = na == nb;
  XXH3_128bits_reset(&ha);
  XXH3_128bits_reset(&hb);
  for (i = 0; i < na || i < nb; i++) {
    const char *pa = NULL, *pb = NULL;
    size_t la = 0, lb = 0;
    uint64_t l;
    if ((i < na && onnxslim_tensor_string(ta, i, &pa, &la) != ONNXSLIM_OK) ||
        (i < nb && onnxslim_tensor_string(tb, i, &pb, &lb) != ONNXSLIM_OK))
      return onnxslim__diff_fail_lib(c, "%s: string %zu", what, i);
    if (i < na) {
      l = la;
      XXH3_128bits_update(&ha, &l, sizeof l);
      XXH3_128bits_update(&ha, pa, la);
    }
    if (i < nb) {
      l = lb;
      XXH3_128bits_update(&hb, &l, sizeof l);
      XXH3_128bits_update(&hb, pb, lb);
    }
    if (i >= na || i >= nb || la != lb || memcmp(pa, pb, la) != 0) r->equal = 0;
  }
  hex128(r->digest_a, XXH3_128bits_digest(&ha));
  hex128(r->digest_b, XXH3_128bits_digest(&hb));
  return 0;
}

static int is_float(int32_t dt) {
  return dt == ONNXSLIM_DTYPE_FLOAT || dt == ONNXSLIM_DTYPE_DOUBLE ||
         dt == ONNXSLIM_DTYPE_FLOAT16 || dt == ONNXSLIM_DTYPE_BFLOAT16;
}

/*
 * Compares two tensors: data type, dims, contents (same type and dims; not
 * read when the fingerprints are equal), and with storage where their bytes
 * are stored. A changed type is compared by value: B's dequantized values
 * when gb dequantizes tb (a quantized form of A's floats), else the values
 * as stored when the dims are the same and both types numeric.
 */
int onnxslim__diff_tensor(osl_diff *c, const osl_diff_at *where, const onnxslim_tensor *ta,
                          const onnxslim_tensor *tb, const onnxslim_graph *gb) {
  int32_t dta = onnxslim_tensor_dtype(ta), dtb = onnxslim_tensor_dtype(tb);
  osl_sbuf sa = {c, NULL, 0, 0}, sb = {c, NULL, 0, 0};
  osl_sbuf ta_s = {c, NULL, 0, 0}, tb_s = {c, NULL, 0, 0};
  int same_shape;
  pair_result r;
  osl_diff_at d;

  if (onnxslim__diff_sb_tensor_dims(&sa, ta) != 0 || onnxslim__diff_sb_tensor_dims(&sb, tb) != 0) {
    onnxslim__diff_fail_lib(c, "%s: dims", where->label);
    goto out;
  }
  if (c->rc) goto out;
  same_shape = strcmp(sb_str(&sa), sb_str(&sb)) == 0;
  if (dta != dtb) {
    osl_dequant dq;
    int found = 0;
    d = *where;
    d.aspect = ONNXSLIM_DIFF_DTYPE;
    onnxslim__diff_sb_dtype(&ta_s, dta);
    onnxslim__diff_sb_dtype(&tb_s, dtb);
    d.a = sb_str(&ta_s);
    d.b = sb_str(&tb_s);
    if (gb && is_float(dta) && !is_float(dtb))
      found = onnxslim__diff_find_dequant(c, gb, ta, tb, &dq);
    if (c->rc) goto out;
    if (found) {
      if (onnxslim__diff_dequant_compare(c, ta, &dq, where->label, &d.numbers) != 0) goto out;
      d.has_numbers = 1;
    } else if (same_shape && is_numeric(dta) && is_numeric(dtb)) {
      if (stream_pair(c, ta, tb, where->label, &r) != 0) goto out;
      d.has_numbers = 1;
      d.numbers = r.num;
    }
    onnxslim__diff_add(c, &d);
  }
  if (!same_shape)
    onnxslim__diff_add_if_differs(c, where, ONNXSLIM_DIFF_SHAPE, sb_str(&sa), sb_str(&sb));
  if (!c->rc && dta == dtb && same_shape && !c->data_equal &&
      (dta == ONNXSLIM_DTYPE_STRING || onnxslim_dtype_bits(dta) > 0)) {
    if ((dta == ONNXSLIM_DTYPE_STRING ? string_pair(c, ta, tb, where->label, &r)
                                      : stream_pair(c, ta, tb, where->label, &r)) != 0)
      goto out;
    if (!r.equal) {
      d = *where;
      d.aspect = ONNXSLIM_DIFF_CONTENTS;
      d.has_numbers = r.has_numbers;
      d.numbers = r.num;
      d.digest_a = r.digest_a;
      d.digest_b = r.digest_b;
      onnxslim__diff_add(c, &d);
    }
  }
  if (c->storage)
    onnxslim__diff_add_if_differs(c, where, ONNXSLIM_DIFF_STORAGE,
                                  onnxslim__diff_storage_name(onnxslim_tensor_storage(ta)),
                                  onnxslim__diff_storage_name(onnxslim_tensor_storage(tb)));
out:
  sb_free(&sa);
  sb_free(&sb);
  sb_free(&ta_s);
  sb_free(&tb_s);
  return c->rc;
}

/* "INT64[3, 2] digest X" of a sparse tensor's indices (for "indices"). */
static int sb_indices(osl_sbuf *sb, const onnxslim_tensor *t, const char *digest) {
  if (!t) {
    sb_puts(sb, "none");
    return 0;
  }
  if (onnxslim__diff_sb_tensor_type(sb, t) != 0) return -1;
  if (digest) sb_printf(sb, " digest %s", digest);
  return 0;
}

static void sb_sparse_dims(osl_sbuf *sb, const onnxslim_sparse_tensor *s) {
  size_t i;
  sb_puts(sb, "[");
  for (i = 0; i < onnxslim_sparse_tensor_rank(s); i++)
    sb_printf(sb, "%s%" PRId64, i ? ", " : "", onnxslim_sparse_tensor_dim(s, i));
  sb_puts(sb, "]");
}

int onnxslim__diff_sparse(osl_diff *c, const osl_diff_at *where, const onnxslim_sparse_tensor *sa,
                          const onnxslim_sparse_tensor *sb) {
  osl_sbuf da = {c, NULL, 0, 0}, db = {c, NULL, 0, 0};
  const onnxslim_tensor *va = onnxslim_sparse_tensor_values(sa);
  const onnxslim_tensor *vb = onnxslim_sparse_tensor_values(sb);
  const onnxslim_tensor *ia = onnxslim_sparse_tensor_indices(sa);
  const onnxslim_tensor *ib = onnxslim_sparse_tensor_indices(sb);

  sb_sparse_dims(&da, sa);
  sb_sparse_dims(&db, sb);
  if (!c->rc)
    onnxslim__diff_add_if_differs(c, where, ONNXSLIM_DIFF_SHAPE, sb_str(&da), sb_str(&db));
  if (va && vb) onnxslim__diff_tensor(c, where, va, vb, NULL);
  if (!c->rc && (ia || ib)) {
    pair_result r;
    int same = ia && ib && onnxslim_tensor_dtype(ia) == onnxslim_tensor_dtype(ib);
    sb_reset(&da);
    sb_reset(&db);
    if (same) {
      osl_sbuf x = {c, NULL, 0, 0}, y = {c, NULL, 0, 0};
      same = onnxslim__diff_sb_tensor_dims(&x, ia) == 0 &&
             onnxslim__diff_sb_tensor_dims(&y, ib) == 0 && strcmp(sb_str(&x), sb_str(&y)) == 0;
      sb_free(&x);
      sb_free(&y);
    }
    if (same && !c->data_equal && onnxslim_dtype_bits(onnxslim_tensor_dtype(ia)) > 0) {
      if (stream_pair(c, ia, ib, where->label, &r) == 0 && !r.equal) {
        if (sb_indices(&da, ia, r.digest_a) != 0 || sb_indices(&db, ib, r.digest_b) != 0)
          onnxslim__diff_fail_lib(c, "%s: indices", where->label);
        else if (!c->rc)
          onnxslim__diff_add_if_differs(c, where, ONNXSLIM_DIFF_INDICES, sb_str(&da), sb_str(&db));
      }
    } else if (!same) {
      if (sb_indices(&da, ia, NULL) != 0 || sb_indices(&db, ib, NULL) != 0)
        onnxslim__diff_fail_lib(c, "%s: indices", where->label);
      else if (!c->rc)
        onnxslim__diff_add_if_differs(c, where, ONNXSLIM_DIFF_INDICES, sb_str(&da), sb_str(&db));
    }
  }
  sb_free(&da);
  sb_free(&db);
  return c->rc;
}
