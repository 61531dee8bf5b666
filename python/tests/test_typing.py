# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""The package is typed (PEP 561): py.typed, every function annotated, the
names type checkers see match the runtime ones, and typed_usage.py (which
step 44 type-checks with mypy --strict) runs and names every public name."""

import ast
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import libonnxslim
from libonnxslim import _constants, _errors
from helpers import BERT, ROOT

PKG = os.path.join(ROOT, "python", "libonnxslim")
USAGE = os.path.join(ROOT, "python", "tests", "typed_usage.py")


def parse(path):
    with open(path) as f:
        return ast.parse(f.read(), path)


class TestTyped(unittest.TestCase):
    def test_py_typed_marker(self):
        self.assertTrue(os.path.isfile(os.path.join(PKG, "py.typed")))

    def test_every_function_is_annotated(self):
        missing = []
        for name in sorted(os.listdir(PKG)):
            if not name.endswith(".py"):
                continue
            for node in ast.walk(parse(os.path.join(PKG, name))):
                if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    continue
                args = node.args.posonlyargs + node.args.args + node.args.kwonlyargs
                if args and args[0].arg in ("self", "cls"):
                    args = args[1:]
                args += [a for a in (node.args.vararg, node.args.kwarg) if a is not None]
                bare = [a.arg for a in args if a.annotation is None]
                if bare or node.returns is None:
                    missing.append("%s:%d %s (%s)" % (name, node.lineno, node.name,
                                                      ", ".join(bare) or "return"))
        self.assertEqual(missing, [])

    def test_constants_declared_for_type_checkers(self):
        # the `if _typing.TYPE_CHECKING:` block of _constants.py lists every
        # name of CONSTANTS (those globals().update() defines), in order
        tree = parse(os.path.join(PKG, "_constants.py"))
        blocks = [n for n in tree.body if isinstance(n, ast.If)
                  and ast.unparse(n.test).endswith("TYPE_CHECKING")]
        self.assertEqual(len(blocks), 1)
        declared = [s.target.id for s in blocks[0].body if isinstance(s, ast.AnnAssign)]
        self.assertEqual(declared, list(_constants.CONSTANTS))
        for name in declared:
            self.assertIsInstance(getattr(libonnxslim, name), int)

    def test_error_classes_listed_in_all(self):
        # __init__ writes the names out (type checkers read literal lists)
        names = [cls.__name__ for cls in _errors._ERRORS.values()]
        for n in names:
            self.assertIn(n, libonnxslim.__all__)
            self.assertIs(getattr(libonnxslim, n), getattr(_errors, n))
        self.assertEqual(len(libonnxslim.__all__), len(set(libonnxslim.__all__)))

    def test_typed_usage_names_every_public_name(self):
        used = {n.attr for n in ast.walk(parse(USAGE))
                if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
                and n.value.id == "lo"}
        self.assertEqual(sorted(set(libonnxslim.__all__) - used), [])

    def test_typed_usage_runs(self):
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        proc = subprocess.run([sys.executable, USAGE, BERT, tmp], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=300)
        self.assertEqual(proc.returncode, 0, proc.stderr.decode())
        self.assertEqual(proc.stdout.decode().split(), ["typed_usage:", "ok"])


if __name__ == "__main__":
    unittest.main()
