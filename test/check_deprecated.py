#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""The deprecated names of the API (include/onnxslim/common.h, "Deprecation").

For every declaration marked ONNXSLIM_DEPRECATED("use NEW") (functions, and
C++ methods of include/onnxslim.hpp) or ONNXSLIM_DEPRECATED_ENUMERATOR("use
NEW") (enum constants) in the public headers:
  - NEW exists: a function or constant declared, not itself deprecated
    (for a C++ method: a method of that name in onnxslim.hpp);
  - docs/api.md's table of deprecated names has the row "OLD | NEW";
  - a "### Deprecated" list of CHANGELOG.md (Unreleased or a release) names OLD;
  - a C (C++) file that uses OLD fails to compile with
    -Werror=deprecated-declarations, the same file with NEW compiles, and
    with ONNXSLIM_NO_DEPRECATION_WARNINGS defined OLD compiles too; with
    CC (default cc) and, when installed, clang (g++ and clang++ for C++);
  - no file of lib/, tools/, examples/, python/, include/onnxslim.hpp or
    docs/ (but docs/api.md and the generated reference) uses OLD, and no
    C test but test/test_deprecated.c.
The exported deprecated functions staying in the ABI is step 40-abi's own
check of abi/onnxslim.symbols against nm. Prints ok/FAIL lines and
"N passed, N failed". Usage: check_deprecated.py [CC]
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

root = Path(__file__).resolve().parent.parent
cc = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("CC", "cc")
cxx = os.environ.get("CXX", "g++")
# GCC (cc) and, when installed, Clang: the attribute is spelt for both
ccs = [cc] + (["clang"] if shutil.which("clang") and cc != "clang" else [])
cxxs = [cxx] + (["clang++"] if shutil.which("clang++") and cxx != "clang++" else [])
passed = failed = 0


def report(ok, what, why=""):
    global passed, failed
    if ok:
        passed += 1
        print("ok   " + what)
    else:
        failed += 1
        print("FAIL " + what + (": " + why if why else ""))


def code_of(t):
    """The text without its comments (which may quote the macros)."""
    t = re.sub(r"/\*.*?\*/", " ", t, flags=re.S)
    return re.sub(r"//[^\n]*", " ", t)


headers = sorted((root / "include/onnxslim").glob("*.h"))
alltext = "\n".join(code_of(h.read_text()) for h in headers)
hpp = code_of((root / "include/onnxslim.hpp").read_text())

funcs = set(re.findall(r"ONNXSLIM_API\s+(?:ONNXSLIM_DEPRECATED\(\"[^\"]*\"\)\s*)?[^;(]*?\b(onnxslim_\w+)\s*\(",
                       alltext))
consts = set(re.findall(r"^\s*(ONNXSLIM_\w+)\s*(?:ONNXSLIM_DEPRECATED_ENUMERATOR\(\s*\"[^\"]*\"\)\s*)?=",
                        alltext, re.M))
consts |= set(re.findall(r"^#\s*define\s+(ONNXSLIM_\w+)", alltext, re.M))

# (old, new, kind): kind "func", "enum" or "cxx"
deprecated = []
for m in re.finditer(r"ONNXSLIM_API\s+ONNXSLIM_DEPRECATED\(\"use (\w+)\"\)\s*[^;(]*?\b(onnxslim_\w+)\s*\(",
                     alltext):
    deprecated.append((m.group(2), m.group(1), "func"))
for m in re.finditer(r"^\s*(ONNXSLIM_\w+)\s*ONNXSLIM_DEPRECATED_ENUMERATOR\(\s*\"use (\w+)\"\)", alltext,
                     re.M):
    deprecated.append((m.group(1), m.group(2), "enum"))
for m in re.finditer(r"ONNXSLIM_DEPRECATED\(\"use (\w+)\"\)\s*[\w:<> ]*?\b(\w+)\s*\(", hpp):
    deprecated.append((m.group(2), m.group(1), "cxx"))
# every ONNXSLIM_DEPRECATED use was understood (none with another message form)
uses = len(re.findall(r"\bONNXSLIM_DEPRECATED(?:_ENUMERATOR)?\(\s*\"", alltext + hpp))
report(uses == len(deprecated) and uses > 0,
       "every deprecation attribute says \"use NEW\" (%d)" % uses,
       "%d attributes, %d understood" % (uses, len(deprecated)))
old_names = {o for o, _, _ in deprecated}

api_md = (root / "docs/api.md").read_text()
table = set()
for line in api_md.splitlines():
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    if len(cells) >= 2 and cells[0].startswith("`") and cells[1].startswith("`"):
        o = re.sub(r"^onnxslim::\w+::", "", cells[0].split("`")[1])
        n = re.sub(r"^onnxslim::\w+::", "", cells[1].split("`")[1])
        table.add((o, n))
changelog = (root / "CHANGELOG.md").read_text()
# the "### Deprecated" lists of every section (Unreleased and the releases):
# a name is deprecated in the release that did it and stays so
dep_list = "".join(m.group(1) for m in re.finditer(r"^### Deprecated\n(.*?)(?=^##|\Z)", changelog, re.S | re.M))
report(bool(dep_list.strip()), "CHANGELOG.md has a Deprecated list")

for old, new, kind in deprecated:
    if kind == "func":
        exists = new in funcs and new not in old_names
    elif kind == "enum":
        exists = new in consts and new not in old_names
    else:
        exists = re.search(r"\b%s\s*\(" % re.escape(new), hpp) is not None and new not in old_names
    report(exists, "%s: its replacement %s exists" % (old, new))
    report((old, new) in table, "%s: docs/api.md lists it with %s" % (old, new))
    report(re.search(r"`(?:\w+::)?%s`" % re.escape(old), dep_list) is not None,
           "%s: CHANGELOG.md's Deprecated list names it" % old)

# ---- compiling a use -----------------------------------------------------------------
USE = {
    "onnxslim_attr_list_string": "const char *d; size_t n; return NAME(a, 0, &d, &n);",
    "onnxslim_model_file_find": "return NAME(m, \"x\", NULL);",
    "onnxslim_type_elem_type": "return (int)NAME(t);",
    "onnxslim_value_info_set_elem_type": "return NAME(v, 1);",
}


def c_use(old, name, kind):
    """A use of `name` (old or its replacement) the way `old` is used."""
    if kind == "enum":
        return "return (int)%s;" % name
    body = USE.get(old)
    if body is None:  # the onnxslim_attr_list_* that return a pointer
        body = "return NAME(a, 0) != NULL;"
    return body.replace("NAME", name)


def compiles(src, compiler, flags):
    with tempfile.TemporaryDirectory() as d:
        ext = ".cpp" if compiler in cxxs else ".c"
        f = Path(d) / ("use" + ext)
        f.write_text(src)
        r = subprocess.run([compiler] + flags + ["-I", str(root / "include"), "-c", str(f), "-o",
                                                  str(Path(d) / "use.o")],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        return r.returncode == 0, r.stdout.decode(errors="replace")


C_SRC = """%s#include <onnxslim.h>
int use(onnxslim_model *m, onnxslim_attr *a, onnxslim_type *t, onnxslim_value_info *v);
int use(onnxslim_model *m, onnxslim_attr *a, onnxslim_type *t, onnxslim_value_info *v) {
  (void)m; (void)a; (void)t; (void)v;
  %s
}
"""
CXX_SRC = """%s#include <onnxslim.hpp>
int use(onnxslim::Type t, onnxslim::ValueInfo v);
int use(onnxslim::Type t, onnxslim::ValueInfo v) {
  %s
}
"""
CXX_USE = {"elem_type": "return (int)t.NAME();", "set_elem_type": "v.NAME(1); return 0;"}
strict = ["-Wall", "-Wextra", "-Werror=deprecated-declarations"]
for old, new, kind in deprecated:
    if kind == "cxx":
        if old not in CXX_USE:
            report(False, "%s: a use to compile" % old, "add it to CXX_USE")
            continue
        body = CXX_USE[old]
        compilers, src, flags = cxxs, CXX_SRC, ["-std=c++17"] + strict
        old_src = src % ("", body.replace("NAME", old))
        new_src = src % ("", body.replace("NAME", new))
        quiet_src = src % ("#define ONNXSLIM_NO_DEPRECATION_WARNINGS\n", body.replace("NAME", old))
    else:
        compilers, src, flags = ccs, C_SRC, ["-std=c11"] + strict
        old_src = src % ("", c_use(old, old, kind))
        new_src = src % ("", c_use(old, new, kind))
        quiet_src = src % ("#define ONNXSLIM_NO_DEPRECATION_WARNINGS\n", c_use(old, old, kind))
    for compiler in compilers:
        ok_old, out_old = compiles(old_src, compiler, flags)
        last = out_old.strip().splitlines()[-1] if out_old.strip() else ""
        report(not ok_old and "deprecated" in out_old and new in out_old,
               "%s (%s): a use fails under -Werror=deprecated-declarations, naming %s"
               % (old, compiler, new), "it compiled" if ok_old else last)
        ok_new, out_new = compiles(new_src, compiler, flags)
        report(ok_new, "%s (%s): the same use compiles" % (new, compiler), out_new.strip()[-300:])
        ok_quiet, out_quiet = compiles(quiet_src, compiler, flags)
        report(ok_quiet, "%s (%s): compiles with ONNXSLIM_NO_DEPRECATION_WARNINGS" % (old, compiler),
               out_quiet.strip()[-300:])

# ---- the tree uses the new names -------------------------------------------------------
c_names = [o for o, _, k in deprecated if k != "cxx"]
word = re.compile(r"\b(%s)\b" % "|".join(map(re.escape, c_names))) if c_names else None
users = []
files = subprocess.run(["git", "ls-files"], cwd=root, stdout=subprocess.PIPE).stdout.decode().split()
for f in files:
    if not (f.startswith(("lib/", "tools/", "examples/", "python/", "docs/", "test/", "scripts/"))
            or f == "include/onnxslim.hpp" or f == "README.md"):
        continue
    if f in ("docs/api.md", "test/test_deprecated.c", "test/check_deprecated.py") or \
            f.startswith("docs/reference/") or f == "python/libonnxslim/_capi.py":
        continue
    p = root / f
    if not p.is_file() or p.suffix not in (".c", ".h", ".cpp", ".hpp", ".py", ".md", ".sh"):
        continue
    body = p.read_text(errors="replace")
    if f in ("lib/handles/node.c", "lib/handles/type.c", "lib/handles/model.c"):
        body = body.split("/* ---- deprecated names", 1)[0]  # the old entry points themselves
    hit = word.search(body) if word else None
    if hit:
        users.append("%s (%s)" % (f, hit.group(1)))
report(not users, "no file of the tree uses a deprecated name but the alias test",
       ", ".join(users[:10]))

print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
