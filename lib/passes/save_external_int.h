/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - what the three files of a save with external data share,
 * private to them: save_plan.c (which tensors go out, the data files' names
 * and generations, the other models of the directory) <- save_journal.c
 * (temporaries and the commit journal) <- save_external.c (writing: the
 * phases of a save, the model file alone into a buffer, a save of the
 * model file alone).
 */
#ifndef ONNXSLIM_SAVE_EXTERNAL_INT_H
#define ONNXSLIM_SAVE_EXTERNAL_INT_H

#include <stddef.h>
#include <stdint.h>

#include "passes/passes.h"

/* ---- which tensors go out ------------------------------------------------------ */

typedef struct {
  osl_msg *t;
  const char *name;
  int status;
  int ext_now; /* stored externally at the moment */
  size_t file; /* index into outs */
  uint64_t offset, length;
  char checksum[41];
} osl_item;

/* ---- a growable byte buffer (the plans' fields, the journal's text) ---- */
typedef struct {
  uint8_t *p;
  size_t n, cap;
  int fail;
} osl_buf;

/* The model a save replaces: the files it reads, by location and identity. */
typedef struct {
  char *loc; /* normalized location */
  int found; /* the file was opened: dev/ino are valid */
  uint64_t dev;
  uint64_t ino;
} osl_oldref;

typedef struct {
  int exists;  /* a file is at the destination */
  int unknown; /* it is not a model that loads: what it reads is unknown */
  osl_oldref *refs;
  size_t n, cap;
  /* the saving model: what the lists hold counts against its max_memory */
  const onnxslim_model *counter;
  uint64_t held;  /* charged for the strings (refs and maps are counted blocks) */
  osl_map locs;   /* location -> a ref (lookups in constant time) */
  osl_map ids;    /* "dev:ino" of the refs found -> a ref */
  osl_arena keys; /* the ids' strings */
} osl_old;

#define SAVE "saving the model"

/* One save with external data (or all inline): what it decided and what it
 * holds, phase by phase (see onnxslim__save_external). */
typedef struct {
  /* the call */
  const onnxslim_model *model;
  const char *path;
  onnxslim_save_options o; /* checked; align and location resolved */
  const char *base;        /* the model file's name (in path) */
  char *deflt;             /* the default data file, <model>.data */
  char *norm;              /* the location asked for, normalized (or NULL) */
  char *outdir_name;       /* the model's directory, and a descriptor of it */
  int outdir;
  int fsync_data;
  /* the tensors considered (collect_items) */
  osl_item *items;
  size_t count, cap, nwritten;
  /* the data files: the name wanted, the output (a temporary until it is
   * claimed), the name it got, its final name in its directory and the
   * file kept aside under that name, if any */
  size_t nfiles, nouts, committed;
  char **wants, **locs, **backups;
  const char **finals;
  osl_out **outs;
  /* the commit */
  osl_lock *lock;
  osl_old old;     /* the model in place */
  osl_old news;    /* AS_LOADED: the files the new model reads (the loaded ones) */
  osl_old others;  /* the files the other models of the directory read */
  int others_read; /* others was filled (scan_others) */
  int jfd;         /* the journal */
  char *jname;
  /* the model file: the tensors' plans and their encoded fields */
  osl_plan *plans;
  osl_buf enc;
  osl_saveplan sp;
  osl_out *mout;
  onnxslim_save_report *rep;
  /* the bytes written, for the caller's progress function */
  osl_progress progress;
  uint64_t model_est; /* the model file's size as estimated before the data */
  /* charged per tensor against the model's max_memory for what the save
   * holds beside its counted blocks (the report, names, encoded fields) */
  uint64_t held;
  osl_map wanted;  /* the data file names wanted (want_names) */
  osl_map claimed; /* the names the data files got (claim_name) */
} osl_xsave;

/* ---- save_plan.c ------------------------------------------------------------ */

void onnxslim__xsave_put(osl_buf *b, const void *d, size_t n);

int onnxslim__xsave_collect_items(osl_xsave *s, osl_msg *msg);

int onnxslim__xsave_keep_shared(osl_xsave *s);

/* Generation k of `want` (k = 0: want itself); malloc'ed. */
char *onnxslim__xsave_variant(const char *want, unsigned k);

/* A per-tensor file name: every character but letters, digits, '.', '_'
 * and '-' becomes '_'. */
void onnxslim__xsave_sanitize(char *s);

void onnxslim__xsave_old_free(osl_old *old);

/* The files model m (loaded) reads: each location with the identity of the
 * file the loader opened for it (beneath m's directory). */
int onnxslim__xsave_old_walk(osl_old *old, const onnxslim_model *m, osl_msg *msg);

/* Reads what the file `base` in outdir (the destination, spelled `path`)
 * reads. Fails only for lack of memory: a file that is not a loadable
 * model is `unknown`. */
int onnxslim__xsave_read_old(int outdir, const char *path, const char *base, osl_old *old);

int onnxslim__xsave_old_reads(const osl_old *old, const osl_os_stat *st);

/* Fills x->others with the files the other models of the directory read.
 * Fails only for lack of memory. */
int onnxslim__xsave_scan_others(osl_xsave *x);

/* 1 when another model of x's directory reads the file dev/ino, or what
 * they read is not known (a scan that failed counts every file as read). */
int onnxslim__xsave_others_read(osl_xsave *x, uint64_t dev, uint64_t ino);

/* 1 if the replaced model's file r goes after the commit: a file it read
 * (opened when it was read, so its identity is known), whatever its name,
 * but never a model file (*.onnx), a side file of a save or a file the new
 * model reads (an AS_LOADED save references the files it loaded; the data
 * files of other layouts are new files). Whether another model of the
 * directory reads it is asked when it is removed (remove_beneath). */
int onnxslim__xsave_goes(const osl_xsave *x, const osl_oldref *r);

/* Removes file `loc` beneath outdir if it still is a regular file with
 * identity dev/ino, `spare` (when given) does not hold that identity and
 * no other model of x's directory reads it. */
void onnxslim__xsave_remove_beneath(int outdir, const char *loc, uint64_t dev, uint64_t ino,
                                    const osl_old *spare, osl_xsave *x);

/* After the commit: removes the data files the replaced model read that the
 * new model does not (onnxslim__xsave_goes()) and no other model of the directory reads.
 * Only regular files still the same as when the old model was read are
 * removed. */
void onnxslim__xsave_remove_old(osl_xsave *x);

/* A location without "." and empty segments ("./m.data" is "m.data"); malloc'ed. */
char *onnxslim__xsave_norm_location(const char *loc);

/* ---- save_journal.c --------------------------------------------------------- */

/* Removes (side_clean) the stale side files of KIND of the model (`base`
 * in outdir) and of the data files at `locs` (locations beneath outdir).
 * Temporaries ("tmp") of data files are named after the model, in the data
 * file's directory: in the directory of each location, those named after
 * the model go too (those named after the data file: older builds'). */
int onnxslim__xsave_clean_sides(int outdir, const char *base, char *const *locs, size_t n,
                                const char *kind);

/* Recovers the journals of killed saves to `base` in outdir (see save_journal.c). */
int onnxslim__xsave_recover_journals(int outdir, const char *base, const osl_old *cur,
                                     osl_xsave *x);

/* Puts data file i in place under the first generation of its name that no
 * other file of this save has, that is not the model file, and where no
 * file is - claimed by a rename that does not replace, since a save to
 * another model in this directory may claim names too. Except that with
 * one data file the name asked for itself may replace a file that neither
 * the model being replaced nor the model being saved reads (re-saving
 * replaces, as asked): that file is kept aside until the commit. The
 * journal hears of each name before it is tried. Every name is in the data
 * file's own directory, reached beneath the model's when the output was
 * opened. */
int onnxslim__xsave_claim_name(osl_xsave *x, size_t i);

/* The journal, before the first rename: the files the commit removes, then
 * (claim_name) each data file as it is put in place. */
int onnxslim__xsave_start_journal(osl_xsave *x);

#endif
