/* SPDX-FileCopyrightText: 2026 The libonnxslim authors */
/* SPDX-License-Identifier: MIT */
/*
 * libonnxslim - the platform layer: the operating-system calls that are not
 * the same on every system, behind one small interface. Never installed.
 *
 * One implementation per system: platform_posix.c serves Linux and every
 * other POSIX system, each Linux feature chosen by what the build found
 * (the HAVE_* of $(B)/config/onnxslim_config.h, written by
 * scripts/probe-platform.sh; `make PLATFORM=posix` forces every one of
 * them absent). A Windows implementation (platform_win32.c) provides the
 * same functions: nothing here names a POSIX type, descriptors are
 * osl_os_fd (an int on POSIX, a HANDLE-sized integer on Windows), offsets
 * and sizes are int64_t/uint64_t/size_t, modes and ids plain integers.
 *
 * Callers never test which system they run on: a feature that is missing
 * makes its function report so (-1 with errno ENOSYS, or 0 bytes), and the
 * caller takes the portable way it already has. docs/external-data.md
 * ("On each system") says how each promise holds without the feature.
 */
#ifndef ONNXSLIM_PLATFORM_H
#define ONNXSLIM_PLATFORM_H

#include <stddef.h>
#include <stdint.h>

/* A file or directory descriptor of the system: an int on POSIX; on
 * Windows a kernel HANDLE, which the system keeps within 32 bits (sign
 * extended) so that 32- and 64-bit processes can share them. -1: none. */
typedef int osl_os_fd;

/* ---- plain files ----------------------------------------------------------
 * The flags of the open functions below (and of open_beneath): one access
 * mode and any of the others. Every descriptor is close-on-exec. */
#define OSL_O_RDONLY 0x0
#define OSL_O_WRONLY 0x1
#define OSL_O_RDWR 0x2
#define OSL_O_ACCMODE 0x3
#define OSL_O_CREAT 0x10
#define OSL_O_EXCL 0x20
#define OSL_O_TRUNC 0x40
#define OSL_O_NOFOLLOW 0x80   /* the last component must not be a symlink */
#define OSL_O_DIRECTORY 0x100 /* it must be a directory */
#define OSL_O_NONBLOCK 0x200  /* a FIFO does not wait for a writer; no tty */
#define OSL_O_PATH                                       \
  0x400 /* a directory for lookups only where the system \
         * can (O_PATH), else opened for reading */

/* Opens path (relative: to the working directory) or name in directory
 * dfd, creating it with permission bits mode (OSL_O_CREAT). The
 * descriptor, or -1 with errno. */
osl_os_fd onnxslim__os_open(const char *path, int flags, unsigned int mode);
osl_os_fd onnxslim__os_openat(osl_os_fd dfd, const char *name, int flags, unsigned int mode);

/* A new descriptor of the same open file or directory, or -1 with errno. */
osl_os_fd onnxslim__os_dup(osl_os_fd fd);

/* Closes fd (-1: nothing). 0 or -1 with errno. */
int onnxslim__os_close(osl_os_fd fd);

/* One read or write: the bytes moved (0 at the end of a file), or -1 with
 * errno (EINTR: try again). pread reads at offset off, leaving the file's
 * offset alone. */
ptrdiff_t onnxslim__os_read(osl_os_fd fd, void *buf, size_t n);
ptrdiff_t onnxslim__os_pread(osl_os_fd fd, void *buf, size_t n, int64_t off);
ptrdiff_t onnxslim__os_write(osl_os_fd fd, const void *buf, size_t n);

/* Sets the permission bits of fd's file (0 or -1 with errno; where there
 * are no such bits, 0 and nothing done). */
int onnxslim__os_chmod(osl_os_fd fd, unsigned int mode);

/* What a file is. */
enum {
  OSL_KIND_OTHER,
  OSL_KIND_REG,
  OSL_KIND_DIR,
  OSL_KIND_FIFO,
  OSL_KIND_CHR,
  OSL_KIND_BLK,
  OSL_KIND_SOCK,
  OSL_KIND_LNK
};

/* What the system tells of a file: (dev, ino) identify it on this system
 * while it exists; perm: its permission bits (07777). */
typedef struct {
  uint64_t dev, ino;
  uint64_t size;
  unsigned int perm;
  int kind; /* OSL_KIND_* */
} osl_os_stat;

/* Of an open file; of a path (symlinks followed); of name in directory dfd
 * (nofollow: a symlink itself). 0 or -1 with errno. */
int onnxslim__os_fstat(osl_os_fd fd, osl_os_stat *st);
int onnxslim__os_stat(const char *path, osl_os_stat *st);
int onnxslim__os_statat(osl_os_fd dfd, const char *name, int nofollow, osl_os_stat *st);

/* ---- names in a directory ------------------------------------------------ */

/* Renames from to `to` in directory dfd, replacing `to` atomically. 0 or -1
 * with errno. */
int onnxslim__os_rename(osl_os_fd dfd, const char *from, const char *to);

/* Gives file `from` of directory dfd the second name `to` there (a hard
 * link; EEXIST when `to` exists). 0 or -1 with errno. */
int onnxslim__os_link(osl_os_fd dfd, const char *from, const char *to);

/* Removes the name `name` (not a directory) from directory dfd. 0 or -1. */
int onnxslim__os_unlink(osl_os_fd dfd, const char *name);

/* The names in directory dfd, "." and ".." included or not, one at a time:
 * dir_open lists dfd (borrowed: the listing has a descriptor of its own),
 * NULL with errno; dir_next the next name (valid until the next call), NULL
 * at the end; dir_close frees the listing (NULL: nothing). */
typedef struct osl_os_dir osl_os_dir;
osl_os_dir *onnxslim__os_dir_open(osl_os_fd dfd);
const char *onnxslim__os_dir_next(osl_os_dir *d);
void onnxslim__os_dir_close(osl_os_dir *d);

/* The absolute path of `path` without symlinks, "." or ".." (malloc'ed),
 * or NULL with errno. */
char *onnxslim__os_realpath(const char *path);

/* 1 when string s matches the shell pattern `pattern` (fnmatch with no
 * flags: '*', '?', bracket expressions, '\\' quoting), else 0. */
int onnxslim__os_fnmatch(const char *pattern, const char *s);

/* ---- limits --------------------------------------------------------------- */

/* The largest file this process may write (RLIMIT_FSIZE): 0 and *max, or
 * -1 when there is no limit or the system cannot tell. */
int onnxslim__os_file_size_limit(uint64_t *max);

/* The bytes this process may still write on the file system of fd: 0 and
 * *avail, or -1 when the system cannot tell. */
int onnxslim__os_space(osl_os_fd fd, uint64_t *avail);

/* ---- files beneath a directory ------------------------------------------ */

/* 1 when the path segment name[0..len) (not "." or "..") names an ordinary
 * file on this system, else 0 with *why (static text). POSIX: every name.
 * Windows: not a name with ':' (a drive or an alternate data stream), a
 * device name (CON, PRN, AUX, NUL, COM0-9, LPT0-9, in any case, also with
 * an extension: "nul.txt" is the device too), or a name ending in '.' or
 * ' ' (Windows strips those, opening another file than the name says). */
int onnxslim__os_name_ok(const char *name, size_t len, const char **why);

/* Opens rel beneath directory dirfd with flags OSL_O_* (not OSL_O_CREAT), never resolving above
 * dirfd nor through an absolute symlink, whatever is renamed meanwhile: openat2(RESOLVE_BENEATH |
 * RESOLVE_NO_MAGICLINKS) where the build and the kernel have it, else a
 * walk of the components with openat(O_NOFOLLOW), reading symlinks and
 * walking their targets in their place. The descriptor, or -1 with errno
 * (EXDEV: it would leave dirfd). */
osl_os_fd onnxslim__os_open_beneath(osl_os_fd dirfd, const char *rel, int flags);

/* Renames from to `to`, both in directory dfd, failing with EEXIST instead
 * of replacing a file: renameat2(RENAME_NOREPLACE) where there is one, else
 * linkat + unlinkat, else a check before the rename. 0 or -1 with errno. */
int onnxslim__os_rename_noreplace(osl_os_fd dfd, const char *from, const char *to);

/* The state of the kernel copies into one output file: how they are made
 * there (decided at the first copy) and, for splice, a pipe of 1 MiB. One
 * copier per output, used by one thread at a time; init before the first
 * copy, close (any number of times) when the output is done. */
typedef struct {
  int how;          /* 0: not decided yet; 1: splice through the pipe; 2: copy_file_range */
  osl_os_fd pipe_r; /* the pipe, -1: none */
  osl_os_fd pipe_w;
  size_t pipe_cap; /* its bytes */
} osl_os_copier;
void onnxslim__os_copier_init(osl_os_copier *c);
void onnxslim__os_copier_close(osl_os_copier *c);

/* Copies up to n bytes of file in at offset off to the current offset of
 * file out inside the kernel. On a local file system that cannot share
 * blocks between files (ext2/3/4, tmpfs) through a pipe of 1 MiB (splice:
 * the copy into the page cache then goes 1 MiB per call, where
 * copy_file_range's own pipe of 64 KiB makes small page-cache folios when
 * the bytes land at another offset within a page than they had in the
 * input: simplify of the 1.1 GB reranker took 0.47-0.53 s of system time
 * with it, 0.30-0.37 s with splice); elsewhere
 * copy_file_range (which may share blocks, or copy on a file server). The
 * bytes copied (>= 1), or 0 when nothing could be copied this way (no such
 * call, another file system, an error): the caller writes the bytes
 * itself. */
size_t onnxslim__os_copy_range(osl_os_copier *c, osl_os_fd in, int64_t off, osl_os_fd out,
                               size_t n);

/* Starts writing back bytes [off, off+len) of fd, without waiting
 * (sync_file_range); does nothing where there is no such call. */
void onnxslim__os_writeback_start(osl_os_fd fd, uint64_t off, uint64_t len);

/* The path the system says fd was opened as, into buf (NUL-terminated,
 * absolute). 0, or -1 when the system cannot tell (no /proc/self/fd, no
 * F_GETPATH) or it does not fit. */
int onnxslim__os_fd_path(osl_os_fd fd, char *buf, size_t cap);

/* ---- locks ---------------------------------------------------------------- */

/* Takes the exclusive lock of a whole open file (flock: held by the open
 * file, released when it is closed). wait: block until it is free (retried
 * on EINTR), else fail with EWOULDBLOCK at once. 0 or -1 with errno. */
int onnxslim__os_lock(osl_os_fd fd, int wait);

/* ---- processes, threads and randomness ---------------------------------- */

/* This process's id. */
long onnxslim__os_pid(void);

/* An id of the calling thread, unique in this process while it lives and
 * > 0: the kernel's thread id where there is one (gettid), else a number
 * the library gives each thread on first use. */
long onnxslim__os_tid(void);

/* 1 when the thread tid of process pid exists or may (it is not ours to
 * signal; where threads cannot be asked, when the process exists), else 0. */
int onnxslim__os_thread_alive(long pid, long tid);

/* Fills buf with n random bytes (getrandom, non-blocking). 0, or -1 when
 * the system has none at hand: the caller makes do with the clock. */
int onnxslim__os_random(void *buf, size_t n);

/* The CPU's capability words as the system gives them (Linux:
 * getauxval(AT_HWCAP) and AT_HWCAP2; the conversion kernels choose their
 * AArch64 paths from them). 1 when the system has them, else 0 and both 0. */
int onnxslim__os_hwcaps(unsigned long *hwcap, unsigned long *hwcap2);

/* A monotonic clock in nanoseconds. */
uint64_t onnxslim__os_clock_ns(void);

/* The process's file-creation mask, read without changing it
 * (/proc/self/status). 0 and *mask, or -1 when the system cannot tell. */
int onnxslim__os_umask(unsigned int *mask);

/* ---- memory -------------------------------------------------------------- */

/* The size of a page of memory. */
size_t onnxslim__os_page_size(void);

/* Maps len bytes of file fd read-only and private. The address, or NULL
 * with errno. */
void *onnxslim__os_map_read(osl_os_fd fd, size_t len);

/* Unmaps what onnxslim__os_map_read returned (NULL: nothing). */
void onnxslim__os_unmap(void *p, size_t len);

/* Hands the pages of [p, p+len) (page-aligned) of a read-only private
 * mapping back to the system: they are read again from the file if used. */
void onnxslim__os_drop_pages(void *p, size_t len);

/* bytes of heap memory aligned to align (a power of two, a multiple of
 * sizeof(void *)), released with free(); where the C library cannot align
 * memory that free() releases (Windows), only malloc's alignment. NULL
 * when there is no memory. */
void *onnxslim__os_alloc_aligned(size_t align, size_t bytes);

/* Offers transparent huge pages for [p, p+len) (2 MiB-aligned memory of the
 * heap); nothing where there are none. */
void onnxslim__os_advise_huge(void *p, size_t len);

/* ---- durability ---------------------------------------------------------- */

/* Writes fd's data and metadata to stable storage (fsync). 0 or -1. */
int onnxslim__os_sync(osl_os_fd fd);

/* ---- SHA-1 ------------------------------------------------------------------
 * The hash of the external-data checksum key: nettle's on POSIX, the
 * system's (BCrypt) on Windows. The state is the caller's (on its stack);
 * init starts it, update adds bytes, final writes the 20-byte digest and
 * releases what init took, and must follow every successful init (out
 * NULL: released, no digest). Each 0, or -1 when the system's hash failed
 * (the state is then released). */
#define OSL_SHA1_SIZE 20
typedef struct {
  uint64_t opaque[16]; /* nettle's sha1_ctx, or the BCrypt handles */
} osl_sha1;
int onnxslim__sha1_init(osl_sha1 *h);
int onnxslim__sha1_update(osl_sha1 *h, const void *p, size_t n);
int onnxslim__sha1_final(osl_sha1 *h, uint8_t *out);

/* ---- threads ----------------------------------------------------------------
 * The library's own helper threads (a conversion's second half, the save's
 * read-ahead): POSIX threads, or the system's threads, slim locks and
 * condition variables on Windows (no pthreads library needed there). */

/* A thread running fn(arg), or NULL when the system could not start one
 * (the caller then runs fn itself). join waits for it to end and frees
 * it, and must follow every successful start. */
typedef struct osl_os_thread osl_os_thread;
osl_os_thread *onnxslim__os_thread_start(void (*fn)(void *), void *arg);
void onnxslim__os_thread_join(osl_os_thread *t);

/* A mutex with one condition variable, or NULL (out of memory, or the
 * system refused). wait unlocks, sleeps until a wake_all (or spuriously)
 * and locks again: callers wait in a loop on their condition. free takes
 * NULL. */
typedef struct osl_os_monitor osl_os_monitor;
osl_os_monitor *onnxslim__os_monitor_new(void);
void onnxslim__os_monitor_free(osl_os_monitor *m);
void onnxslim__os_monitor_lock(osl_os_monitor *m);
void onnxslim__os_monitor_unlock(osl_os_monitor *m);
void onnxslim__os_monitor_wait(osl_os_monitor *m);
void onnxslim__os_monitor_wake_all(osl_os_monitor *m);

#endif
