# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""The getter rule of include/onnxslim/common.h, over every getter of the C API.

A function that returns what it reads (not an int status) reports a failure
with its type's empty value and always sets the last error. Every such
function of _capi.FUNCTIONS whose first argument is a handle is called with
a NULL handle, and every (handle, index) getter with an index past the end;
each must leave an error code. Report getters ("Never fails") are left out.
"""

import ctypes
import unittest

from libonnxslim import _capi, _constants, _lib
from helpers import BERT

lib = _lib._cdll


def getters():
    """(name, restype, argtypes) of the getters: not int, first argument a handle."""
    for name, (restype, argtypes) in sorted(_capi.FUNCTIONS.items()):
        if restype in (ctypes.c_int, None) or not argtypes or argtypes[0] is not _capi.H:
            continue
        if "_report_" in name:
            continue  # report getters take NULL as "nothing" and never fail
        yield name, restype, argtypes


def null_args(argtypes):
    """NULL for the handle and every pointer, 0 for numbers, "x" for strings."""
    out = []
    for a in argtypes:
        if a is ctypes.c_char_p:
            out.append(b"x")
        elif a is _capi.H or a.__name__.startswith("LP_"):
            out.append(None)
        else:
            out.append(a(0))
    return out


class TestGetterRule(unittest.TestCase):
    def setUp(self):
        lib.onnxslim_error_clear.restype = None
        lib.onnxslim_error_last_code.restype = ctypes.c_int

    def call(self, name, restype, argtypes, args):
        fn = getattr(lib, name)
        fn.restype = restype
        fn.argtypes = argtypes
        lib.onnxslim_error_clear()
        value = fn(*args)
        return value, lib.onnxslim_error_last_code()

    def test_null_handle(self):
        seen = 0
        for name, restype, argtypes in getters():
            with self.subTest(name=name):
                value, code = self.call(name, restype, argtypes, null_args(argtypes))
                seen += 1
                self.assertNotEqual(code, 0, "%s(NULL) set no error" % name)
                self.assertIn(value, (None, 0, -1), "%s(NULL) gave %r" % (name, value))
        self.assertGreater(seen, 60)  # the sweep sees the getters

    def test_index_past_the_end(self):
        m = ctypes.c_void_p()
        open_ = lib.onnxslim_model_open
        open_.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_char_p, ctypes.c_void_p]
        open_.restype = ctypes.c_int
        self.assertEqual(open_(ctypes.byref(m), BERT.encode(), None), 0)
        try:
            f = _lib.lib
            g = f.onnxslim_model_graph(m)
            node = f.onnxslim_graph_node(g, 0)
            attr = None
            for i in range(f.onnxslim_graph_node_count(g)):
                n = f.onnxslim_graph_node(g, i)
                if f.onnxslim_node_attr_count(n):
                    attr = f.onnxslim_node_attr(n, 0)
                    break
            handles = {"model": m.value, "graph": g, "node": node, "attr": attr,
                       "tensor": f.onnxslim_graph_initializer(g, 0)}
            seen = 0
            for name, restype, argtypes in getters():
                if len(argtypes) != 2 or argtypes[1] is not ctypes.c_size_t:
                    continue
                obj = name[len("onnxslim_"):].split("_")[0]
                if obj not in handles or not handles[obj]:
                    continue
                with self.subTest(name=name):
                    value, code = self.call(name, restype, argtypes, [handles[obj], 10 ** 6])
                    seen += 1
                    self.assertIn(value, (None, -1), name)
                    self.assertIn(code, (_constants.CONSTANTS["ERANGE"], _constants.CONSTANTS["ETYPE"]),
                                  name)
            self.assertGreater(seen, 12)
        finally:
            free = lib.onnxslim_model_free
            free.argtypes = [ctypes.c_void_p]
            free.restype = None
            free(m)


if __name__ == "__main__":
    unittest.main()
