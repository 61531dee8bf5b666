# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""The constants table equals the values in include/onnxslim/*.h."""

import glob
import os
import re
import unittest

import libonnxslim
from libonnxslim import _constants
from helpers import ROOT

_DEFINE = re.compile(r"^#define ONNXSLIM_(\w+)\s+\(?(-?(?:0x[0-9a-fA-F]+|\d+))u?\)?\s*(?:/\*.*)?$",
                     re.M)
# an enumerator, deprecated ones with their attribute between name and value
_ENUM = re.compile(r"^\s*ONNXSLIM_(\w+)\s*(?:ONNXSLIM_DEPRECATED_ENUMERATOR\(\s*\"[^\"]*\"\)\s*)?"
                   r"=\s*(-?\d+)\s*,?", re.M)


def header_constants():
    out = {}
    for path in sorted(glob.glob(os.path.join(ROOT, "include", "onnxslim", "*.h"))):
        with open(path) as f:
            text = f.read()
        for rx in (_DEFINE, _ENUM):
            for name, value in rx.findall(text):
                out[name] = int(value, 0)
    return out


class TestConstants(unittest.TestCase):
    def setUp(self):
        self.headers = header_constants()

    def test_parser_sees_the_headers(self):
        # guards against a regex that silently matches nothing
        self.assertEqual(self.headers["EPARSE"], -4)
        self.assertEqual(self.headers["DTYPE_BFLOAT16"], 16)
        self.assertEqual(self.headers["SAVE_KEEP_STORAGE"], 32)
        self.assertEqual(self.headers["CONVERT_FLUSH_SUBNORMALS"], 4)  # written 0x4u
        self.assertGreater(len(self.headers), 90)

    def test_every_entry_matches_the_header(self):
        for name, value in _constants.CONSTANTS.items():
            with self.subTest(name=name):
                self.assertIn(name, self.headers)
                self.assertEqual(value, self.headers[name])

    def test_families_are_complete(self):
        for name in self.headers:
            if name.startswith(_constants.FAMILIES) and not name.startswith("ERROR"):
                with self.subTest(name=name):
                    self.assertIn(name, _constants.CONSTANTS)

    def test_exported_by_the_package(self):
        for name, value in _constants.CONSTANTS.items():
            self.assertEqual(getattr(libonnxslim, name), value)

    def test_every_error_code_has_a_subclass(self):
        for name, value in _constants.CONSTANTS.items():
            if name.startswith("E"):
                err = libonnxslim._error(value)
                self.assertIsInstance(err, libonnxslim.Error)
                self.assertIsNot(type(err), libonnxslim.Error, name)
                self.assertEqual(err.code, value)

    def test_builtin_bases(self):
        # callers may catch the Python builtin exception these errors mean
        for code, base in (("EINVAL", ValueError), ("ENOTFOUND", LookupError),
                           ("ETYPE", TypeError)):
            err = libonnxslim._error(_constants.CONSTANTS[code])
            self.assertIsInstance(err, base, code)
            self.assertIsInstance(err, libonnxslim.Error, code)
        with self.assertRaises(LookupError):
            with libonnxslim.load(os.path.join(ROOT, "test", "data", "bert-tiny.onnx")) as m:
                m.remove_metadata("no such key")


if __name__ == "__main__":
    unittest.main()
