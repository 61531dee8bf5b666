# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Tensor.numpy(): zero-copy read-only views that keep the model open."""

import ctypes
import gc
import os
import subprocess
import sys
import unittest

import libonnxslim
from libonnxslim import _lib
from helpers import BERT

try:
    import numpy as np
    import onnx
    from onnx import TensorProto as T, helper, numpy_helper
except ImportError:  # Debian's python3-onnx (and numpy) are test dependencies
    onnx = None


def data_pointer(tensor):
    """The address onnxslim_tensor_data() gives for the tensor."""
    data = ctypes.c_void_p()
    size = ctypes.c_size_t()
    assert _lib.lib.onnxslim_tensor_data(tensor._ptr(), ctypes.byref(data),
                                         ctypes.byref(size)) == 0
    return data.value


def raw_tensor(name, dtype, dims, data):
    t = onnx.TensorProto(name=name, data_type=dtype, dims=dims)
    t.raw_data = data
    return t


def model_with(tensors):
    graph = helper.make_graph([], "g", [], [], initializer=tensors)
    return libonnxslim.load(helper.make_model(graph).SerializeToString())


@unittest.skipIf(onnx is None, "python3-onnx or numpy is not installed")
class TestViews(unittest.TestCase):
    def setUp(self):
        self.model = libonnxslim.load(BERT)
        self.addCleanup(self.model.close)
        self.tensor = max(self.model.graph.initializers, key=lambda t: t.size)

    def test_equals_onnx(self):
        ref = {t.name: numpy_helper.to_array(t) for t in onnx.load(BERT).graph.initializer}
        for t in self.model.graph.initializers:
            with self.subTest(name=t.name):
                view = t.numpy()
                self.assertEqual((view.dtype, view.shape), (ref[t.name].dtype, ref[t.name].shape))
                np.testing.assert_array_equal(view, ref[t.name])

    def test_zero_copy(self):
        view = self.tensor.numpy()
        self.assertEqual(view.__array_interface__["data"][0], data_pointer(self.tensor))
        self.assertTrue(np.shares_memory(view, self.tensor.numpy()))
        self.assertFalse(view.flags.owndata)

    def test_array_protocol_gives_the_view(self):
        # np.asarray(tensor) is the data (it was a 0-d object array holding
        # the Tensor before __array__), zero-copy and read-only as numpy()
        ref = {t.name: numpy_helper.to_array(t)
               for t in onnx.load(BERT).graph.initializer}[self.tensor.name]
        a = np.asarray(self.tensor)
        self.assertEqual((a.dtype, a.shape), (ref.dtype, self.tensor.shape))
        np.testing.assert_array_equal(a, ref)
        self.assertEqual(a.__array_interface__["data"][0], data_pointer(self.tensor))
        self.assertFalse(a.flags.writeable)
        # np.array copies: writable, not pinning the model
        b = np.array(self.tensor)
        self.assertTrue(b.flags.writeable)
        self.assertFalse(np.shares_memory(a, b))
        np.testing.assert_array_equal(a, b)
        # a dtype converts
        d = np.asarray(self.tensor, dtype=np.float64)
        self.assertEqual(d.dtype, np.float64)
        np.testing.assert_array_equal(d, ref.astype(np.float64))
        # numpy functions take tensors directly
        self.assertEqual(float(np.sum(self.tensor)), float(ref.sum()))
        del a
        self.model.close()  # only the asarray view pinned it
        self.assertTrue(self.model.closed)
        np.testing.assert_array_equal(b, ref)

    def test_buffer_error_says_what_to_do(self):
        view = np.asarray(self.tensor)
        with self.assertRaises(BufferError) as cm:
            self.model.close()
        msg = str(cm.exception)
        self.assertIn("np.array(", msg)
        self.assertIn("del", msg)
        self.assertIn("1 numpy view", msg)
        del view

    def test_read_only(self):
        view = self.tensor.numpy()
        self.assertFalse(view.flags.writeable)
        with self.assertRaises(ValueError):
            view[0, 0] = 1.0
        with self.assertRaises(ValueError):
            view.flags.writeable = True
        with self.assertRaises(ValueError):
            view[1:].flags.writeable = True

    def test_close_with_live_view_raises(self):
        view = self.tensor.numpy()[2:]  # a derived array pins the memory too
        with self.assertRaises(BufferError):
            self.model.close()
        self.assertFalse(self.model.closed)
        self.assertEqual(self.model.graph.name, "tiny_xlmr")  # still usable
        first = float(view[0, 0])
        del view
        self.model.close()
        self.assertTrue(self.model.closed)
        self.assertIsInstance(first, float)

    def test_view_keeps_model_alive(self):
        m = libonnxslim.load(BERT)
        fin = m._finalizer
        want = m.graph.initializers[0].tobytes()
        view = m.graph.initializers[0].numpy()
        del m
        gc.collect()
        self.assertTrue(fin.alive)
        self.assertEqual(view.tobytes(), want)
        del view
        gc.collect()
        self.assertFalse(fin.alive)

    def test_with_block_and_views(self):
        with self.assertRaises(BufferError):
            with libonnxslim.load(BERT) as m:
                view = m.graph.initializers[0].numpy()
        self.assertFalse(m.closed)
        del view
        m.close()
        # another exception on its way out is not masked by the view
        with self.assertRaises(KeyError):
            with libonnxslim.load(BERT) as m:
                view = m.graph.initializers[0].numpy()
                raise KeyError("x")
        del view


@unittest.skipIf(onnx is None, "python3-onnx or numpy is not installed")
class TestDtypes(unittest.TestCase):
    def test_types_numpy_lacks_give_their_bits(self):
        bf16 = np.array([0x3fc0, 0xc040], dtype="<u2")  # 1.5, -3.0
        with model_with([raw_tensor("bf16", T.BFLOAT16, [2], bf16.tobytes()),
                         raw_tensor("fp8", 17, [3], b"\x01\x7e\xff"),
                         raw_tensor("i4", 22, [3], b"\x21\x0f"),
                         raw_tensor("u4", 21, [2, 2], b"\x10\x32")]) as m:
            g = m.graph
            v = g.find_initializer("bf16").numpy()
            self.assertEqual((v.dtype, v.tolist()), (np.dtype("<u2"), [0x3fc0, 0xc040]))
            self.assertEqual((v.astype("<u4") << 16).view("<f4").tolist(), [1.5, -3.0])
            v = g.find_initializer("fp8").numpy()
            self.assertEqual((v.dtype, v.shape, v.tolist()), (np.dtype("u1"), (3,), [1, 126, 255]))
            v = g.find_initializer("i4").numpy()  # packed: flat bytes
            self.assertEqual((v.dtype, v.shape, v.tolist()), (np.dtype("u1"), (2,), [0x21, 0x0f]))
            self.assertEqual(g.find_initializer("i4").shape, (3,))
            self.assertEqual(g.find_initializer("u4").numpy().shape, (2,))
            del v

    def test_typed_storage_is_decoded_once(self):
        with model_with([helper.make_tensor("i", T.INT64, [2, 2], [1, -2, 3, 2 ** 60]),
                         helper.make_tensor("h", T.FLOAT16, [2], [1.5, -2.0]),
                         helper.make_tensor("b", T.BOOL, [2], [True, False])]) as m:
            i = m.graph.find_initializer("i")
            self.assertEqual(i.storage, "typed")
            a, b = i.numpy(), i.numpy()
            self.assertEqual(a.tolist(), [[1, -2], [3, 2 ** 60]])
            self.assertTrue(np.shares_memory(a, b))  # the model's cache, not a copy
            h = m.graph.find_initializer("h").numpy()
            self.assertEqual((h.dtype, h.tolist()), (np.dtype("<f2"), [1.5, -2.0]))
            self.assertEqual(m.graph.find_initializer("b").numpy().tolist(), [True, False])
            del a, b, h

    def test_scalar_empty_and_strings(self):
        with model_with([helper.make_tensor("s", T.INT32, [], [7]),
                         helper.make_tensor("e", T.FLOAT, [3, 0], []),
                         helper.make_tensor("str", T.STRING, [1, 2], [b"a", b"\x00"])]) as m:
            g = m.graph
            s = g.find_initializer("s").numpy()
            self.assertEqual((s.shape, int(s)), ((), 7))
            e = g.find_initializer("e").numpy()
            self.assertEqual((e.shape, e.dtype, e.flags.writeable), ((3, 0), np.float32, False))
            st = g.find_initializer("str").numpy()
            self.assertEqual((st.dtype, st.tolist()), (object, [[b"a", b"\x00"]]))
            self.assertFalse(st.flags.writeable)
            del s
        self.assertTrue(m.closed)  # empty and string arrays do not pin the model

    def test_array_protocol_strings_and_closed(self):
        with model_with([helper.make_tensor("str", T.STRING, [2], [b"a", b"bc"])]) as m:
            t = m.graph.initializers[0]
            self.assertEqual(np.asarray(t).tolist(), [b"a", b"bc"])
        self.assertRaises(libonnxslim.InvalidArgument, np.asarray, t)

    def test_unknown_dtype_raises(self):
        with model_with([raw_tensor("x", 99, [1], b"\x00")]) as m:
            t = m.graph.initializers[0]
            self.assertEqual(t.dtype, "UNKNOWN")
            self.assertEqual(t.elem_type, 99)
            self.assertRaises(libonnxslim.Unsupported, t.numpy)


class TestWithoutNumpy(unittest.TestCase):
    def test_import_error_names_numpy(self):
        code = ("import sys\n"
                "sys.modules['numpy'] = None\n"
                "import libonnxslim\n"
                "t = libonnxslim.load(sys.argv[1]).graph.initializers[0]\n"
                "assert len(t.tobytes()) == t.nbytes > 0\n"
                "try:\n"
                "    t.numpy()\n"
                "except ImportError as e:\n"
                "    print('ImportError:', e)\n")
        env = dict(os.environ)
        env["PYTHONPATH"] = os.path.dirname(os.path.dirname(os.path.abspath(libonnxslim.__file__)))
        out = subprocess.run([sys.executable, "-c", code, BERT], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, check=True)
        text = out.stdout.decode()
        self.assertIn("ImportError:", text)
        self.assertIn("needs numpy", text)
        self.assertIn("tobytes()", text)


if __name__ == "__main__":
    unittest.main()
