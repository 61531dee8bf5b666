/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - a save with external data, its temporaries and commit
 * journal (written before the first rename, recovered by the next save),
 * and the claiming of the data files' names. save_external.c runs the save.
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

/* ---- temporaries and the commit journal ------------------------------------
 * A pair commit writes a journal (io.c side file ".<model>.journal-...")
 * before its first rename: the data files it puts in place ("new", with the
 * device and inode of each), the files of the replaced model it removes
 * after the commit ("old"), and files kept aside ("bak"). A save that is
 * killed leaves it behind; the next save to the same model recovers it:
 * every listed file that is still that very file and that the model at
 * the destination now does not read is removed (new data of a commit that
 * did not happen, old data of one that did), and a file kept aside goes
 * back if its name is free again. Locations in the journal are relative to
 * the model's directory; every file is reached beneath its descriptor. */

/* Removes (side_clean) the stale side files of KIND of the model (`base`
 * in outdir) and of the data files at `locs` (locations beneath outdir).
 * Temporaries ("tmp") of data files are named after the model, in the data
 * file's directory: in the directory of each location, those named after
 * the model go too (those named after the data file: older builds'). */
int onnxslim__xsave_clean_sides(int outdir, const char *base, char *const *locs, size_t n,
                                const char *kind) {
  const char **bases = malloc((n + 1) * sizeof *bases);
  if (!bases) return onnxslim__err_nomem(NULL);
  size_t k = 0;
  bases[k++] = base;
  for (size_t i = 0; i < n; i++)
    if (!strchr(locs[i], '/')) bases[k++] = locs[i];
  onnxslim__side_clean(outdir, bases, k, kind);
  /* each other directory once, with the names of the data files in it */
  for (size_t i = 0; i < n; i++) {
    const char *slash = strrchr(locs[i], '/');
    if (!slash) continue;
    size_t dlen = (size_t)(slash - locs[i]);
    int seen = 0;
    for (size_t j = 0; j < i && !seen; j++) {
      const char *sj = strrchr(locs[j], '/');
      seen = sj && (size_t)(sj - locs[j]) == dlen && strncmp(locs[i], locs[j], dlen) == 0;
    }
    if (seen) continue;
    const char *leaf;
    int pfd = onnxslim__open_parent_beneath(outdir, locs[i], &leaf);
    if (pfd < 0) continue; /* the save fails, or not, where it writes */
    k = 0;
    if (strcmp(kind, "tmp") == 0) bases[k++] = base;
    for (size_t j = i; j < n; j++) {
      const char *sj = strrchr(locs[j], '/');
      if (sj && (size_t)(sj - locs[j]) == dlen && strncmp(locs[i], locs[j], dlen) == 0)
        bases[k++] = sj + 1;
    }
    onnxslim__side_clean(pfd, bases, k, kind);
    onnxslim__os_close(pfd);
  }
  free(bases);
  return 0;
}

static void put_str(osl_buf *b, const char *str) { onnxslim__xsave_put(b, str, strlen(str)); }

static void put_loc(osl_buf *b, const char *loc) {
  char num[32];
  sprintf(num, " %zu:", strlen(loc));
  put_str(b, num);
  put_str(b, loc);
}

static void put_id(osl_buf *b, const char *tag, uint64_t dev, uint64_t ino, const char *loc) {
  char num[64];
  sprintf(num, "%s %llu %llu", tag, (unsigned long long)dev, (unsigned long long)ino);
  put_str(b, num);
  put_loc(b, loc);
  put_str(b, "\n");
}

static const char journal_magic[] = "onnxslim-journal 1\n";

/* Parses " LEN:LOC" at *p (end e) into a malloc'ed, checked location. */
static char *get_loc(const char **p, const char *e) {
  const char *q = *p;
  if (q >= e || *q++ != ' ') return NULL;
  size_t len = 0;
  while (q < e && *q >= '0' && *q <= '9' && len < 65536) len = len * 10 + (size_t)(*q++ - '0');
  if (q >= e || *q++ != ':' || len == 0 || len > (size_t)(e - q)) return NULL;
  char *loc = onnxslim__strndup(q, len);
  const char *why;
  if (!loc || strlen(loc) != len || !onnxslim__location_ok(loc, &why)) {
    free(loc);
    return NULL;
  }
  *p = q + len;
  return loc;
}

static int get_u64(const char **p, const char *e, unsigned long long *v) {
  const char *q = *p;
  if (q >= e || *q++ != ' ' || q >= e || *q < '0' || *q > '9') return -1;
  *v = 0;
  while (q < e && *q >= '0' && *q <= '9') *v = *v * 10 + (unsigned long long)(*q++ - '0');
  *p = q;
  return 0;
}

typedef struct {
  const osl_old *cur; /* the model at the destination now */
  osl_xsave *x;       /* the save: the other models of the directory */
} osl_recover;

/* Puts file `bak` (kept aside) back as `loc` if that name is free; both are
 * locations beneath outdir in one directory. */
static void put_back(int outdir, const char *bak, const char *loc) {
  const char *bleaf = strrchr(bak, '/'), *lleaf = strrchr(loc, '/');
  bleaf = bleaf ? bleaf + 1 : bak;
  lleaf = lleaf ? lleaf + 1 : loc;
  if (bleaf - bak != lleaf - loc || strncmp(bak, loc, (size_t)(bleaf - bak)) != 0) return;
  const char *leaf;
  int pfd = onnxslim__open_parent_beneath(outdir, loc, &leaf);
  if (pfd < 0) return;
  osl_os_stat st;
  if (onnxslim__os_statat(pfd, bleaf, 1, &st) == 0 && onnxslim__os_statat(pfd, leaf, 1, &st) != 0 &&
      errno == ENOENT)
    onnxslim__os_rename(pfd, bleaf, leaf);
  onnxslim__os_close(pfd);
}

static int recover_journal(void *ctx, int outdir, const char *jname) {
  const osl_recover *r = ctx;
  size_t n = 0;
  char *text = NULL;
  int fd = onnxslim__os_openat(outdir, jname, OSL_O_RDONLY | OSL_O_NOFOLLOW | OSL_O_NONBLOCK, 0);
  osl_os_stat st;
  if (fd >= 0 && onnxslim__os_fstat(fd, &st) == 0 && st.kind == OSL_KIND_REG && st.size > 0 &&
      st.size < (64 << 20) && (text = malloc((size_t)st.size))) {
    while (n < (size_t)st.size) {
      ptrdiff_t got = onnxslim__os_read(fd, text + n, (size_t)st.size - n);
      if (got <= 0) break;
      n += (size_t)got;
    }
  }
  if (fd >= 0) onnxslim__os_close(fd);
  const char *p = text, *e = text ? text + n : NULL;
  size_t mlen = sizeof journal_magic - 1;
  /* what the destination's model reads now is known: act on each entry */
  if (text && !r->cur->unknown && n >= mlen && memcmp(p, journal_magic, mlen) == 0) {
    p += mlen;
    while (p + 4 <= e) {
      char tag[4] = {p[0], p[1], p[2], 0};
      p += 3;
      unsigned long long dev = 0, ino = 0;
      char *loc = NULL, *bak = NULL;
      int ok;
      if (strcmp(tag, "bak") == 0) {
        ok = (bak = get_loc(&p, e)) && (loc = get_loc(&p, e));
      } else {
        ok = (strcmp(tag, "new") == 0 || strcmp(tag, "old") == 0) && !get_u64(&p, e, &dev) &&
             !get_u64(&p, e, &ino) && (loc = get_loc(&p, e));
      }
      ok = ok && p < e && *p++ == '\n';
      if (ok && !bak)
        onnxslim__xsave_remove_beneath(outdir, loc, (uint64_t)dev, (uint64_t)ino, r->cur, r->x);
      if (ok && bak) put_back(outdir, bak, loc);
      free(loc);
      free(bak);
      if (!ok) break;
    }
  }
  free(text);
  onnxslim__os_unlink(outdir, jname);
  return 0;
}

/* Recovers the journals of killed saves to `base` in outdir (see above). */
int onnxslim__xsave_recover_journals(int outdir, const char *base, const osl_old *cur,
                                     osl_xsave *x) {
  osl_recover r = {cur, x};
  return onnxslim__side_stale(outdir, &base, 1, "journal", recover_journal, &r);
}

/* Writes what b holds to the journal and empties b. */
static int journal_put(int fd, const char *name, osl_buf *b) {
  if (b->fail) return onnxslim__err_nomem(NULL);
  for (size_t w = 0; w < b->n;) {
    ptrdiff_t got = onnxslim__os_write(fd, b->p + w, b->n - w);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0)
      return onnxslim__err(errno == ENOSPC ? ONNXSLIM_ENOSPC : ONNXSLIM_EIO,
                           "cannot write '%s': %s", name, strerror(errno));
    w += (size_t)got;
  }
  b->n = 0;
  return 0;
}

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
int onnxslim__xsave_claim_name(osl_xsave *x, size_t i) {
  int replace = x->o.layout == ONNXSLIM_LAYOUT_ONE_FILE;
  uint64_t dev;
  uint64_t ino;
  int rc = onnxslim__out_identity(x->outs[i], &dev, &ino);
  int dfd = onnxslim__out_dirfd(x->outs[i]);
  osl_buf j = {0};
  for (unsigned k = 0; !rc; k++) {
    if (k > 100000) {
      rc = onnxslim__err(ONNXSLIM_EIO, "no free name for the data file '%s'", x->wants[i]);
      break;
    }
    char *loc = onnxslim__xsave_variant(x->wants[i], k);
    if (!loc) {
      rc = onnxslim__err_nomem("data file name");
      break;
    }
    const char *leaf = strrchr(loc, '/');
    leaf = leaf ? leaf + 1 : loc;
    int taken = strcmp(loc, x->base) == 0 || onnxslim__map_find(&x->claimed, loc);
    osl_os_stat st;
    int exists = !taken && onnxslim__os_statat(dfd, leaf, 1, &st) == 0;
    if (exists)
      taken = !(replace && k == 0) || x->old.unknown || st.kind != OSL_KIND_REG ||
              onnxslim__xsave_old_reads(&x->old, &st) || onnxslim__model_reads(x->model, &st) ||
              onnxslim__xsave_others_read(x, st.dev, st.ino);
    if (!taken) {
      put_id(&j, "new", dev, ino, loc);
      if (exists &&
          !(x->backups[i] = onnxslim__side_link(dfd, onnxslim__out_dir(x->outs[i]), leaf)))
        rc = onnxslim_error_last_code();
      if (!rc && x->backups[i]) {
        /* the backup's location: in the directory of loc */
        size_t head = (size_t)(leaf - loc);
        char *bloc = malloc(head + strlen(x->backups[i]) + 1);
        if (bloc) {
          sprintf(bloc, "%.*s%s", (int)head, loc, x->backups[i]);
          put_str(&j, "bak");
          put_loc(&j, bloc);
          put_loc(&j, loc);
          put_str(&j, "\n");
          free(bloc);
        } else {
          rc = onnxslim__err_nomem(NULL);
        }
      }
      if (!rc) rc = journal_put(x->jfd, x->jname, &j);
      if (!rc && exists) {
        rc = onnxslim__out_commit_to(x->outs[i], leaf, 0);
      } else if (!rc) {
        rc = onnxslim__out_claim(x->outs[i], leaf);
        if (rc == 1) {
          rc = 0; /* taken meanwhile: the next generation */
          taken = 1;
        }
      }
    }
    if (!rc && !taken) {
      x->locs[i] = loc;
      x->finals[i] = leaf;
      osl_map_entry *e;
      if ((rc = onnxslim__mem_map_add(x->model, &x->claimed, loc, &e, SAVE)) > 0) rc = 0;
      break;
    }
    free(loc);
  }
  free(j.p);
  return rc;
}

/* The journal, before the first rename: the files the commit removes, then
 * (claim_name) each data file as it is put in place. */
int onnxslim__xsave_start_journal(osl_xsave *x) {
  size_t ndel = 0;
  for (size_t i = 0; i < x->old.n; i++) ndel += onnxslim__xsave_goes(x, &x->old.refs[i]);
  if (!x->nouts && !ndel) return 0;
  osl_buf j = {0};
  put_str(&j, journal_magic);
  for (size_t i = 0; i < x->old.n; i++)
    if (onnxslim__xsave_goes(x, &x->old.refs[i]))
      put_id(&j, "old", x->old.refs[i].dev, x->old.refs[i].ino, x->old.refs[i].loc);
  int rc = 0;
  if ((x->jfd = onnxslim__side_create(x->outdir, x->outdir_name, x->base, "journal", &x->jname)) <
      0)
    rc = onnxslim_error_last_code();
  if (!rc) rc = journal_put(x->jfd, x->jname, &j);
  free(j.p);
  return rc;
}
