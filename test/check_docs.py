#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""The guides say what the code does, where that can be checked mechanically.

- docs/building.md lists exactly the packages scripts/install-deps.sh
  installs, and its "Only the first N are needed to build" names the
  packages `install-deps.sh --check` requires;
- docs/building.md names every library the shared library needs at run time
  (readelf -d: NEEDED, libc and the dynamic loader aside);
- docs/design.md names every public struct (one with its fields in a public
  header) and gives their number right;
- docs/handles.md's "What you own" lists every *_free function of the API;
- README.md's "Measured" list quotes the headline of docs/benchmarks.md
  (both written by `make bench`).
Prints one line per check and "N passed, N failed"."""
import os
import re
import subprocess
import sys
from pathlib import Path
from checks import finish, report

root = Path(__file__).resolve().parent.parent
build = root / os.environ.get("B", "build")
WORDS = "zero one two three four five six seven eight nine ten eleven twelve".split()


def section(text, heading):
    """The text under a markdown heading, up to the next heading of any level."""
    m = re.search(r"^#+ " + re.escape(heading) + r"\s*$", text, re.M)
    if not m:
        return ""
    nxt = re.search(r"^#+ ", text[m.end():], re.M)
    return text[m.end(): m.end() + nxt.start()] if nxt else text[m.end():]


building = (root / "docs/building.md").read_text()
design = (root / "docs/design.md").read_text()
handles = (root / "docs/handles.md").read_text()
deps = (root / "scripts/install-deps.sh").read_text()

# ---- packages -----------------------------------------------------------------
req = section(building, "Requirements")
doc_pkgs = []
for line in req.splitlines():
    if line.startswith("| `"):
        doc_pkgs += re.findall(r"`([a-z0-9][a-z0-9.+-]*)`", line.split("|")[1])
m = re.search(r'^PKGS="([^"]*)"', deps, re.M)
script_pkgs = m.group(1).split() if m else []
# node and npm are installed only when missing from PATH, under these names
script_pkgs += re.findall(r'missing="\$missing (\w+)"\s*$', deps.split("\nfi\n", 1)[-1], re.M)
report(bool(doc_pkgs) and sorted(set(doc_pkgs)) == sorted(set(script_pkgs)),
       "docs/building.md lists the packages scripts/install-deps.sh installs",
       "only in the doc: %s; only in the script: %s"
       % (sorted(set(doc_pkgs) - set(script_pkgs)), sorted(set(script_pkgs) - set(doc_pkgs))))

check_block = deps.split('if [ "${1:-}" = "--check" ]; then', 1)[-1].split("\nfi\n", 1)[0]
build_pkgs = set(re.findall(r"^\s*need \S+ ([a-z0-9.+-]+)\s*$", check_block, re.M))
build_pkgs |= set(re.findall(r'\|\| missing="\$missing ([a-z0-9.+-]+)"', check_block))
build_pkgs |= set(re.findall(r"\|\| need \S+ ([a-z0-9.+-]+)", check_block))
m = re.search(r"Only the first (\w+) are needed to build", req)
n = WORDS.index(m.group(1)) if m and m.group(1) in WORDS else -1
first = set(doc_pkgs[:n]) if n > 0 else set()
report(bool(build_pkgs) and first == build_pkgs,
       "\"Only the first N are needed to build\" names what install-deps.sh --check requires",
       "doc: %s; --check: %s" % (sorted(first), sorted(build_pkgs)))

# ---- run-time dependencies of the shared library ----------------------------------------
so = build / "libonnxslim.so"
try:
    dyn = subprocess.run(["readelf", "-d", str(so)], capture_output=True, text=True, check=True).stdout
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", dyn)
except (OSError, subprocess.CalledProcessError) as e:
    needed = []
    report(False, "readelf -d %s" % so, str(e))
if needed:
    extra = [n for n in needed if not re.match(r"(libc\.so|ld-linux|libdl\.so|libpthread\.so)", n)]
    missing = [n for n in extra if n not in building]
    report(not missing, "docs/building.md names the libraries libonnxslim.so needs (%s)" % ", ".join(needed),
           "not mentioned: %s" % ", ".join(missing))
    report(not (extra and re.search(r"depends only on libc", building)),
           "docs/building.md does not claim the library depends only on libc")

# ---- public structs --------------------------------------------------------------
structs = set()
for h in sorted((root / "include").rglob("*.h")):
    structs |= set(re.findall(r"\bstruct\s+(onnxslim_\w+)\s*\{", h.read_text()))
report(all(s in design for s in structs), "docs/design.md names the %d public structs" % len(structs),
       "not named: %s" % sorted(s for s in structs if s not in design))
counts = re.findall(r"\b(\w+) public structs?\b", design)
said = [WORDS.index(c) if c in WORDS else (int(c) if c.isdigit() else None) for c in counts]
said = [c for c in said if c is not None]
report(bool(said) and all(c == len(structs) for c in said),
       "docs/design.md gives the number of public structs (%d)" % len(structs), "it says %s" % counts)

# ---- the cycle between the library's files -------------------------------------------
# Who calls whom, from the objects: an undefined libonnxslim* symbol of one
# object defined by another is an edge.
# (the objects of the sources there are now: lib/x.c -> obj/x.o, lib/passes/y.c -> obj/passes/y.o)
# (lib/base/platform_*.c: only the one of the target system is built)
objs = sorted(o for o in (build / "obj" / src.relative_to(root / "lib").with_suffix(".o")
                          for src in (root / "lib").rglob("*.c"))
              if o.exists() or not o.name.startswith("platform_"))
defs, uses = {}, {}
try:
    for o in objs:
        out = subprocess.run(["nm", str(o)], capture_output=True, text=True, check=True).stdout
        uses[o.stem] = set()
        for line in out.splitlines():
            f = line.split()
            if len(f) == 2 and f[0] == "U" and f[1].startswith("onnxslim"):
                uses[o.stem].add(f[1])
            elif len(f) == 3 and f[1] in "TDBR" and f[2].startswith("onnxslim"):
                defs[f[2]] = o.stem
except (OSError, subprocess.CalledProcessError) as e:
    objs = []
    report(False, "nm of the objects under %s/obj" % build, str(e))
if objs:
    edges = {a: {defs[s] for s in u if s in defs and defs[s] != a} for a, u in uses.items()}
    reach = {a: set(e) for a, e in edges.items()}
    changed = True
    while changed:
        changed = False
        for a in reach:
            more = set().union(*(reach[b] for b in reach[a])) - reach[a]
            if more:
                reach[a] |= more
                changed = True
    in_cycle = {a + ".c" for a in reach if a in reach[a]}
    m = re.search(r"The cycle runs through \w+ files:\s*(.*?)\.\n", design, re.S)
    said = set(re.findall(r"`([a-z_]+\.c)`", m.group(1))) if m else set()
    count = re.search(r"The cycle runs through (\w+) files", design)
    if count and count.group(1) in WORDS and WORDS.index(count.group(1)) != len(said):
        said.add("(a count of %s)" % count.group(1))
    report(in_cycle == said,
           "docs/design.md names the files on a call cycle in lib/ (%s)" % (", ".join(sorted(in_cycle)) or "none"),
           "it names %s" % (sorted(said) or "none"))

# ---- what you own -------------------------------------------------------------------
frees = set()
for h in sorted((root / "include").rglob("*.h")):
    frees |= set(re.findall(r"ONNXSLIM_API\s+void\s+(onnxslim_\w+_free)\s*\(", h.read_text()))
own = section(handles, "What you own")
report(bool(frees) and all(f in own for f in frees),
       "docs/handles.md \"What you own\" lists every *_free function (%d)" % len(frees),
       "missing: %s" % sorted(f for f in frees if f not in own))

# ---- the README quotes the benchmarks' headline ------------------------------------
readme = (root / "README.md").read_text()
quoted = re.search(r"<!-- bench-headline[^\n]*-->\n(.*?)<!-- /bench-headline -->", readme, re.S)
bench_md = root / "docs/benchmarks.md"
if bench_md.exists():
    head = section(bench_md.read_text(), "Headline").strip()
    report(quoted is not None and head != "" and quoted.group(1).strip() == head,
           "README.md's \"Measured\" list is the headline of docs/benchmarks.md",
           "README: %r; docs/benchmarks.md: %r" % (quoted.group(1).strip() if quoted else None, head))
else:
    report(quoted is not None and "make bench" in quoted.group(1),
           "README.md's \"Measured\" list says to run make bench (no docs/benchmarks.md yet)")

finish()
