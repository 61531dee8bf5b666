# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""No import cycle among the modules of python/libonnxslim.

Each module's imports of the package's own modules are read with ast,
at the top level and inside functions and classes alike (an import inside
a function is still a dependency; it only hides a cycle until the call).
Imports under ``if TYPE_CHECKING:`` are left out: they never run, they
only name types for the type checker. The strongly connected components
of that graph (Tarjan) must all be single modules without a self-import;
and the package's modules are imported at the top level only (the one
exception: the optional ``_installed`` that make install writes).

Run as a script it prints the graph and the cycles it finds.
"""

import ast
import os
import sys
import unittest

PKG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "libonnxslim")
#: optional modules that need not exist (written by make install)
OPTIONAL = {"_installed"}


def _is_type_checking(test):
    return isinstance(test, (ast.Name, ast.Attribute)) and \
        (getattr(test, "id", None) or getattr(test, "attr", None)) == "TYPE_CHECKING"


def imports(path, modules):
    """[(module imported, line, top_level)] of the package's modules in `path`."""
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    found = []

    def visit(node, top):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child.test):
                for sub in child.orelse:
                    visit_one(sub, top)
                continue
            visit_one(child, top)

    def visit_one(child, top):
        if isinstance(child, ast.ImportFrom) and child.level == 1:
            if child.module:  # from ._x import y
                found.append((child.module.split(".")[0], child.lineno, top))
            else:  # from . import _x, _y
                for alias in child.names:
                    if alias.name in modules or alias.name in OPTIONAL:
                        found.append((alias.name, child.lineno, top))
        elif isinstance(child, ast.ImportFrom) and child.module and \
                child.module.split(".")[0] == "libonnxslim" and child.level == 0:
            rest = child.module.split(".")[1:]
            if rest:
                found.append((rest[0], child.lineno, top))
        elif isinstance(child, ast.Import):
            for alias in child.names:
                parts = alias.name.split(".")
                if parts[0] == "libonnxslim" and len(parts) > 1:
                    found.append((parts[1], child.lineno, top))
        inner = top and not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef,
                                               ast.Lambda, ast.ClassDef))
        # a class body runs at import: its imports count as top level
        if isinstance(child, ast.ClassDef):
            inner = top
        visit(child, inner)

    visit(tree, True)
    return found


def graph():
    """module -> {module: [(line, top_level)]} for the package's modules."""
    names = sorted(n[:-3] for n in os.listdir(PKG) if n.endswith(".py"))
    modules = set(names)
    out = {}
    for name in names:
        edges = {}
        for target, line, top in imports(os.path.join(PKG, name + ".py"), modules):
            edges.setdefault(target, []).append((line, top))
        out[name] = edges
    return out


def cycles(g):
    """The strongly connected components with more than one module, or one
    module that imports itself (Tarjan's algorithm), each sorted."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in g.get(v, {}):
            if w not in g:
                continue
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1 or v in g.get(v, {}):
                out.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            strong(v)
    return out


class TestImports(unittest.TestCase):
    def test_finder_finds_a_cycle(self):
        # the finder itself: a -> b -> c -> a and d -> d are cycles, e is not
        g = {"a": {"b": []}, "b": {"c": []}, "c": {"a": [], "e": []}, "d": {"d": []}, "e": {}}
        self.assertEqual(sorted(cycles(g)), [["a", "b", "c"], ["d"]])

    def test_finder_sees_imports_inside_functions(self):
        import tempfile
        with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
            f.write("from typing import TYPE_CHECKING\nfrom . import _a\n"
                    "if TYPE_CHECKING:\n    from ._b import B\n"
                    "def f():\n    from ._c import x\n    return x\n"
                    "class K:\n    from . import _d\n")
        self.addCleanup(os.remove, f.name)
        self.assertEqual(imports(f.name, {"_a", "_b", "_c", "_d"}),
                         [("_a", 2, True), ("_c", 6, False), ("_d", 9, True)])

    def test_no_cycles(self):
        g = graph()
        self.assertGreater(len(g), 10)
        self.assertEqual(cycles(g), [])

    def test_package_modules_imported_at_top_level(self):
        inner = ["%s.py:%d imports %s inside a function" % (m, line, t)
                 for m, edges in graph().items() for t, uses in edges.items()
                 for line, top in uses if not top and t not in OPTIONAL]
        self.assertEqual(inner, [])


if __name__ == "__main__":
    g = graph()
    for m in sorted(g):
        print("%s -> %s" % (m, ", ".join(sorted(g[m])) or "-"))
    found = cycles(g)
    for c in found:
        print("cycle:", " ".join(c))
    print("%d cycles" % len(found))
    sys.exit(1 if found else 0)
