# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Model.infer_shapes() (onnxslim/infer.h) on bert-tiny: its value_info
removed, inference gives back what the exporter wrote."""

import unittest

import libonnxslim
from helpers import BERT


def _types(model):
    out = {}
    for vi in model.graph.value_info:
        t = vi.type
        out[vi.name] = (t.elem_type, t.shape)
    return out


class TestInferShapes(unittest.TestCase):
    def test_bert_reinferred(self):
        with libonnxslim.load(BERT) as orig, libonnxslim.load(BERT) as m:
            want = _types(orig)
            self.assertTrue(want)
            for name in want:
                m.graph.remove_value_info(name)
            dry = m.infer_shapes(write=False)
            self.assertEqual(len(m.graph.value_info), 0)  # a dry run writes nothing
            got = {v.name: v for v in dry}
            for name, (dtype, shape) in want.items():
                self.assertEqual(got[name].status, "new", name)
                self.assertEqual((got[name].dtype, got[name].shape), (dtype, shape), name)
            self.assertTrue(all(v.status != "conflict" for v in m.infer_shapes(strict=True)))
            written = _types(m)
            for name, t in want.items():
                self.assertEqual(written[name], t, name)

    def test_bad_flag(self):
        with libonnxslim.load(BERT) as m:
            with self.assertRaises(TypeError):
                m.infer_shapes(strict="yes")


if __name__ == "__main__":
    unittest.main()
