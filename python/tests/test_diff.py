# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Model.diff(): equal models, a changed weight, a node added, quantized
weights compared by their dequantized values, refusals."""

import math
import unittest

import numpy as np

import libonnxslim
from helpers import BERT

WEIGHT = "classifier.out_proj.weight"


class TestDiff(unittest.TestCase):
    def test_equal(self):
        with libonnxslim.load(BERT) as a, libonnxslim.load(BERT) as b:
            r = a.diff(b)
            self.assertEqual(list(r), [])
            self.assertTrue(r.equal)
            self.assertEqual(r.fingerprint_a, a.fingerprint())
            self.assertEqual(r.fingerprint_a, r.fingerprint_b)
            self.assertTrue(a.diff(b, storage=True).equal)

    def test_changed_weight(self):
        with libonnxslim.load(BERT) as a, libonnxslim.load(BERT) as b:
            t = b.graph.find_initializer(WEIGHT)
            v = t.numpy().copy()
            v.flat[2] += 0.25
            t.set_data(v)
            r = a.diff(b)
            self.assertEqual(len(r), 1)
            e = r[0]
            self.assertEqual((e.kind, e.what, e.name, e.graph), ("initializer", "contents", WEIGHT, ""))
            self.assertEqual(e.kind_code, libonnxslim.DIFF_KIND_INITIALIZER)
            self.assertEqual(e.what_code, libonnxslim.DIFF_CONTENTS)
            self.assertEqual((e.elements, e.differing, e.nan_mismatches), (v.size, 1, 0))
            self.assertAlmostEqual(e.max_abs_diff, 0.25, places=6)
            self.assertEqual(e.dequantized, libonnxslim.DIFF_DEQUANT_NONE)
            self.assertTrue(e.digest_a and e.digest_b and e.digest_a != e.digest_b)
            self.assertIsNone(e.a)
            self.assertTrue(str(e).startswith("initializer '%s': contents differ, max abs diff 0.25"
                                              % WEIGHT))
            self.assertNotEqual(r.fingerprint_a, r.fingerprint_b)

    def test_node_only_in_b(self):
        with libonnxslim.load(BERT) as a, libonnxslim.load(BERT) as b:
            n = len(b.graph.nodes)
            b.graph.add_node("Relu", ["logits"], ["extra_out"], name="extra")
            nodes = [e for e in a.diff(b) if e.kind == "node"]
            self.assertEqual(len(nodes), 1)
            e = nodes[0]
            self.assertEqual((e.what, e.a, e.b, e.index_a, e.index_b), ("presence", None, "Relu", None, n))
            self.assertIsNone(e.max_abs_diff)
            self.assertEqual(e.text, "node 'extra': only in B (Relu)")

    def test_quantized_compared_dequantized(self):
        """Each INT8 weight within half of its largest scale (numpy reads the
        scales), not its codes' distance (up to 127)."""
        with libonnxslim.load(BERT) as a, libonnxslim.load(BERT) as b:
            b.convert(to="int8")
            ents = [e for e in a.diff(b) if e.what == "dtype"]
            self.assertEqual(len(ents), 10)
            for e in ents:
                scale = np.abs(b.graph.find_initializer(e.name + "_scale").numpy().astype(np.float64))
                self.assertIn(e.dequantized, (libonnxslim.DIFF_DEQUANT_DEQUANTIZE_LINEAR,
                                              libonnxslim.DIFF_DEQUANT_CAST_MUL))
                self.assertFalse(math.isnan(e.max_abs_diff))
                self.assertGreater(e.max_abs_diff, 0)
                self.assertLessEqual(e.max_abs_diff, scale.max() / 2 * (1 + 1e-6))
                self.assertIn("(B dequantized as", e.text)

    def test_refusals(self):
        with libonnxslim.load(BERT) as a:
            with self.assertRaises(TypeError):
                a.diff("model.onnx")
            b = libonnxslim.load(BERT)
            b.close()
            with self.assertRaises(libonnxslim.InvalidArgument):
                a.diff(b)


if __name__ == "__main__":
    unittest.main()
