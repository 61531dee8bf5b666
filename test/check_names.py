# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Fails on any user-facing name of the old scheme left in the tree.

Since 0.2.0 everything a user types or installs beside other ONNX tools is
named after the library (PyPI's OnnxSlim owns `onnxslim`): the command
`libonnxslim`, the Python package `libonnxslim`, the pkg-config module
`libonnxslim`, the CMake package `libonnxslim` with the targets
`libonnxslim::libonnxslim` and `libonnxslim::libonnxslim_static`, and the
environment variables `LIBONNXSLIM_*`, the bash completion's functions
`_libonnxslim*`. The C names stay: the prefix
`onnxslim_`, macros `ONNXSLIM_*`, `<onnxslim.h>`, `<onnxslim/*.h>`,
`onnxslim.hpp` and its namespace `onnxslim::`, `lib/onnxslim.map`,
`abi/onnxslim.symbols`, `libonnxslim.so.0`, `-lonnxslim`.

A word `onnxslim` standing alone is an old name unless it is one of those C
names. The only place old names may appear is the CHANGELOG's table of the
renames, between the lines `<!-- names: old -> new -->` and
`<!-- /names -->`, this checker and its step, lines that speak of the other project (they
name `OnnxSlim` or `PyPI`), and files about the other project, which say so
in a line `names: about PyPI's OnnxSlim`.

    check_names.py [ROOT]        files: `git ls-files`, else every file
    check_names.py --self-test   the rules against known good and bad lines
"""
import os
import re
import subprocess
import sys

WORD = re.compile(r"(?<![A-Za-z0-9_])onnxslim(?![A-Za-z0-9_])")
# the bash completion's functions, global names in the user's shell
SHELLFN = re.compile(r"(?<![A-Za-z0-9_])_onnxslim(?:_options|_files)?(?![A-Za-z0-9_])")
ENV = re.compile(r"(?:(?<![A-Za-z0-9_])|(?<=-D))ONNXSLIM_(KERNELS|LIBRARY|CLI|REQUIRE_ORT|REQUEST|SOURCE_DIR)(?![A-Za-z0-9_])")


def is_c_name(pre, post):
    """True when the bare word at this place is one of the C names that stay."""
    return bool(
        (post.startswith("::") and not re.match(r"::onnxslim(_static)?(?![A-Za-z0-9_])", post))
        or re.match(r"\.(h|hpp|map|symbols)(?![A-Za-z0-9_])", post)
        or re.match(r"/[A-Za-z_*]+\.h", post)
        or re.match(r"/(%s|\"|\*|,)", post)
        or re.search(r"(include|INCLUDEDIR\)|INCLUDEDIR\}|INCLUDE_DIR)/$", pre)
        or pre.endswith('"include", "')
        or re.search(r"find_library\([\"']$", pre)
        or pre.endswith('startswith("')
        or pre.endswith("namespace ")
        or pre.endswith("pypi-")
        or pre.endswith("::")
        or re.match(r"-(all|journal)", post))


def old_names(line):
    """The old names in one line: a list of (column, text)."""
    found = []
    for m in WORD.finditer(line):
        pre, post = line[max(0, m.start() - 40):m.start()], line[m.end():m.end() + 40]
        if not is_c_name(pre, post):
            found.append((m.start(), line[m.start():m.end() + 20].split()[0] if line[m.start():].strip() else "onnxslim"))
    for m in ENV.finditer(line):
        found.append((m.start(), m.group(0)))
    for m in SHELLFN.finditer(line):
        found.append((m.start(), m.group(0)))
    return found


def tracked(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard"], capture_output=True, check=True)
        return [p for p in out.stdout.decode().split("\0") if p]
    except (OSError, subprocess.CalledProcessError):
        b = os.environ.get("B", "build")
        files = []
        for d, dirs, names in os.walk(root):
            dirs[:] = [x for x in dirs if os.path.relpath(os.path.join(d, x), root) not in (b, ".git")
                       and x not in ("node_modules", "__pycache__")]
            files += [os.path.relpath(os.path.join(d, n), root) for n in names]
        return sorted(files)


def self_test():
    bad = ["$ onnxslim convert a.onnx b.onnx", "import onnxslim", "m = onnxslim.load(p)",
           "pkg-config --libs onnxslim", "find_package(onnxslim 0.2)", "onnxslim::onnxslim",
           "onnxslim::onnxslim_static", "LD_LIBRARY_PATH=x ONNXSLIM_LIBRARY=y", "build/onnxslim info m",
           "man/onnxslim.1", "python/onnxslim/_lib.py", '"onnxslim.info/1"', "ONNXSLIM_KERNELS=avx2", "cmake -DONNXSLIM_REQUEST=0.1",
           "complete -F _onnxslim libonnxslim", "_onnxslim_files() {"]
    good = ["#include <onnxslim.h>", "#include <onnxslim/model.h>", "onnxslim_model_open(&m)",
            "ONNXSLIM_EINVAL", "onnxslim::Model::open(p)", "namespace onnxslim {", "libonnxslim convert a b",
            "import libonnxslim", "-lonnxslim", "lib/onnxslim.map", "include/onnxslim/", "onnxslim.hpp",
            "libonnxslim::libonnxslim", "LIBONNXSLIM_LIBRARY", 'find_library("onnxslim")',
            "$(DESTDIR)$(INCLUDEDIR)/onnxslim $(X)", "$(addprefix onnxslim/,$(PUBLIC_H))", "OnnxSlim (PyPI)",
            "complete -F _libonnxslim libonnxslim", "def fp16_onnxslim(src, dst):", "onnxslim__err_nomem(what)"]
    n = 0
    for line in bad:
        if not old_names(line):
            print("FAIL self-test: not caught: %r" % line)
            n += 1
    for line in good:
        if old_names(line):
            print("FAIL self-test: caught wrongly: %r -> %r" % (line, old_names(line)))
            n += 1
    print("%s self-test: %d bad lines caught, %d good lines passed" % ("ok  " if not n else "FAIL", len(bad), len(good)))
    return n


def main():
    if sys.argv[1:] == ["--self-test"]:
        return 1 if self_test() else 0
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    failures = self_test()
    hits = 0
    for path in tracked(root):
        full = os.path.join(root, path)
        if not os.path.isfile(full) or os.path.islink(full):
            continue
        with open(full, "rb") as f:
            data = f.read()
        if b"\0" in data[:4096]:
            continue  # binary (test models)
        text = data.decode("utf-8", "replace")
        in_map = False
        if "names: about PyPI's OnnxSlim" in text:
            continue
        if path in ("test/check_names.py", "test/steps/02-names.sh"):
            continue
        for no, line in enumerate(text.splitlines(), 1):
            if path == "CHANGELOG.md" and line.strip() == "<!-- names: old -> new -->":
                in_map = True
            elif path == "CHANGELOG.md" and line.strip() == "<!-- /names -->":
                in_map = False
            if in_map or "OnnxSlim" in line or "PyPI" in line:
                continue
            for col, what in old_names(line):
                print("FAIL %s:%d:%d: old name %r: %s" % (path, no, col + 1, what, line.strip()[:100]))
                hits += 1
    # a renamed path: none of the old file names may exist
    for old in ("python/onnxslim", "man/onnxslim.1", "completion/onnxslim.bash", "pkgconfig/onnxslim.pc.in",
                "cmake/onnxslimConfig.cmake.in"):
        if os.path.exists(os.path.join(root, old)):
            print("FAIL %s exists (renamed to the libonnxslim name)" % old)
            hits += 1
    print("%s %d old user-facing names outside the CHANGELOG's table" % ("ok  " if not hits else "FAIL", hits))
    passed = (failures == 0) + (hits == 0)
    print("%d passed, %d failed" % (passed, 2 - passed))
    return 0 if passed == 2 else 1


if __name__ == "__main__":
    sys.exit(main())
