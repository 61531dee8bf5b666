#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""No two files of lib/ or of tools/ depend on each other, directly or in a
loop (the Python package has its own test: python/tests/test_imports.py).

A room is a source with its header (lib/passes/convert_quant.c and .h are
one room; a header without a source is a room of its own), except in the
module folders of lib/ (MODULES): a folder that is one module with one
header (lib/wire/ with wire.h) is one room, its files the module's
insides. lib/passes/ and lib/handles/ are tiers of separate modules, a file each. Room A depends
on room B when A includes B's header (#include "..." resolved as the
compiler does: beside A, then -Ilib) or when A's object calls a function or
uses a variable that B's object alone defines (nm). The strongly connected
components of that graph (Tarjan) must all be single rooms; each loop found
is printed with what ties it.

usage: check_cycles.py BUILD_DIR   (objects in BUILD_DIR/obj and BUILD_DIR/tools)
Prints one line per tree and "N passed, N failed".
"""
import pathlib
import re
import subprocess
import sys
from checks import finish, report

root = pathlib.Path(__file__).resolve().parent.parent
build = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "build")
if not build.is_absolute():
    build = root / build
MODULES = ["lib/base", "lib/opschema", "lib/kernels", "lib/wire", "lib/diff"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def room(path):
    """A file's room: its module folder, or its path without the extension,
    relative to the root."""
    rel = str(path.relative_to(root).with_suffix(""))
    for m in MODULES:
        if rel.startswith(m + "/"):
            return m
    return rel


def include_arrows(tree, search):
    """{room: {room: [why]}} from the quoted includes of tree's .c and .h files."""
    arrows = {}
    for f in sorted(tree.rglob("*.[ch]")):
        a = room(f)
        arrows.setdefault(a, {})
        for name in INCLUDE.findall(f.read_text(errors="replace")):
            for d in [f.parent] + search:
                target = (d / name).resolve()
                if target.exists() and tree in target.parents:
                    b = room(target)
                    if b != a:
                        arrows[a].setdefault(b, []).append("#include \"%s\"" % name)
                    break
    return arrows


def call_arrows(objs, src_of, arrows):
    """Adds the calls between the objects (nm) to arrows."""
    defs, undefs = {}, {}
    for o in objs:
        src = src_of(o)
        if not src.exists():  # a stale object of a file moved or removed since
            continue
        r = room(src)
        out = subprocess.run(["nm", str(o)], capture_output=True, text=True, check=True).stdout
        undefs.setdefault(r, set())
        for line in out.splitlines():
            f = line.split()
            if len(f) == 2 and f[0] == "U":
                undefs[r].add(f[1])
            elif len(f) == 3 and f[1] in "TDBRVWC":
                defs[f[2]] = r
    for a, syms in undefs.items():
        for s in sorted(syms):
            b = defs.get(s)
            if b and b != a:
                arrows.setdefault(a, {}).setdefault(b, []).append(s)
    return len(undefs)


def loops(arrows):
    """The strongly connected components of more than one room (iterative Tarjan)."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = 0
    for start in sorted(arrows):
        if start in index:
            continue
        work = [(start, iter(sorted(arrows.get(start, {}))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(arrows.get(w, {})))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def describe(comp, arrows):
    lines = []
    for a in comp:
        for b, why in sorted(arrows.get(a, {}).items()):
            if b in comp:
                lines.append("  %s -> %s: %s" % (a, b, ", ".join(sorted(set(why))[:6])))
    return "\n".join(lines)


lib, tools = root / "lib", root / "tools"
objdir = build / "obj"
trees = [
    ("lib/", lib, [lib], sorted(objdir.rglob("*.o")),
     lambda o: (lib / o.relative_to(objdir)).with_suffix(".c")),
    ("tools/", tools, [], sorted((build / "tools").glob("*.o")),
     lambda o: tools / (o.stem + ".c")),
]
for name, tree, search, objs, src_of in trees:
    arrows = include_arrows(tree, search)
    n = call_arrows(objs, src_of, arrows)
    found = loops(arrows)
    report(n > 0 and not found,
           "%s: no loop among its %d rooms (includes, and calls in %d objects)" % (name, len(arrows), n),
           "%s: %s" % (name, "objects not built: run make first" if n == 0 else
                       "%d loop(s):\n" % len(found) + "\n".join(describe(c, arrows) for c in found)))
finish()
