/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - base tier: errors, the arena, the hash map, files and
 * outputs. Never installed. Knows nothing of ONNX, of messages or of
 * models: the files of lib/base/ include this header only (and the public
 * ones).
 *
 * Tiers of lib/, each calling only itself and the tiers before it
 * (test/check_layers.py checks it; docs/contributing.md):
 *   base (lib/base/) <- wire (lib/wire/) <- handles (lib/, the files at
 *   its top) <- passes (lib/passes/)
 */
#ifndef ONNXSLIM_BASE_H
#define ONNXSLIM_BASE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "onnxslim.h"
#include "base/platform.h"

/* The ONNX wire format and the tensor bytes in it are little-endian; the
 * library reads and writes them in host order (docs/building.md). */
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
/* clang-format off */
#  error "libonnxslim builds for little-endian targets only (ONNX tensors are little-endian and the library keeps them in host byte order); see docs/building.md"
/* clang-format on */
#endif

/* ---- errors (error.c) -------------------------------------------------- */

/* The archetype of printf-like functions' format attribute: mingw-w64's
 * "printf" is Microsoft's, without %zu; the library is built with its C99
 * printf (__USE_MINGW_ANSI_STDIO), which is GNU's. */
#if defined(__MINGW32__)
#  define OSL_PRINTF gnu_printf
#else
#  define OSL_PRINTF printf
#endif

/* A copy of at most n bytes of s, NUL-terminated (malloc'ed), or NULL:
 * strndup, which not every C library has. */
char *onnxslim__strndup(const char *s, size_t n);

/* Records code and a printf-style message as the thread's last error and
 * returns code, so callers can write `return onnxslim__err(...)`. */
int onnxslim__err(int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(OSL_PRINTF, 2, 3)))
#endif
    ;

/* Records ONNXSLIM_EINVAL for an options (or stats) struct whose version
 * this library does not know, naming the versions it knows:
 * "unknown load options version 7 (this library knows versions 1 to 3)".
 * `what` names the struct ("load options"); max is its current version. */
int onnxslim__err_options_version(const char *who, const char *what, unsigned int version,
                                  unsigned int max);

/* Records ONNXSLIM_ENOMEM with "out of memory" and where: `what` says what
 * was being allocated ("out of memory: graph index"). Returns ONNXSLIM_ENOMEM. */
int onnxslim__err_nomem(const char *what);

/* The calling thread's last error, kept aside by onnxslim__err_save() and
 * put back by onnxslim__err_restore(): a job that meets errors on its way
 * (lookups that find nothing) and still succeeds leaves the last error as
 * the caller had it. */
typedef struct osl_err_saved {
  int code;
  char msg[1024];
} osl_err_saved;
void onnxslim__err_save(osl_err_saved *s);
void onnxslim__err_restore(const osl_err_saved *s);

/* ---- progress (progress.c) -------------------------------------------- */

/* A meter over `total` units (bytes) of one operation that calls the
 * caller's onnxslim_progress_fn: done = 0 first (progress_start), then at a
 * bounded rate as units are added (0 < done < total), done == total last
 * (progress_end, once the operation succeeded). fn NULL: every call is a
 * no-op. A nonzero return of fn (but the last) makes the call that made it
 * return ONNXSLIM_ECANCELED with the last error set. */
typedef struct osl_progress {
  onnxslim_progress_fn fn; /* NULL: no meter */
  void *payload;
  uint64_t total;
  uint64_t done;  /* units added (may pass total; what fn sees never does) */
  uint64_t next;  /* report when done reaches it */
  uint64_t step;  /* units between reports */
  uint64_t shown; /* the done fn saw last */
} osl_progress;

/* Sets the meter up (fn NULL: none) and makes the first call (none when
 * total is 0). 0 or ONNXSLIM_ECANCELED. */
int onnxslim__progress_start(osl_progress *p, onnxslim_progress_fn fn, void *payload,
                             uint64_t total);
int onnxslim__progress_report(osl_progress *p);
/* Records ONNXSLIM_ECANCELED and returns it. */
int onnxslim__progress_canceled(void);
/* n more units done (p may be NULL); 0 or ONNXSLIM_ECANCELED. */
static inline int onnxslim__progress_add(osl_progress *p, uint64_t n) {
  if (!p || !p->fn) return 0;
  p->done += n;
  return p->done >= p->next ? onnxslim__progress_report(p) : 0;
}
/* done is now at least `done` units (for work measured by position). */
static inline int onnxslim__progress_at(osl_progress *p, uint64_t done) {
  if (!p || !p->fn || done <= p->done) return 0;
  return onnxslim__progress_add(p, done - p->done);
}
/* A save's files are written and synced, the commit is next: one more
 * call, done == total - 1 (reports before it stop at total - 2), whose
 * cancel still leaves every file as it was - the last chance for a caller
 * asked to stop while the data was being synced (p may be NULL; no call
 * when total < 2). 0 or ONNXSLIM_ECANCELED. */
int onnxslim__progress_commit(osl_progress *p);
/* The operation succeeded: the last call, done == total (p may be NULL). */
void onnxslim__progress_end(osl_progress *p);

/* ---- arena (arena.c) --------------------------------------------------- */

/* A bump allocator. Everything a model allocates while it lives comes from
 * its arena and is released at once by onnxslim__arena_free(). */
typedef struct osl_arena_block osl_arena_block;
typedef struct osl_arena {
  osl_arena_block *head;
  size_t block;   /* size of the next block (0: the default, 64 KiB); doubles up to it */
  uint64_t total; /* bytes taken from malloc */
} osl_arena;

void *onnxslim__arena_alloc(osl_arena *arena, size_t size);
void *onnxslim__arena_dup(osl_arena *arena, const void *data, size_t size);
/* Copies size bytes and appends a NUL. */
char *onnxslim__arena_strndup(osl_arena *arena, const void *data, size_t size);
void onnxslim__arena_free(osl_arena *arena);

/* ---- hash map (map.c) --------------------------------------------------- */

/* The one hash map of the library: open addressing, from NUL-terminated
 * names or from pointers (the _ptr functions) to a value and a number.
 * Keys are borrowed. A map's slots come from the arena given to every add
 * (or, arena NULL, from malloc: then onnxslim__map_free releases them); a
 * map uses one or the other all its life. Zero-initialized = empty. */
typedef struct osl_map_entry {
  const void *key; /* NULL: empty slot */
  void *value;
  uint32_t hash; /* the key's hash folded to 32 bits */
  int32_t num;   /* 24 bytes an entry: graph indexes hold one per name */
} osl_map_entry;
typedef struct osl_map {
  osl_map_entry *slots;
  size_t cap; /* power of two or 0 */
  size_t len;
} osl_map;

uint64_t onnxslim__hash(const char *s);
/* The entry of key, or NULL. */
osl_map_entry *onnxslim__map_find(const osl_map *map, const char *key);
osl_map_entry *onnxslim__map_find_ptr(const osl_map *map, const void *key);
/* The value of key, or NULL. */
void *onnxslim__map_get(const osl_map *map, const char *key);
/* Returns the slot for key: an empty slot (key NULL) if absent; NULL while
 * the map has no capacity. */
osl_map_entry *onnxslim__map_slot(osl_map *map, const char *key);
/* Adds key unless present: 1 (added; value NULL, num 0) or 0 (present),
 * *entry its entry, or ONNXSLIM_ENOMEM (no error recorded). */
int onnxslim__map_add(osl_arena *arena, osl_map *map, const char *key, osl_map_entry **entry);
int onnxslim__map_add_ptr(osl_arena *arena, osl_map *map, const void *key, osl_map_entry **entry);
/* Inserts key -> value unless key exists (then keeps the old value).
 * Returns the entry or NULL on allocation failure. */
osl_map_entry *onnxslim__map_put(osl_arena *arena, osl_map *map, const char *key, void *value);
/* Hints the CPU to fetch the slot where a lookup of key starts (a map
 * larger than the caches costs a memory access per lookup): called a few
 * items before the lookup or add, so that the two overlap. No effect on
 * the map; nothing without GCC or Clang. */
void onnxslim__map_prefetch(const osl_map *map, const char *key);
void onnxslim__map_prefetch_ptr(const osl_map *map, const void *key);
/* Grows the map once so that n keys fit without growing again: 0 or
 * ONNXSLIM_ENOMEM (no error recorded). */
int onnxslim__map_reserve(osl_arena *arena, osl_map *map, size_t n);
/* The capacity (slots) the map has once n keys fit (as map_reserve would
 * make it): its capacity now when they already do. */
size_t onnxslim__map_cap_for(const osl_map *map, size_t n);
/* Frees the slots of a map grown with no arena; the map is empty again. */
void onnxslim__map_free(osl_map *map);

/* ---- outputs and files (io.c) ----------------------------------------- */

/* Where written bytes go (an output's buffer, a hash, a caller's buffer). */
typedef struct osl_sink osl_sink;
struct osl_sink {
  /* Returns 0 or a negative code (with the last error set). */
  int (*write)(osl_sink *sink, const uint8_t *data, size_t size);
};

/* A run of mapped bytes released but not yet handed back. */
typedef struct osl_run {
  const uint8_t *lo, *hi;
} osl_run;

/* Hints that bytes [p, p+n) of the mapping that starts at map are not
 * needed for now, so streaming over a large file does not grow the
 * resident set. Cheap to call for any range, however small: ranges that
 * follow one another are gathered in *run, and pages go back to the kernel
 * only in runs of several MiB (one madvise per run). */
void onnxslim__run_release(osl_run *run, const void *map, const void *p, size_t n);

/* Where bytes written to an output may come from. When [p, p+n) lies in a
 * mapped file, locate gives that file's descriptor and the offset (1; else
 * 0) and the output copies the bytes in the kernel (onnxslim__os_copy_range);
 * release is told of bytes written (their pages may go). owner is passed
 * to both. All NULL: plain memory. A model's comes from
 * onnxslim__model_source() (wire tier). */
typedef struct osl_source {
  const void *owner;
  int (*locate)(const void *owner, const uint8_t *p, size_t n, int *fd, int64_t *off);
  void (*release)(const void *owner, const void *p, size_t n);
} osl_source;

/* Reads n bytes of fd at off into dst (pread, EINTR retried): 0, or -1
 * with errno (EIO when the file ends first). Reading a mapped file's bytes
 * this way maps none of its pages (docs/design.md, "Memory"). */
int onnxslim__read_at(int fd, int64_t off, void *dst, size_t n);

/* Maps a regular file read-only; anything else (FIFO, device, directory) is
 * refused without blocking. */
int onnxslim__map_file(const char *path, void **map, size_t *len, int *fd);
/* Opens the relative path `rel` beneath the directory dirfd as openat()
 * with `flags` (O_CLOEXEC added; not O_CREAT) would, race-free: symlinks are
 * followed only while they stay beneath dirfd, and nothing resolves above
 * it (openat2 RESOLVE_BENEATH, or the same walk in user space where the
 * kernel lacks openat2). Returns the descriptor, or -1 with errno: EXDEV
 * when the path (a "..", an absolute symlink, a symlink climbing out)
 * would leave dirfd, ELOOP for too many symlinks. */
int onnxslim__open_beneath(int dirfd, const char *rel, int flags);
/* "a directory", "a FIFO", ... for messages. */
const char *onnxslim__file_kind(int kind); /* OSL_KIND_* */
/* 0 when a save may put a file at `name` in dfd (spelled `path` in
 * messages): nothing is there, a regular file, or a symlink to a regular
 * file (the link is replaced, never written through). Anything else - a
 * FIFO, a device, a directory, a socket, a dangling symlink, a symlink to
 * anything but a regular file - is ONNXSLIM_EIO with a message that says
 * what is there. */
int onnxslim__dest_ok(int dfd, const char *name, const char *path);
void onnxslim__unmap(void *map, size_t len);
/* The directory of `path` opened (O_RDONLY | O_DIRECTORY), *name pointing
 * at path's last segment; -1 with errno. */
int onnxslim__open_dir_of(const char *path, const char **name);
/* The directory that holds the last segment of `rel` (a checked relative
 * location), opened beneath basefd (a copy of basefd when rel has no '/');
 * *leaf points at that segment. -1 with errno (EXDEV: it leaves basefd). */
int onnxslim__open_parent_beneath(int basefd, const char *rel, const char **leaf);
/* An output file written to a temporary file next to `path` (after checking
 * `size` bytes fit: file-size limit, free space) and renamed into place by
 * commit; abort (also after commit) releases it and removes the temporary.
 * Every operation is relative to a descriptor of the output's directory,
 * kept open: the temporary (a side file ".NAME.tmp-...", below, locked
 * while written) is created with O_EXCL | O_NOFOLLOW, renamed with
 * renameat. */
typedef struct osl_out osl_out;
/* out_open_at_from: the directory of `path` is dirfd (borrowed, copied). */
osl_out *onnxslim__out_open_at_from(int dirfd, const char *path, uint64_t size, osl_source src);
/* The same for a data file `rel` (a checked relative location) beneath the
 * directory basefd (spelled `base` in messages): its directory is opened
 * beneath basefd (onnxslim__open_beneath), so nothing is written outside,
 * whatever is renamed meanwhile; a location leading out through a symlink
 * is refused with ONNXSLIM_EINVAL. Its temporary is named after `owner`
 * (the model file's name, so that any later save to the model finds it:
 * ".MODEL.tmp-..." in the data file's directory; NULL: after rel's leaf). */
osl_out *onnxslim__out_open_beneath_from(int basefd, const char *base, const char *rel,
                                         const char *owner, uint64_t size, osl_source src);
osl_sink *onnxslim__out_sink(osl_out *out);
/* Bytes written to the output from now on are added to `progress` (NULL:
 * none), and its cancel fails the write. */
void onnxslim__out_set_progress(osl_out *out, osl_progress *progress);
uint64_t onnxslim__out_pos(const osl_out *out);
uint64_t onnxslim__out_copied(const osl_out *out);
const char *onnxslim__out_path(const osl_out *out);
/* The output's directory (a descriptor the output owns, valid until abort;
 * its spelling for messages) and its current name in it. */
int onnxslim__out_dirfd(const osl_out *out);
const char *onnxslim__out_dir(const osl_out *out);
const char *onnxslim__out_name(const osl_out *out);
/* flush and fsync; the file stays open (and its temporary locked) until
 * the commit */
int onnxslim__out_finish(osl_out *out, int fsync_data);
int onnxslim__out_commit(osl_out *out, int fsync_dir); /* rename into place */
/* Renames into place under another name in the same directory. */
int onnxslim__out_commit_to(osl_out *out, const char *name, int fsync_dir);
/* fsync of the output's directory (names renamed into it are durable). */
int onnxslim__out_sync_dir(const osl_out *out);
void onnxslim__out_abort(osl_out *out);
/* Renames into place under `name` (in the same directory) only if no file
 * is there: 0, or 1 when one is (the output is still pending), or an error
 * code. */
int onnxslim__out_claim(osl_out *out, const char *name);
/* Identity of the output's file (open until the commit). */
int onnxslim__out_identity(const osl_out *out, uint64_t *dev, uint64_t *ino);
/* The commit lock of destination `name` in the directory dfd (".D.lock"
 * next to it, see io.c): waits for it; NULL only without memory. The lock
 * keeps its own copy of dfd. lock_path: the same for a path. unlock
 * releases it (NULL: no-op). */
typedef struct osl_lock osl_lock;
osl_lock *onnxslim__dest_lock(int dfd, const char *name);
osl_lock *onnxslim__dest_lock_path(const char *path);
void onnxslim__dest_unlock(osl_lock *lock);
/* Side files of a destination D in the directory dfd (io.c):
 * ".D.KIND-PID-TID-..." in the same directory, every one made relative to
 * dfd and never through a symlink. side_create makes
 * ".D.KIND-PID-TID-XXXXXX" (O_EXCL | O_NOFOLLOW, mode 0600), locked (flock)
 * by the returned descriptor (-1 on error, `dir` spells dfd in messages);
 * *sname (its name in dfd) is malloc'ed. side_link links `name` to
 * ".D.bak-PID-TID-N" (a free N) and returns that name (malloc'ed). */
int onnxslim__side_create(int dfd, const char *dir, const char *name, const char *kind,
                          char **sname);
char *onnxslim__side_link(int dfd, const char *dir, const char *name);
/* Calls fn(ctx, dfd, name) for each stale side file of KIND of one of the
 * destinations bases[] (file names in dfd): its owner thread is gone (or
 * is the calling thread) and nobody holds a lock on it. side_clean removes
 * them. fn returns 0 or an error code (which stops the walk). */
int onnxslim__side_stale(int dfd, const char *const *bases, size_t nbases, const char *kind,
                         int (*fn)(void *ctx, int dfd, const char *name), void *ctx);
void onnxslim__side_clean(int dfd, const char *const *bases, size_t nbases, const char *kind);
/* Atomically replaces `path` with `size` bytes produced by write_fn, after
 * removing the stale temporaries of earlier saves to it; the bytes written
 * go to `progress` (may be NULL). *copied (may be NULL) receives the bytes
 * the kernel copied (onnxslim__os_copy_range). */
int onnxslim__atomic_write_from(const char *path, uint64_t size, int fsync_data,
                                int (*write_fn)(osl_sink *sink, void *payload), void *payload,
                                osl_source src, osl_progress *progress, uint64_t *copied);
/* ONNXSLIM_ELIMIT unless a model file of `size` bytes fits protobuf's 2 GiB
 * limit or allow_large is set. */
int onnxslim__model_size_ok(const char *path, uint64_t size, int allow_large);

#endif /* ONNXSLIM_BASE_H */
