/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - saving with external data: tensors written to data files
 * next to the model (ONNX external_data keys location, offset, length,
 * checksum) or merged back inline, the pair committed atomically.
 *
 * This file writes: the phases of a save, the model file alone into a
 * buffer, a save of the model file alone (save.c). The plan and names are
 * in save_plan.c, the journal in save_journal.c; what they share is in
 * save_external_int.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "onnx.pb.h"

#include "passes/passes.h"
#include "passes/save_external_int.h"

/* A sink that hashes what passes through (for the checksum key). */
typedef struct {
  osl_sink base;
  osl_sink *next;
  osl_sha1 sha;
} osl_hash_sink;

static int hash_write(osl_sink *sink, const uint8_t *p, size_t n) {
  osl_hash_sink *h = (osl_hash_sink *)sink;
  if (onnxslim__sha1_update(&h->sha, p, n))
    return onnxslim__err(ONNXSLIM_EIO, "the system's SHA-1 failed (checksum key)");
  return h->next->write(h->next, p, n);
}

static int write_item(const onnxslim_model *m, osl_item *it, osl_out *out, uint64_t align,
                      int checksum) {
  static const uint8_t zeros[4096];
  uint64_t pos = onnxslim__out_pos(out);
  uint64_t pad = (align - pos % align) % align;
  osl_sink *sink = onnxslim__out_sink(out);
  int rc = 0;
  while (pad && !rc) {
    size_t c = pad < sizeof zeros ? (size_t)pad : sizeof zeros;
    rc = sink->write(sink, zeros, c);
    pad -= c;
  }
  if (rc) return rc;
  it->offset = onnxslim__out_pos(out);
  const osl_xform *x;
  const uint8_t *p;
  size_t n;
  rc = onnxslim__tensor_source(it->t, &x, &p, &n);
  if (rc) return rc;
  if ((uint64_t)n != it->length)
    return onnxslim__err(ONNXSLIM_EMODEL, "tensor '%s': %zu bytes stored, dims and type need %llu",
                         it->name, n, (unsigned long long)it->length);
  osl_hash_sink hs;
  if (checksum) {
    hs.base.write = hash_write;
    hs.next = sink;
    if (onnxslim__sha1_init(&hs.sha))
      return onnxslim__err(ONNXSLIM_EIO, "the system's SHA-1 is not available (checksum key)");
    sink = &hs.base;
  }
  if (x) {
    rc = onnxslim__xform_write((onnxslim_model *)m, x, sink);
  } else {
    rc = n ? sink->write(sink, p, n) : 0;
  }
  if (checksum) {
    uint8_t d[OSL_SHA1_SIZE];
    int hrc = onnxslim__sha1_final(&hs.sha, rc ? NULL : d);
    if (rc) return rc;
    if (hrc) return onnxslim__err(ONNXSLIM_EIO, "the system's SHA-1 failed (checksum key)");
    for (size_t i = 0; i < sizeof d; i++) sprintf(it->checksum + 2 * i, "%02x", d[i]);
  }
  return rc;
}

/* A sink appending to a buffer. */
typedef struct {
  osl_sink base;
  osl_buf *b;
} osl_buf_sink;

static int buf_write(osl_sink *sink, const uint8_t *d, size_t n) {
  osl_buf *b = ((osl_buf_sink *)sink)->b;
  onnxslim__xsave_put(b, d, n);
  return b->fail ? onnxslim__err_nomem("save plan") : 0;
}

/* Appends a written tensor's replacement storage fields to b: an
 * external_data entry per key (location, offset, length, and checksum when
 * asked) and data_location EXTERNAL, encoded by the wire layer. */
static int put_placement(osl_buf *b, const char *location, uint64_t offset, uint64_t length,
                         const char *checksum) {
  char off[24], len[24];
  snprintf(off, sizeof off, "%llu", (unsigned long long)offset);
  snprintf(len, sizeof len, "%llu", (unsigned long long)length);
  const char *keys[4] = {"location", "offset", "length", "checksum"};
  const char *values[4] = {location, off, len, checksum};
  size_t nkeys = checksum ? 4 : 3;
  osl_field kv[4][2], f[5];
  osl_msg entry[4];
  for (size_t k = 0; k < nkeys; k++) {
    onnxslim__fld_bytes(NULL, onnx_StringStringEntryProto_key_tag, keys[k], strlen(keys[k]), 1,
                        &kv[k][0]);
    onnxslim__fld_bytes(NULL, onnx_StringStringEntryProto_value_tag, values[k], strlen(values[k]),
                        1, &kv[k][1]);
    onnxslim__msg_of_fields(&entry[k], &osl_def_onnx_StringStringEntryProto, kv[k], 2);
    onnxslim__fld_sub(onnx_TensorProto_external_data_tag, &entry[k], &f[k]);
  }
  onnxslim__fld_varint(onnx_TensorProto_data_location_tag, onnx_TensorProto_DataLocation_EXTERNAL,
                       &f[nkeys]);
  osl_buf_sink bs = {{buf_write}, b};
  return onnxslim__fields_write(&osl_def_onnx_TensorProto, f, nkeys + 1, &bs.base);
}

/* ---- the phases of a save ---------------------------------------------------- */

/* The names: the model file's (base), the default data file, the location
 * asked for (normalized and checked), the model's directory. Nothing is
 * written when they are refused. */
static int save_names(osl_xsave *x) {
  const char *path = x->path;
  const char *slash = strrchr(path, '/');
  x->base = slash ? slash + 1 : path;
  size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
  if (!x->base[0]) return onnxslim__err(ONNXSLIM_EINVAL, "invalid output path '%s'", path);
  /* the default data file, <model>.data */
  x->deflt = malloc(strlen(x->base) + 6);
  if (!x->deflt) return onnxslim__err_nomem(NULL);
  sprintf(x->deflt, "%s.data", x->base);
  onnxslim_save_options *o = &x->o;
  if (!o->align) o->align = ONNXSLIM_SAVE_DEFAULT_ALIGN;
  if (o->layout == ONNXSLIM_LAYOUT_ONE_FILE && !o->location) o->location = x->deflt;
  const char *why;
  if (o->location && onnxslim__location_ok(o->location, &why)) {
    /* drop "." and empty segments: "./m.onnx" is the model file itself */
    x->norm = onnxslim__xsave_norm_location(o->location);
    if (!x->norm) return onnxslim__err_nomem(NULL);
    o->location = x->norm;
  }
  osl_os_stat pst;
  if (onnxslim__os_stat(path, &pst) == 0 && pst.kind == OSL_KIND_DIR)
    return onnxslim__err(ONNXSLIM_EIO, "cannot save to '%s': it is a directory", path);
  if (o->layout == ONNXSLIM_LAYOUT_ONE_FILE &&
      (!onnxslim__location_ok(o->location, &why) || strcmp(o->location, x->base) == 0))
    return onnxslim__err(ONNXSLIM_EINVAL, "external data location '%s' refused: %s", o->location,
                         strcmp(o->location, x->base) == 0 ? "it is the model file itself" : why);
  if (o->layout != ONNXSLIM_LAYOUT_ONE_FILE && o->location && !x->norm) o->location = NULL;
  /* the model's directory: "a/b" for "a/b/m.onnx", "/" for "/m.onnx" */
  x->outdir_name = dirlen ? onnxslim__strndup(path, dirlen > 1 ? dirlen - 1 : 1) : strdup(".");
  if (!x->outdir_name) return onnxslim__err_nomem(NULL);
  return 0;
}

/* Every file of this save - data files, the model, the side files - is
 * made, renamed and removed beneath a descriptor of the model's directory,
 * never through a symlink leading out of it. */
static int open_outdir(osl_xsave *x) {
  x->outdir = onnxslim__os_open(x->outdir_name, OSL_O_RDONLY | OSL_O_DIRECTORY, 0);
  if (x->outdir < 0)
    return onnxslim__err(ONNXSLIM_EIO, "cannot create a temporary file in '%s': %s", x->outdir_name,
                         strerror(errno));
  return 0;
}

/* The names wanted for the data files, one per file: the location, or a
 * name per tensor, unique among this save's files and not the model. The
 * names they get are chosen at the commit (claim_name). */
static int want_names(osl_xsave *x) {
  for (size_t i = 0; i < x->count; i++)
    x->nwritten += x->items[i].status == ONNXSLIM_SAVE_PLACEMENT_EXTERNAL;
  if (!x->nwritten) return 0;
  size_t want = x->o.layout == ONNXSLIM_LAYOUT_ONE_FILE ? 1 : x->nwritten;
  /* (charged with the items: item_cost) */
  x->outs = calloc(want, sizeof *x->outs);
  x->locs = calloc(want, sizeof *x->locs);
  x->wants = calloc(want, sizeof *x->wants);
  x->finals = calloc(want, sizeof *x->finals);
  x->backups = calloc(want, sizeof *x->backups);
  if (!x->outs || !x->locs || !x->wants || !x->finals || !x->backups)
    return onnxslim__err_nomem(NULL);
  int rc = onnxslim__mem_map_reserve(x->model, &x->wanted, want, SAVE);
  if (rc) return rc;
  for (size_t i = 0; i < x->count && x->nfiles < want; i++) {
    osl_item *it = &x->items[i];
    if (it->status != ONNXSLIM_SAVE_PLACEMENT_EXTERNAL) continue;
    char *loc;
    if (x->o.layout == ONNXSLIM_LAYOUT_ONE_FILE) {
      loc = strdup(x->o.location);
    } else {
      loc = malloc(strlen(it->name) + 32);
      if (loc) {
        sprintf(loc, "%s.bin", it->name[0] ? it->name : "tensor");
        onnxslim__xsave_sanitize(loc);
        /* unique among this save's files and not the model itself: one
         * lookup per name tried, and the names tried for a first name
         * (many tensors may sanitize to one) resume where the last stopped
         * (the first name's entry keeps its k) */
        osl_map_entry *first = onnxslim__map_find(&x->wanted, loc);
        unsigned k = first ? (unsigned)first->num : 0;
        while (strcmp(loc, x->base) == 0 || onnxslim__map_find(&x->wanted, loc)) {
          sprintf(loc, "%s_%u.bin", it->name[0] ? it->name : "tensor", ++k);
          onnxslim__xsave_sanitize(loc);
        }
        if (first) first->num = (int32_t)(k > INT32_MAX ? INT32_MAX : k);
      }
    }
    if (!loc) return onnxslim__err_nomem(NULL);
    x->wants[x->nfiles++] = loc;
    osl_map_entry *e;
    if ((rc = onnxslim__mem_map_add(x->model, &x->wanted, loc, &e, SAVE)) < 0) return rc;
    rc = 0;
  }
  return 0;
}

/* Where write_data will put each tensor (its file and offset: the same
 * every time) and the bytes of the data files. */
static uint64_t place_items(osl_xsave *x) {
  int one_file = x->o.layout == ONNXSLIM_LAYOUT_ONE_FILE;
  uint64_t total = 0, pos = 0;
  size_t file = 0;
  for (size_t i = 0; i < x->count; i++) {
    osl_item *it = &x->items[i];
    if (it->status != ONNXSLIM_SAVE_PLACEMENT_EXTERNAL) continue;
    if (one_file) {
      pos += (x->o.align - pos % x->o.align) % x->o.align;
      it->file = 0;
      it->offset = pos;
      pos += it->length;
    } else {
      it->file = file++;
      it->offset = 0;
      total += it->length;
    }
  }
  return one_file ? pos : total;
}

/* The size of the model file, planned with the names the data files want
 * (the names they get may differ by a generation "_N") and a checksum
 * of the right length: for the progress meter's total, before any byte is
 * written. The plan is dropped again. */
static int plan_model(osl_xsave *x);
static int estimate_model(osl_xsave *x, uint64_t *size) {
  place_items(x);
  for (size_t i = 0; i < x->nfiles; i++) x->locs[i] = x->wants[i];
  for (size_t i = 0; i < x->count; i++)
    if (x->items[i].status == ONNXSLIM_SAVE_PLACEMENT_EXTERNAL)
      memset(x->items[i].checksum, '0', sizeof x->items[i].checksum - 1);
  int rc = plan_model(x);
  if (!rc) rc = onnxslim__msg_size_planned(x->model->root, &x->sp, size);
  for (size_t i = 0; i < x->nfiles; i++) x->locs[i] = NULL;
  onnxslim__saveplan_free(&x->sp);
  onnxslim__mem_free(x->model, x->plans);
  x->plans = NULL;
  x->enc.n = 0;
  return rc;
}

/* The progress meter: its total is every byte the save writes (see
 * estimate_model for the model file's part). */
static int start_progress(osl_xsave *x) {
  if (!x->o.progress) return onnxslim__progress_start(&x->progress, NULL, NULL, 0);
  uint64_t data = place_items(x);
  int rc = estimate_model(x, &x->model_est);
  if (rc) return rc;
  return onnxslim__progress_start(&x->progress, x->o.progress, x->o.progress_payload,
                                  data + x->model_est);
}

/* What is at the model's path and at each data file's name now may be
 * replaced (onnxslim__dest_ok): checked before anything is written, and
 * again where each file is opened and at the commit. */
static int dests_ok(osl_xsave *x) {
  int rc = onnxslim__dest_ok(x->outdir, x->base, x->path);
  size_t dlen = (size_t)(x->base - x->path);
  for (size_t i = 0; i < x->nfiles && !rc; i++) {
    const char *leaf;
    int pfd = onnxslim__open_parent_beneath(x->outdir, x->wants[i], &leaf);
    if (pfd < 0) continue; /* the save fails, or not, where it writes */
    char *p = malloc(dlen + strlen(x->wants[i]) + 1);
    if (p) {
      sprintf(p, "%.*s%s", (int)dlen, x->path, x->wants[i]);
      rc = onnxslim__dest_ok(pfd, leaf, p);
    } else {
      rc = onnxslim__err_nomem(NULL);
    }
    free(p);
    onnxslim__os_close(pfd);
  }
  return rc;
}

/* The data files, each written to a temporary file (aligned offsets in one
 * file, checksums when asked) and synced; temporaries of killed saves to
 * the same names are removed first, so their space is free again. */
static int dests_ok(osl_xsave *x);
static int write_data(osl_xsave *x) {
  int rc = dests_ok(x);
  if (!rc) rc = onnxslim__xsave_clean_sides(x->outdir, x->base, x->wants, x->nfiles, "tmp");
  if (rc || !x->nwritten) return rc;
  int one_file = x->o.layout == ONNXSLIM_LAYOUT_ONE_FILE;
  uint64_t total = 0;
  for (size_t i = 0; i < x->count; i++)
    if (x->items[i].status == ONNXSLIM_SAVE_PLACEMENT_EXTERNAL)
      total += x->items[i].length + x->o.align;
  for (size_t i = 0; i < x->count && !rc; i++) {
    osl_item *it = &x->items[i];
    if (it->status != ONNXSLIM_SAVE_PLACEMENT_EXTERNAL) continue;
    if (!one_file || x->nouts == 0) {
      x->outs[x->nouts] =
          onnxslim__out_open_beneath(x->outdir, x->outdir_name, x->wants[x->nouts], x->base,
                                     one_file ? total : it->length, x->model);
      if (!x->outs[x->nouts]) return onnxslim_error_last_code();
      onnxslim__out_set_progress(x->outs[x->nouts], &x->progress);
      x->nouts++;
    }
    it->file = x->nouts - 1;
    rc = write_item(x->model, it, x->outs[it->file], one_file ? x->o.align : 1,
                    (x->o.flags & ONNXSLIM_SAVE_CHECKSUM) != 0);
  }
  for (size_t i = 0; i < x->nouts && !rc; i++) rc = onnxslim__out_finish(x->outs[i], x->fsync_data);
  return rc;
}

/* From here on, saves to this path take turns: the model in place, what
 * killed saves to it left behind, the commit and the removal of the old
 * data belong together. */
static int take_turn(osl_xsave *x) {
  if (!(x->lock = onnxslim__dest_lock(x->outdir, x->base))) return onnxslim_error_last_code();
  int rc = onnxslim__xsave_read_old(x->outdir, x->path, x->base, &x->old);
  /* what the other models of the directory read, before anything is
   * replaced or removed (after the commit a failure could only keep files)
   * - not for a save that replaces and removes nothing */
  int removes = 0;
  for (size_t i = 0; i < x->old.n; i++) removes |= onnxslim__xsave_goes(x, &x->old.refs[i]);
  if (!rc && (x->nouts || removes)) rc = onnxslim__xsave_scan_others(x);
  if (!rc) rc = onnxslim__xsave_recover_journals(x->outdir, x->base, &x->old, x);
  if (!rc) rc = onnxslim__xsave_clean_sides(x->outdir, x->base, x->wants, x->nfiles, "bak");
  /* temporaries of killed saves next to the data files the model in place
   * reads (another layout or location than this save's) */
  char **locs = !rc && x->old.n ? malloc(x->old.n * sizeof *locs) : NULL;
  if (locs) {
    for (size_t i = 0; i < x->old.n; i++) locs[i] = x->old.refs[i].loc;
    rc = onnxslim__xsave_clean_sides(x->outdir, x->base, locs, x->old.n, "tmp");
    free(locs);
  } else if (!rc && x->old.n) {
    rc = onnxslim__err_nomem(NULL);
  }
  return rc;
}

/* The data files go in first, under names the model in place does not read
 * (claim_name); their names are durable before the model's (each directory
 * once: per-tensor files share the model's). */
static int claim_names(osl_xsave *x) {
  int rc = 0;
  /* counts the one that failed too: undo looks at each (finals[i]) */
  for (; x->committed < x->nouts && !rc; x->committed++)
    rc = onnxslim__xsave_claim_name(x, x->committed);
  for (size_t i = 0; i < x->nouts && !rc && x->fsync_data; i++)
    if (i == 0 || strcmp(onnxslim__out_dir(x->outs[i]), onnxslim__out_dir(x->outs[i - 1])) != 0)
      rc = onnxslim__out_sync_dir(x->outs[i]);
  return rc;
}

/* How the model file is written: the replacement storage fields of every
 * tensor written to a data file (the names it got), the bytes of every
 * tensor external now that stays inline. */
static int plan_model(osl_xsave *x) {
  const onnxslim_model *m = x->model;
  x->plans = onnxslim__mem_calloc(m, x->count ? x->count : 1, sizeof *x->plans, SAVE);
  size_t *starts = x->plans ? onnxslim__mem_calloc(m, x->count + 1, sizeof *starts, SAVE) : NULL;
  int rc = x->plans && starts ? 0 : onnxslim_error_last_code();
  for (size_t i = 0; i < x->count && !rc; i++) {
    osl_item *it = &x->items[i];
    starts[i] = x->enc.n;
    if (it->status == ONNXSLIM_SAVE_PLACEMENT_EXTERNAL)
      rc = put_placement(&x->enc, x->locs[it->file], it->offset, it->length,
                         x->o.flags & ONNXSLIM_SAVE_CHECKSUM ? it->checksum : NULL);
  }
  for (size_t i = 0; i < x->count && !rc; i++) {
    osl_item *it = &x->items[i];
    osl_plan *pl = &x->plans[i];
    if (it->status == ONNXSLIM_SAVE_PLACEMENT_EXTERNAL) {
      pl->fields = x->enc.p + starts[i];
      pl->fields_len = (i + 1 < x->count ? starts[i + 1] : x->enc.n) - starts[i];
      rc = onnxslim__saveplan_set(&x->sp, it->t, pl);
    } else if (it->ext_now) {
      /* stays inline: its external bytes come back into the model file */
      const osl_xform *xf;
      const uint8_t *p;
      size_t n;
      rc = onnxslim__tensor_source(it->t, &xf, &p, &n);
      pl->data = p ? p : (const uint8_t *)"";
      pl->size = n;
      pl->xform = xf;
      if (!rc) rc = onnxslim__saveplan_set(&x->sp, it->t, pl);
    }
  }
  onnxslim__mem_free(m, starts);
  return rc;
}

/* The report, before the commit: a save that cannot report fails whole. */
static int make_report(osl_xsave *x) {
  onnxslim_save_report *rep = calloc(1, sizeof *rep);
  if (!rep) return onnxslim__err_nomem("save report");
  x->rep = rep;
  rep->e = calloc(x->count ? x->count : 1, sizeof *rep->e);
  if (!rep->e) return onnxslim__err_nomem("save report");
  for (size_t i = 0; i < x->count; i++) {
    osl_item *it = &x->items[i];
    struct osl_save_entry *e = &rep->e[rep->count++];
    e->name = strdup(it->name);
    e->placement = it->status;
    if (it->status == ONNXSLIM_SAVE_PLACEMENT_EXTERNAL) {
      e->location = strdup(x->locs[it->file]);
      e->offset = it->offset;
      e->length = it->length;
    }
    if (!e->name || (it->status == ONNXSLIM_SAVE_PLACEMENT_EXTERNAL && !e->location))
      return onnxslim__err_nomem("save report");
  }
  return 0;
}

/* The model file, written and renamed over its predecessor: the commit. */
static int write_model(osl_xsave *x) {
  uint64_t size = 0;
  int rc = onnxslim__msg_size_planned(x->model->root, &x->sp, &size);
  if (!rc) rc = onnxslim__model_size_ok(x->path, size, x->o.flags & ONNXSLIM_SAVE_ALLOW_LARGE);
  if (rc) return rc;
  x->mout = onnxslim__out_open_at(x->outdir, x->path, size, x->model);
  if (!x->mout) return onnxslim_error_last_code();
  onnxslim__out_set_progress(x->mout, &x->progress);
  rc = onnxslim__msg_write_planned(x->model->root, &x->sp, onnxslim__out_sink(x->mout));
  if (!rc) rc = onnxslim__out_finish(x->mout, x->fsync_data);
  if (!rc) rc = onnxslim__progress_commit(&x->progress);
  if (!rc) rc = onnxslim__out_commit(x->mout, x->fsync_data);
  return rc;
}

/* Done (rc 0: the data files the replaced model read and this one does not
 * go) or undone (the new data files go, the ones kept aside come back);
 * then the journal has nothing left to say and the next save may go. */
static void finish(osl_xsave *x, int rc) {
  if (rc) {
    for (size_t i = 0; i < x->committed && i < x->nouts; i++) {
      if (!x->finals[i]) continue;
      int dfd = onnxslim__out_dirfd(x->outs[i]);
      if (x->backups[i]) onnxslim__os_rename(dfd, x->backups[i], x->finals[i]);
      else onnxslim__os_unlink(dfd, x->finals[i]);
    }
  } else {
    onnxslim__xsave_remove_old(x);
  }
  for (size_t i = 0; x->backups && i < x->nouts; i++) /* no-op when put back */
    if (x->backups[i]) onnxslim__os_unlink(onnxslim__out_dirfd(x->outs[i]), x->backups[i]);
  if (x->jname) onnxslim__os_unlink(x->outdir, x->jname);
  if (x->jfd >= 0) onnxslim__os_close(x->jfd);
  x->jfd = -1;
  onnxslim__dest_unlock(x->lock);
  x->lock = NULL;
  uint64_t copied = x->mout ? onnxslim__out_copied(x->mout) : 0;
  for (size_t i = 0; i < x->nouts; i++) copied += x->outs[i] ? onnxslim__out_copied(x->outs[i]) : 0;
  if (x->rep) x->rep->copied = copied;
}

static void xsave_free(osl_xsave *x) {
  onnxslim__out_abort(x->mout);
  for (size_t i = 0; i < x->nouts; i++) onnxslim__out_abort(x->outs[i]);
  for (size_t i = 0; x->backups && i < x->nouts; i++) free(x->backups[i]);
  for (size_t i = 0; i < x->nfiles; i++) {
    free(x->locs[i]);
    free(x->wants[i]);
  }
  free(x->backups);
  free(x->locs);
  free(x->wants);
  free(x->finals);
  free(x->outs);
  if (x->jfd >= 0) onnxslim__os_close(x->jfd);
  free(x->jname);
  onnxslim__xsave_old_free(&x->old);
  onnxslim__xsave_old_free(&x->news);
  onnxslim__xsave_old_free(&x->others);
  onnxslim__saveplan_free(&x->sp);
  onnxslim__mem_free(x->model, x->plans);
  free(x->enc.p);
  onnxslim__mem_free(x->model, x->items);
  onnxslim__mem_map_free(x->model, &x->wanted);
  onnxslim__mem_map_free(x->model, &x->claimed);
  onnxslim__mem_release(x->model, x->held);
  free(x->deflt);
  free(x->norm);
  if (x->outdir >= 0) onnxslim__os_close(x->outdir);
  free(x->outdir_name);
  onnxslim_save_report_free(x->rep);
}

int onnxslim__save_external(onnxslim_save_report **out, const onnxslim_model *model,
                            const char *path, const onnxslim_save_options *opts) {
  osl_xsave x;
  memset(&x, 0, sizeof x);
  x.model = model;
  x.old.counter = x.news.counter = x.others.counter = model;
  x.path = path;
  x.o = *opts;
  x.outdir = x.jfd = -1;
  x.fsync_data = !(opts->flags & ONNXSLIM_SAVE_NO_FSYNC);
  int rc = save_names(&x);
  if (!rc) rc = onnxslim__xsave_collect_items(&x, model->root);
  if (!rc) rc = onnxslim__xsave_keep_shared(&x);
  if (!rc) rc = open_outdir(&x);
  if (!rc) rc = want_names(&x);
  if (!rc) rc = start_progress(&x);
  if (!rc) rc = write_data(&x);
  if (!rc) rc = take_turn(&x);
  if (!rc) rc = onnxslim__xsave_start_journal(&x);
  if (!rc) rc = claim_names(&x);
  if (!rc) rc = plan_model(&x);
  if (!rc && out) rc = make_report(&x);
  if (!rc) rc = write_model(&x);
  finish(&x, rc);
  if (!rc && out) {
    *out = x.rep;
    x.rep = NULL;
  }
  xsave_free(&x);
  if (!rc) onnxslim__progress_end(&x.progress);
  return rc;
}

/* ---- the model file alone, into a buffer -------------------------------------- */

/* A sink filling the caller's buffer (sized beforehand). */
typedef struct {
  osl_sink base;
  uint8_t *p;
  size_t n, cap;
} osl_fill_sink;

static int fill_write(osl_sink *sink, const uint8_t *d, size_t n) {
  osl_fill_sink *fs = (osl_fill_sink *)sink;
  if (n > fs->cap - fs->n)
    return onnxslim__err(ONNXSLIM_EBUFSIZE, "buffer of %zu bytes overflowed", fs->cap);
  memcpy(fs->p + fs->n, d, n);
  fs->n += n;
  return 0;
}

/* The tensors are chosen and placed as onnxslim__save_external() does, with
 * the names the data files want (no directory: nothing to claim); the
 * model is then written with those references and no data file is. */
int onnxslim__save_external_buffer(onnxslim_save_report **out, const onnxslim_model *model,
                                   void *buf, size_t capacity, size_t *size,
                                   const onnxslim_save_options *opts) {
  osl_xsave x;
  memset(&x, 0, sizeof x);
  x.model = model;
  x.old.counter = x.news.counter = x.others.counter = model;
  x.path = "";
  x.base = ""; /* no model file: every data file name may be taken */
  x.o = *opts;
  x.outdir = x.jfd = -1;
  if (!x.o.align) x.o.align = ONNXSLIM_SAVE_DEFAULT_ALIGN;
  int rc = 0;
  const char *why;
  if (x.o.layout == ONNXSLIM_LAYOUT_ONE_FILE) {
    if (!x.o.location) x.o.location = "model.data";
    if (!onnxslim__location_ok(x.o.location, &why))
      rc = onnxslim__err(ONNXSLIM_EINVAL, "external data location '%s' refused: %s", x.o.location,
                         why);
    else if (!(x.norm = onnxslim__xsave_norm_location(x.o.location)))
      rc = onnxslim__err_nomem(NULL);
    else x.o.location = x.norm;
  }
  if (!rc) rc = onnxslim__xsave_collect_items(&x, model->root);
  if (!rc) rc = onnxslim__xsave_keep_shared(&x);
  if (!rc) rc = want_names(&x);
  if (!rc) {
    place_items(&x);
    for (size_t i = 0; i < x.nfiles; i++) x.locs[i] = x.wants[i];
    rc = plan_model(&x);
  }
  uint64_t need = 0;
  if (!rc) rc = onnxslim__msg_size_planned(model->root, &x.sp, &need);
  if (!rc && need > SIZE_MAX) rc = onnxslim__err(ONNXSLIM_ELIMIT, "model too large for a buffer");
  if (!rc && need > INT32_MAX && !(x.o.flags & ONNXSLIM_SAVE_ALLOW_LARGE))
    rc = onnxslim__err(ONNXSLIM_ELIMIT,
                       "the model would be %llu bytes, over protobuf's 2 GiB limit "
                       "(ONNXSLIM_SAVE_ALLOW_LARGE allows it)",
                       (unsigned long long)need);
  if (!rc) {
    *size = (size_t)need;
    if (!buf || capacity < need)
      rc = onnxslim__err(ONNXSLIM_EBUFSIZE, "buffer of %zu bytes is too small: %zu needed",
                         buf ? capacity : 0, (size_t)need);
  }
  if (!rc && out) rc = make_report(&x);
  if (!rc) {
    osl_fill_sink fs = {{fill_write}, buf, 0, capacity};
    rc = onnxslim__msg_write_planned(model->root, &x.sp, &fs.base);
    if (!rc && fs.n != need)
      rc = onnxslim__err(ONNXSLIM_EIO, "internal size mismatch: %zu written, %zu expected", fs.n,
                         (size_t)need);
  }
  for (size_t i = 0; i < x.nfiles; i++) x.locs[i] = NULL; /* the wants' strings */
  if (!rc && out) {
    *out = x.rep;
    x.rep = NULL;
  }
  xsave_free(&x);
  return rc;
}

/* ---- a save of the model file alone (save.c) ------------------------------- */

struct osl_replace {
  osl_xsave x;
  int active; /* the directory was opened: finish() has work */
};

int onnxslim__replace_begin(osl_replace **out, const onnxslim_model *model, const char *path) {
  *out = NULL;
  osl_replace *rp = calloc(1, sizeof *rp);
  if (!rp) return onnxslim__err_nomem(NULL);
  osl_xsave *x = &rp->x;
  x->model = model;
  x->old.counter = x->news.counter = x->others.counter = model;
  x->path = path;
  x->o.layout = ONNXSLIM_LAYOUT_AS_LOADED;
  x->outdir = x->jfd = -1;
  const char *slash = strrchr(path, '/');
  x->base = slash ? slash + 1 : path;
  size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
  x->outdir_name = dirlen ? onnxslim__strndup(path, dirlen > 1 ? dirlen - 1 : 1) : strdup(".");
  *out = rp;
  if (!x->outdir_name) return onnxslim__err_nomem(NULL);
  osl_os_stat st;
  /* no directory, a directory at path, no name: nothing to replace (the
   * write fails and says why) */
  if (!x->base[0] || (onnxslim__os_stat(path, &st) == 0 && st.kind == OSL_KIND_DIR) ||
      (x->outdir = onnxslim__os_open(x->outdir_name, OSL_O_RDONLY | OSL_O_DIRECTORY, 0)) < 0)
    return 0;
  rp->active = 1;
  /* the files the new model reads: those it loaded, where its tensors
   * stay (checked by onnxslim__external_refs_resolve) */
  int rc = onnxslim__xsave_old_walk(&x->news, model, model->root);
  if (!rc) rc = take_turn(x);
  if (!rc) rc = onnxslim__xsave_start_journal(x);
  return rc;
}

void onnxslim__replace_end(osl_replace *rp, int rc) {
  if (!rp) return;
  if (rp->active) finish(&rp->x, rc);
  xsave_free(&rp->x);
  free(rp);
}
