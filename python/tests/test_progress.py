# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""progress= of load(), Model.convert() and Model.save(): the calls the callable
gets (first (0, total), increasing, last (total, total)), and an exception raised
in it: the work stops, nothing changes, and that exception propagates."""

import os
import shutil
import tempfile
import unittest

import libonnxslim
from helpers import BERT

try:
    import numpy as np
except ImportError:  # python3-numpy is a test dependency
    np = None

MIB = 1 << 20
NBIG = 8


class Recorder:
    """A progress callable that records its calls and raises `exc` at call
    number `at` (1-based) or at the first call with done above `after`."""

    def __init__(self, exc=None, at=None, after=None):
        self.calls, self.exc, self.at, self.after = [], exc, at, after

    def __call__(self, done, total):
        self.calls.append((done, total))
        if self.exc is not None and (len(self.calls) == self.at or
                                     (self.after is not None and self.after < done < total)):
            raise self.exc


@unittest.skipIf(np is None, "numpy is not installed")
class TestProgress(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        cls.model = os.path.join(cls.tmp, "model.onnx")
        with libonnxslim.load(BERT) as m:
            for i in range(NBIG):
                m.graph.add_initializer("big%d" % i, np.linspace(-3, 3, 512 * 1024,
                                                                 dtype=np.float32))
            m.save(cls.model, no_fsync=True)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def path(self, name):
        return os.path.join(self.tmp, name)

    def assertCalls(self, calls, total, at_least=2, save=False):
        """The contract of a successful operation's calls: the first, at most
        one per MiB, a save's call before its commit, the last."""
        self.assertGreaterEqual(len(calls), at_least)
        self.assertEqual(calls[0], (0, total))
        self.assertEqual(calls[-1], (total, total))
        middle = [d for d, t in calls[1:-1]]
        self.assertEqual(middle, sorted(set(middle)))
        self.assertTrue(all(0 < d < total for d in middle))
        self.assertTrue(all(t == total for d, t in calls))
        self.assertLessEqual(len(calls), 2 + save + total // MIB)

    def test_load(self):
        rec = Recorder()
        with libonnxslim.load(self.model, progress=rec) as m:
            self.assertEqual(len(m.graph.initializers), len(libonnxslim.load(BERT).graph.initializers)
                             + NBIG)
        self.assertCalls(rec.calls, os.path.getsize(self.model), at_least=4)
        with open(self.model, "rb") as f:
            data = f.read()
        rec = Recorder()
        libonnxslim.load(data, progress=rec).close()
        self.assertCalls(rec.calls, len(data))

    def test_load_exception_propagates(self):
        for exc in (ValueError("stop"), KeyboardInterrupt()):
            with self.subTest(exc=type(exc).__name__):
                rec = Recorder(exc, at=2)
                with self.assertRaises(type(exc)) as cm:
                    libonnxslim.load(self.model, progress=rec)
                self.assertIs(cm.exception, exc)
                self.assertEqual(len(rec.calls), 2)  # not called again once raised

    def test_exception_in_last_call_is_not_lost(self):
        def last(done, total):
            if done == total:
                raise RuntimeError("after the work")
        with self.assertRaises(RuntimeError):
            libonnxslim.load(self.model, progress=last)
        with libonnxslim.load(self.model) as m:
            out = self.path("last.onnx")
            with self.assertRaises(RuntimeError):
                m.save(out, no_fsync=True, progress=last)
            self.assertTrue(os.path.exists(out))  # the save had completed

    def test_convert(self):
        with libonnxslim.load(self.model) as m:
            rec = Recorder()
            rep = m.convert(to="fp16", select=["big*"], policy="storage-only", progress=rec)
            self.assertEqual(len(rep), NBIG)
            self.assertCalls(rec.calls, NBIG * 2 * MIB, at_least=8)
        with libonnxslim.load(BERT) as m:
            rec = Recorder()
            m.convert(gather_to="bf16", progress=rec)  # the recipe's path, with progress
            self.assertEqual(rec.calls[-1][0], rec.calls[-1][1])
            # stats=False: the tensors are still read to find those whose values
            # do not fit FLOAT16 (kept in their type); with force=True nothing is read
            rec = Recorder()
            m.convert(to="fp16", stats=False, progress=rec)
            self.assertGreater(rec.calls[-1][1], 0)
            self.assertEqual(rec.calls[-1][0], rec.calls[-1][1])
        with libonnxslim.load(BERT) as m:
            rec = Recorder()
            m.convert(to="fp16", stats=False, force=True, progress=rec)
            self.assertEqual(rec.calls, [(0, 0)])

    def test_convert_exception_leaves_model_unchanged(self):
        with libonnxslim.load(self.model) as m:
            before = m.save_bytes()
            rec = Recorder(KeyError("stop"), after=5 * MIB)
            with self.assertRaises(KeyError):
                m.convert(to="fp16", select=["big*"], progress=rec)
            self.assertEqual(m.save_bytes(), before)
            self.assertEqual(m.graph.find_initializer("big0").dtype, "FLOAT")

    def test_save(self):
        with libonnxslim.load(self.model) as m:
            out = self.path("s.onnx")
            rec = Recorder()
            rep = m.save(out, external_data="one_file", location="s.bin", no_fsync=True,
                         progress=rec)
            self.assertCalls(rec.calls, os.path.getsize(out) + os.path.getsize(self.path("s.bin")),
                             at_least=6, save=True)
            self.assertGreaterEqual(len(rep.entries), NBIG)
            rec = Recorder()
            m.merge(self.path("merged.onnx"), no_fsync=True, progress=rec)
            self.assertCalls(rec.calls, os.path.getsize(self.path("merged.onnx")), save=True)

    def test_save_exception_leaves_files(self):
        d = self.path("keep")
        os.mkdir(d)
        out = os.path.join(d, "m.onnx")
        with open(out, "wb") as f:
            f.write(b"old")
        with libonnxslim.load(self.model) as m:
            for layout in (None, "one_file", "per_tensor"):
                with self.subTest(layout=layout):
                    rec = Recorder(OSError("stop"), after=3 * MIB)
                    with self.assertRaises(OSError):
                        m.save(out, external_data=layout, threshold=0, no_fsync=True,
                               progress=rec)
                    with open(out, "rb") as f:
                        self.assertEqual(f.read(), b"old")
                    self.assertEqual(os.listdir(d), ["m.onnx"])

    def test_not_callable(self):
        with self.assertRaises(TypeError):
            libonnxslim.load(self.model, progress=42)

    def test_canceled_error(self):
        self.assertTrue(issubclass(libonnxslim.Canceled, libonnxslim.Error))
        self.assertEqual(libonnxslim.ECANCELED, -13)
        self.assertIs(libonnxslim._ERRORS[libonnxslim.ECANCELED], libonnxslim.Canceled)


if __name__ == "__main__":
    unittest.main()
