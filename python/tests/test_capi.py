# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""The ctypes declarations (_capi.py) equal the headers and the exported symbols."""

import ctypes
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from libonnxslim import _capi, _lib
from helpers import ROOT

sys.path.insert(0, os.path.join(ROOT, "scripts"))
_gen = __import__("gen-python-capi")


def exported_symbols():
    with open(os.path.join(ROOT, "abi", "onnxslim.symbols")) as f:
        return {line.split()[0] for line in f if line.strip() and not line.startswith("#")}


class TestCapi(unittest.TestCase):
    def test_generated_file_is_up_to_date(self):
        with open(_gen.OUT) as f:
            self.assertEqual(f.read(), _gen.render(),
                             "python/libonnxslim/_capi.py differs; run scripts/gen-python-capi.py")

    def test_every_exported_function_is_declared(self):
        self.assertEqual(set(_capi.FUNCTIONS), exported_symbols())

    def test_declarations_are_applied(self):
        for name, (restype, argtypes) in _capi.FUNCTIONS.items():
            with self.subTest(name=name):
                fn = getattr(_lib.lib, name)
                self.assertIs(fn.restype, restype)
                self.assertEqual(fn.argtypes, argtypes)

    def test_handles_are_pointer_sized(self):
        # the classic trap: a handle returned as a 32-bit int
        self.assertIs(_capi.FUNCTIONS["onnxslim_model_graph"][0], ctypes.c_void_p)
        self.assertIs(_capi.FUNCTIONS["onnxslim_graph_node"][0], ctypes.c_void_p)

    def test_mapping_refuses_unknown_types(self):
        with self.assertRaises(SystemExit):
            _gen.ctype("struct foo", {})

    @unittest.skipUnless(shutil.which("cc"), "no C compiler")
    def test_structure_layout_equals_the_compiler(self):
        structs = [(cls, getattr(_capi, cls)) for cls in dir(_capi)
                   if isinstance(getattr(_capi, cls), type) and
                   issubclass(getattr(_capi, cls), ctypes.Structure) and cls != "Structure"]
        self.assertGreaterEqual(len(structs), 4)
        lines = ["#include <stdio.h>", "#include <stddef.h>", "#include <onnxslim.h>",
                 "int main(void) {"]
        expect = []
        for cls, st in structs:
            typedef = "onnxslim_" + "".join("_" + c.lower() if c.isupper() else c
                                            for c in cls).lstrip("_")
            lines.append('printf("%%zu\\n", sizeof(%s));' % typedef)
            expect.append(ctypes.sizeof(st))
            for name, _ in st._fields_:
                lines.append('printf("%%zu\\n", offsetof(%s, %s));' % (typedef, name))
                expect.append(getattr(st, name).offset)
        lines.append("return 0; }")
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "layout.c")
            exe = os.path.join(tmp, "layout")
            with open(src, "w") as f:
                f.write("\n".join(lines))
            subprocess.run(["cc", "-I", os.path.join(ROOT, "include"), "-o", exe, src],
                           check=True)
            got = [int(x) for x in subprocess.run([exe], check=True, capture_output=True,
                                                  text=True).stdout.split()]
        self.assertEqual(got, expect)


if __name__ == "__main__":
    unittest.main()
