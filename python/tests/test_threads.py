# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Threads and the model's lock (docs/python.md, "Threads"): close() inside a
progress callback raises, close() from another thread while a reader runs
or while a copier copies from the model, copies between two models both
ways, threads sharing one model (the cases of threads_child.py, each in a child
interpreter, so a crash fails the case); and every public use of every kind
of object makes its C calls holding its model's lock."""

import os
import subprocess
import sys
import unittest

import libonnxslim
from helpers import BERT
from test_handles import objects_of, uses

HERE = os.path.dirname(os.path.abspath(__file__))
CHILD = os.path.join(HERE, "threads_child.py")


class TestThreads(unittest.TestCase):
    def run_case(self, case, iterations=200):
        proc = subprocess.run([sys.executable, "-X", "faulthandler", CHILD, case, str(iterations)],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=900)
        out = proc.stdout.decode(errors="replace")
        self.assertEqual(proc.returncode, 0,
                         "%s: exit %d\n%s" % (case, proc.returncode, out[-3000:]))
        self.assertIn("ok %s:" % case, out)
        self.assertNotIn("AddressSanitizer", out)

    def test_close_in_save_progress(self):
        self.run_case("close_in_save_progress")

    def test_close_in_convert_progress(self):
        self.run_case("close_in_convert_progress")

    def test_close_while_another_thread_reads(self):
        self.run_case("close_while_reading", 200)

    def test_close_the_source_of_a_copy(self):
        self.run_case("close_source_of_copy", 200)

    def test_copies_between_two_models_both_ways(self):
        self.run_case("copy_both_ways", 300)

    def test_threads_sharing_one_model(self):
        self.run_case("shared_readers", 200)

    def test_use_inside_progress_callback_raises(self):
        with libonnxslim.load(BERT) as m:
            seen = []

            def read(done, total):
                seen.append(done)
                m.graph.nodes  # noqa: B018 - must raise

            with self.assertRaises(RuntimeError) as cm:
                m.convert(to="fp16", progress=read)
            self.assertIn("progress callback", str(cm.exception))
            self.assertEqual(len(seen), 1)
            self.assertGreater(len(m.graph.nodes), 0)  # usable after the call


class LockNotHeld(Exception):
    pass


class TestEveryUseHoldsTheLock(unittest.TestCase):
    def test_every_use(self):
        """Model._ptr() (every C call on a model or a borrowed handle gets the
        handle through it) is only reached holding the model's lock."""
        model_ptr = libonnxslim.Model._ptr

        def checked_ptr(self):
            if not self._lock._is_owned():
                raise LockNotHeld("a C call on the model without its lock")
            return model_ptr(self)

        libonnxslim.Model._ptr = checked_ptr
        try:
            with libonnxslim.load(BERT) as m:
                count = 0
                for kind, obj in objects_of(m).items():
                    for label, use in uses(obj):
                        with self.subTest(kind=kind, use=label):
                            try:
                                use()
                            except LockNotHeld:
                                raise
                            except (libonnxslim.Error, ValueError, TypeError, LookupError):
                                pass  # arguments that do not fit this model
                            count += 1
                self.assertGreater(count, 50)
        finally:
            libonnxslim.Model._ptr = model_ptr


if __name__ == "__main__":
    unittest.main()
