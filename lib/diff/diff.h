/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - the model diff (onnxslim_diff), internal header of
 * lib/diff/. The diff is a job of the passes tier built on the public
 * handle API: walk.c walks the two models side by side (model fields,
 * graphs, nodes, attributes), tensor.c compares tensors (types, dims, data
 * streamed in chunks), dequant.c finds how a quantized tensor of B is
 * dequantized, text.c writes types, attributes and lists as text, report.c
 * holds the report, its entries and their text, the memory charge and the
 * string buffer. Never installed.
 */
#ifndef ONNXSLIM_DIFF_INTERNAL_H
#define ONNXSLIM_DIFF_INTERNAL_H

#include <stdarg.h>

#include "passes/passes.h"

/* Elements per chunk when tensor data is streamed (a multiple of 8, so
 * that chunks of 4-bit types start at whole bytes). */
#define OSL_DIFF_CHUNK 65536

/* ---- one difference, as the walk finds it ---------------------------------- */

/* The strings are borrowed until osl_diff_add() copies them into the report. */
typedef struct osl_diff_at {
  const char *graph;        /* path of the (sub)graph, "" for the main graph and outside graphs */
  int kind;                 /* onnxslim_diff_kind */
  const char *name;         /* the item's name ("" for an unnamed node) */
  const char *label;        /* "node 'x'", "initializer 'W'", ...: how the text names it */
  int64_t index_a, index_b; /* nodes: position in A and in B, -1 if none */
  int aspect;               /* onnxslim_diff_aspect */
  const char *attribute;    /* the attribute, for node attributes; else NULL */
  const char *a, *b;        /* the values in text form; NULL: absent there */
  int has_numbers;          /* numbers measured */
  onnxslim_diff_numbers numbers;
  const char *digest_a, *digest_b; /* contents: digests of the tensor data */
} osl_diff_at;

/* ---- the report -------------------------------------------------------------- */

typedef struct osl_diff_entry {
  int kind, aspect;
  const char *graph, *name, *label, *attribute, *a, *b, *text, *digest_a, *digest_b;
  int64_t index_a, index_b;
  int has_numbers;
  onnxslim_diff_numbers numbers;
} osl_diff_entry;

struct onnxslim_diff_report {
  osl_diff_entry *e;
  size_t count, cap;
  osl_arena strings; /* every string of the entries */
  char fingerprint[2][ONNXSLIM_FINGERPRINT_SIZE];
};

/* ---- the walk's context -------------------------------------------------------- */

typedef struct osl_diff {
  const onnxslim_model *a, *b;
  int storage;                  /* ONNXSLIM_DIFF_COMPARE_STORAGE */
  int data_equal;               /* the fingerprints are equal: tensor data is not read */
  int rc;                       /* the first error (0: none): the walk stops */
  uint64_t used;                /* bytes charged (osl_diff_charge) */
  onnxslim_diff_report *report; /* the report being filled */
  uint8_t *ra, *rb;             /* chunk buffers: OSL_DIFF_CHUNK * 8 bytes each */
  double *da, *db;              /* decoded values: OSL_DIFF_CHUNK each */
  float *fs;                    /* FLOAT16 decoding: OSL_DIFF_CHUNK */
} osl_diff;

/* Counts n bytes (negative: gives them back) of what the diff holds
 * against model a's max_memory, with the model's structure. 0, or
 * ONNXSLIM_ELIMIT (also stored in c->rc) once over it. */
int onnxslim__diff_charge(osl_diff *c, int64_t n);
/* malloc of n bytes, charged; NULL (c->rc set) on failure. n 0 gives a
 * valid pointer. Free with onnxslim__diff_free(c, p, n). */
void *onnxslim__diff_alloc(osl_diff *c, size_t n);
void *onnxslim__diff_alloc_array(osl_diff *c, size_t count, size_t size);
void onnxslim__diff_free(osl_diff *c, void *p, size_t n);
/* Sets c->rc to code with the message, unless an error is already set; returns c->rc. */
int onnxslim__diff_fail(osl_diff *c, int code, const char *fmt, ...)
    __attribute__((format(OSL_PRINTF, 3, 4)));
/* c->rc from the library's last error (a handle call that failed), with
 * `what` before its message; returns c->rc. */
int onnxslim__diff_fail_lib(osl_diff *c, const char *fmt, ...)
    __attribute__((format(OSL_PRINTF, 2, 3)));

/* An osl_diff_at with its place set, the rest empty. */
osl_diff_at onnxslim__diff_at(const char *graph, int kind, const char *name, const char *label);
/* Adds a difference to the report (its text composed here). */
void onnxslim__diff_add(osl_diff *c, const osl_diff_at *d);
/* Adds aspect: a -> b when the texts differ. */
void onnxslim__diff_add_if_differs(osl_diff *c, const osl_diff_at *where, int aspect, const char *a,
                                   const char *b);
/* Adds an item present in one model only (a or b NULL). */
void onnxslim__diff_add_presence(osl_diff *c, const osl_diff_at *where, const char *a,
                                 const char *b);

/* ---- a growable string (report.c) ---------------------------------------------- */

/* Zero-initialize with its context: osl_sbuf s = {c}. On failure the
 * buffer stays as it was and c->rc is set. */
typedef struct osl_sbuf {
  osl_diff *c;
  char *p;
  size_t len, cap;
} osl_sbuf;

void onnxslim__sb_putn(osl_sbuf *sb, const char *s, size_t n);
void onnxslim__sb_puts(osl_sbuf *sb, const char *s);
void onnxslim__sb_printf(osl_sbuf *sb, const char *fmt, ...)
    __attribute__((format(OSL_PRINTF, 2, 3)));
void onnxslim__sb_reset(osl_sbuf *sb);
const char *onnxslim__sb_str(const osl_sbuf *sb);
void onnxslim__sb_free(osl_sbuf *sb);

/* ---- texts (text.c) ------------------------------------------------------------- */

void onnxslim__diff_sb_dtype(osl_sbuf *sb, int32_t dtype);
/* The type of a value: "FLOAT[2, n]", "sequence<...>"; 0 or -1 after a library error. */
int onnxslim__diff_sb_type(osl_sbuf *sb, const onnxslim_type *type);
/* The type of a value_info, "(no type)" when it has none; 0 or -1. */
int onnxslim__diff_sb_vi_type(osl_sbuf *sb, const onnxslim_value_info *vi);
/* "[2, 3]"; 0 or -1. */
int onnxslim__diff_sb_tensor_dims(osl_sbuf *sb, const onnxslim_tensor *t);
/* "FLOAT[2, 3]"; 0 or -1. */
int onnxslim__diff_sb_tensor_type(osl_sbuf *sb, const onnxslim_tensor *t);
const char *onnxslim__diff_storage_name(int storage);
/* A short text of an attribute's value; with_type: followed by its type. 0 or -1. */
int onnxslim__diff_sb_attr(osl_sbuf *sb, const onnxslim_attr *at, int with_type);
/* "[1, 2, 3]", or for a long list "N values, [i] = v" around index focus. 0 or -1. */
int onnxslim__diff_sb_list(osl_sbuf *sb, const onnxslim_attr *at, int type, size_t focus);
/* Index of the first element where two lists differ, or SIZE_MAX. */
size_t onnxslim__diff_list_first_diff(const onnxslim_attr *x, const onnxslim_attr *y, int type);
/* The domain as shown: "" for the default domain. */
const char *onnxslim__diff_op_domain(const char *domain);
/* "Add", or "com.microsoft:Attention" outside the default domain. */
void onnxslim__diff_sb_op(osl_sbuf *sb, const onnxslim_node *n);

/* ---- tensors (tensor.c) ---------------------------------------------------------- */

/* Compares two tensors: data type, dims, contents, storage. gb is the graph
 * of B that holds tb when it is an initializer of it (NULL otherwise): a
 * quantized tb is then dequantized as that graph does. 0 or c->rc. */
int onnxslim__diff_tensor(osl_diff *c, const osl_diff_at *where, const onnxslim_tensor *ta,
                          const onnxslim_tensor *tb, const onnxslim_graph *gb);
/* Two sparse tensors: dense shape, values, indices. 0 or c->rc. */
int onnxslim__diff_sparse(osl_diff *c, const osl_diff_at *where, const onnxslim_sparse_tensor *sa,
                          const onnxslim_sparse_tensor *sb);

/* ---- dequantization (dequant.c) -------------------------------------------------- */

/* How a tensor of B is dequantized: what dequant.c found in B's graph. */
typedef struct osl_dequant {
  int form;                                /* onnxslim_diff_dequant */
  const onnxslim_tensor *q, *scale, *zero; /* zero may be NULL */
  int bits;                                /* 8 or 4 */
  int packed_uint8;                        /* 4-bit values packed two a UINT8 byte (ORT forms) */
  int64_t default_zero;                    /* zero point when zero is NULL */
  /* logical layout of the values (after unpacking), as A's tensor:
   * [outer, axis_len, inner]; a value (o, x, i) takes scale
   * ((o * blocks) + x / block) * inner + i, blocks = ceil(axis_len / block);
   * per tensor: block = axis_len, outer = inner = 1 with one scale */
  uint64_t outer, axis_len, inner, block;
  int per_tensor;
  int per_axis;     /* one scale per index x of the axis */
  int zero_row_pad; /* 4-bit zero points packed per row of blocks: ceil(blocks / 2) bytes a row */
  /* MatMulNBits: A's [K, N] against B's [N, K/block, blob] */
  int transposed;
  uint64_t k, n;
} osl_dequant;

/* Fills *dq when tensor tb (named as A's ta, which is floating point) is
 * dequantized by gb in a form the diff knows; 1 found, 0 not (or c->rc). */
int onnxslim__diff_find_dequant(osl_diff *c, const onnxslim_graph *gb, const onnxslim_tensor *ta,
                                const onnxslim_tensor *tb, osl_dequant *dq);
/* Streams A's values against B's dequantized ones into *num. 0 or c->rc. */
int onnxslim__diff_dequant_compare(osl_diff *c, const onnxslim_tensor *ta, const osl_dequant *dq,
                                   const char *what, onnxslim_diff_numbers *num);
/* Decodes k little-endian elements of a numeric type into dst. */
void onnxslim__diff_decode(osl_diff *c, int32_t dt, const uint8_t *src, size_t k, double *dst);
/* Folds k value pairs into num (elements, differing, NaN mismatches, max). */
void onnxslim__diff_fold(const double *x, const double *y, size_t k, onnxslim_diff_numbers *num);

/* ---- the walk (walk.c) ----------------------------------------------------------- */

int onnxslim__diff_graph(osl_diff *c, const char *path, const onnxslim_graph *ga,
                         const onnxslim_graph *gb);
int onnxslim__diff_models(osl_diff *c);

#endif
