#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""The layers of lib/ call (and include) one way only.

    base (lib/base/, lib/opschema/)  <-  kernels (lib/kernels/)  <-  wire (lib/wire/)
        <-  handles (lib/handles/)  <-  passes (lib/passes/)

The kernels (the conversion loops, scalar and SIMD, and their dispatch) use
nothing but the base tier: they convert arrays of numbers and know nothing
of models.

A file may call functions and include headers of its own tier and of the
tiers below it, never of a tier above. The calls are read from the objects
(nm: every symbol an object leaves undefined that another object of the
library defines is a call), the includes from the sources. A folder of
lib/ this script does not know is an error: give it a tier here first.

usage: check_layers.py BUILD_DIR   (objects in BUILD_DIR/obj, as the Makefile puts them)
Prints one line per check and "N passed, N failed".
"""
import pathlib
import re
import subprocess
import sys
from checks import finish, report

TIERS = ["base", "kernels", "wire", "handles", "passes"]
# lib/opschema/ (operator schema tables and their lookup) calls nothing: base tier
# lib/diff/ (the model diff, a job built on the handles like the passes): passes tier
FOLDER_TIER = {"base": 0, "opschema": 0, "kernels": 1, "wire": 2, "handles": 3, "passes": 4, "diff": 4}
# headers that are not in lib/: the generated nanopb schema belongs to the wire tier
OTHER_HEADERS = {"onnx.pb.h": 2}

root = pathlib.Path(__file__).resolve().parent.parent
build = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "build")
if not build.is_absolute():
    build = root / build


def tier_of(rel):
    """Tier of a path relative to lib/ (or to BUILD/obj), or None."""
    folder = str(pathlib.PurePath(rel).parent)
    return FOLDER_TIER.get("" if folder == "." else folder)


# ---- calls, from the objects --------------------------------------------------
objdir = build / "obj"
# only objects of sources that exist: a file moved or removed since the last
# build leaves a stale object behind, which the library no longer links
objs = sorted(o for o in objdir.rglob("*.o")
              if (pathlib.Path("lib") / o.relative_to(objdir)).with_suffix(".c").exists())
defs, undefs, unknown = {}, {}, []
for o in objs:
    rel = o.relative_to(objdir)
    if tier_of(rel) is None:
        unknown.append(str(rel))
        continue
    out = subprocess.run(["nm", str(o)], capture_output=True, text=True, check=True).stdout
    undefs[rel] = set()
    for line in out.splitlines():
        f = line.split()
        if len(f) == 2 and f[0] == "U":
            undefs[rel].add(f[1])
        elif len(f) == 3 and f[1] in "TDBRVW":
            defs[f[2]] = rel
report(bool(objs), "objects of the library found in %s (%d)" % (objdir, len(objs)),
       "none: run make first")
report(not unknown, "every object is in a known tier folder (%s)" % ", ".join(
    "lib/%s" % (k + "/" if k else "*.c") for k in FOLDER_TIER),
    "unknown: %s (add the folder to test/check_layers.py)" % ", ".join(unknown))

up = []
for rel, syms in sorted(undefs.items()):
    for s in sorted(syms):
        d = defs.get(s)
        if d is None or d == rel:
            continue
        if tier_of(d) > tier_of(rel):
            up.append("%s (%s) calls %s of %s (%s)" % (rel.with_suffix(".c"), TIERS[tier_of(rel)], s,
                                                     d.with_suffix(".c"), TIERS[tier_of(d)]))
report(objs and not up, "no call from a lower tier to a higher one (%d objects)" % len(undefs),
       "\n  " + "\n  ".join(up))

# ---- includes, from the sources -------------------------------------------------
lib = root / "lib"
headers = {str(h.relative_to(lib)): h for h in lib.rglob("*.h")}
bad = []
n = 0
for src in sorted(list(lib.rglob("*.c")) + list(lib.rglob("*.h"))):
    rel = src.relative_to(lib)
    t = tier_of(rel)
    if t is None:
        bad.append("%s: unknown tier folder" % rel)
        continue
    for inc in re.findall(r'^\s*#\s*include\s+"([^"]+)"', src.read_text(), re.M):
        n += 1
        # resolved like the compiler: next to the source, then from lib/ (-Ilib)
        cand = str((rel.parent / inc)) if (src.parent / inc).exists() else inc
        if cand in headers:
            ht = tier_of(cand)
        elif inc in OTHER_HEADERS:
            ht = OTHER_HEADERS[inc]
        else:
            continue  # public headers (include/) are below every tier
        if ht is None:
            bad.append("%s includes %s: unknown tier folder" % (rel, inc))
        elif ht > t:
            bad.append("%s (%s) includes %s (%s)" % (rel, TIERS[t], cand, TIERS[ht]))
report(not bad, "no include of a higher tier's header (%d includes)" % n, "\n  " + "\n  ".join(bad))

# ---- the operating system, through lib/base/platform.h only ---------------------
# Only the implementations of the platform layer (lib/base/platform_*.c) include
# the system's own headers or call the system's file, memory and process
# functions; every other file calls onnxslim__os_* (docs/contributing.md).
PLATFORM_IMPL = re.compile(r"^base/platform_[a-z0-9]+\.c$")
OS_HEADER = re.compile(r'^\s*#\s*include\s*<((?:fcntl|unistd|dirent|windows|pthread)\.h|sys/[^>]+)>', re.M)
os_inc = []
for src in sorted(list(lib.rglob("*.c")) + list(lib.rglob("*.h"))):
    rel = str(src.relative_to(lib))
    if PLATFORM_IMPL.match(rel):
        continue
    os_inc += ["%s includes <%s>" % (rel, h) for h in OS_HEADER.findall(src.read_text())]
report(not os_inc, "no system header (<fcntl.h>, <unistd.h>, <dirent.h>, <windows.h>, <pthread.h>,"
       " <sys/*.h>)"
       " outside lib/base/platform_*.c", "\n  " + "\n  ".join(os_inc))

# the system's calls, from the objects (what a header may bring in unnoticed)
OS_CALLS = set("""open open64 openat openat64 creat close read write pread pread64 pwrite pwrite64
lseek lseek64 fstat fstat64 stat stat64 lstat lstat64 fstatat fstatat64 __fxstat __xstat
__fxstatat statx rename renameat renameat2 unlink unlinkat link linkat symlink symlinkat
readlink readlinkat chmod fchmod fchmodat mkdir mkdirat rmdir opendir fdopendir readdir readdir64
closedir rewinddir statvfs fstatvfs fstatvfs64 mmap mmap64 munmap madvise posix_madvise fsync
fdatasync flock fcntl fcntl64 dup dup2 dup3 ftruncate ftruncate64 getrlimit getrlimit64
realpath getpid getppid gettid syscall copy_file_range sync_file_range sysconf getrandom kill
geteuid getuid umask access faccessat CreateFileW CreateFileA MoveFileExW ReplaceFileW
LockFileEx CreateFileMappingW MapViewOfFile UnmapViewOfFile pthread_create pthread_join
pthread_mutex_init pthread_mutex_lock pthread_mutex_unlock pthread_cond_init pthread_cond_wait
pthread_cond_broadcast pthread_cond_signal CreateThread""".split())
os_calls = ["%s calls %s" % (rel.with_suffix(".c"), s)
            for rel, syms in sorted(undefs.items()) if not PLATFORM_IMPL.match(str(rel.with_suffix(".c")))
            for s in sorted(syms & OS_CALLS)]
report(objs and not os_calls, "no call of the system's file, memory, process or thread functions outside "
       "lib/base/platform_*.c (%d objects)" % len(undefs), "\n  " + "\n  ".join(os_calls))

finish()
