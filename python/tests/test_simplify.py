# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Model.simplify(): the passes, the report, its errors."""

import unittest

import libonnxslim
from helpers import BERT

try:
    import onnx
    import onnx.numpy_helper
    from onnx import TensorProto, helper
except ImportError:  # pragma: no cover - the Debian package is a build dependency
    onnx = None


def _model_bytes():
    """x -> Identity -> a; Relu(a) -> r1, Relu(x) -> r2 (the same once the Identity is
    gone); Add(r1, r2) -> y; a dead Neg."""
    nodes = [
        helper.make_node("Identity", ["x"], ["a"], name="id"),
        helper.make_node("Relu", ["a"], ["r1"], name="relu1"),
        helper.make_node("Relu", ["x"], ["r2"], name="relu2"),
        helper.make_node("Add", ["r1", "r2"], ["y"], name="add"),
        helper.make_node("Neg", ["x"], ["dead"], name="neg"),
    ]
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3])])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]).SerializeToString()


@unittest.skipIf(onnx is None, "needs onnx")
class TestSimplify(unittest.TestCase):
    def test_passes_and_report(self):
        m = libonnxslim.load(_model_bytes())
        r = m.simplify()
        self.assertIsInstance(r, libonnxslim.SimplifyReport)
        self.assertEqual((r.nodes_before, r.nodes_after), (5, 2))
        self.assertEqual([n.name for n in m.graph.nodes], ["relu1", "add"])
        self.assertEqual(list(m.graph.nodes[1].inputs), ["r1", "r1"])
        kinds = sorted((c.kind, c.name) for c in r.changes)
        self.assertEqual(kinds, [("merged_node", "relu2"), ("removed_node", "id"),
                                 ("removed_node", "neg")])
        self.assertEqual(r.steps[0].pass_name, "noop")
        self.assertEqual(r.iterations, 2)
        # the result is a valid model onnx reads back
        onnx.checker.check_model(onnx.load_from_string(m.save_bytes()))

    def test_one_pass(self):
        m = libonnxslim.load(_model_bytes())
        r = m.simplify(passes="dead")
        self.assertEqual([c.name for c in r.changes], ["neg"])
        self.assertEqual(len(m.graph.nodes), 4)

    def test_errors(self):
        m = libonnxslim.load(_model_bytes())
        with self.assertRaises(libonnxslim.InvalidArgument):
            m.simplify(passes="fuse")
        with self.assertRaises(ValueError):
            m.simplify(max_iterations=101)
        with self.assertRaises(TypeError):
            m.simplify(passes=[1])
        self.assertEqual(len(m.graph.nodes), 5)  # nothing changed

    def test_progress_raises(self):
        m = libonnxslim.load(_model_bytes())
        calls = []

        def stop(done, total):
            calls.append((done, total))
            if done >= 1:
                raise KeyboardInterrupt

        with self.assertRaises(KeyboardInterrupt):
            m.simplify(progress=stop)
        self.assertEqual(calls[0], (0, 400))
        self.assertEqual(len(m.graph.nodes), 4)  # the noop pass ran, nothing after

    def test_fold(self):
        """Shape -> Gather -> Unsqueeze -> Concat on a static input folds to an
        initializer; a cap of 16 bytes keeps the 24-byte Shape, so nothing folds."""
        nodes = [
            helper.make_node("Shape", ["x"], ["s"], name="shape"),
            helper.make_node("Gather", ["s", "zero"], ["b"], name="gather", axis=0),
            helper.make_node("Unsqueeze", ["b", "ax"], ["bu"], name="unsq"),
            helper.make_node("Concat", ["bu", "m1"], ["shape2"], name="concat", axis=0),
            helper.make_node("Reshape", ["x", "shape2"], ["y"], name="reshape"),
        ]
        inits = [helper.make_tensor("zero", TensorProto.INT64, [], [0]),
                 helper.make_tensor("ax", TensorProto.INT64, [1], [0]),
                 helper.make_tensor("m1", TensorProto.INT64, [1], [-1])]
        g = helper.make_graph(nodes, "g",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 4])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 12])],
                              inits)
        data = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
        data.ir_version = 8
        m = libonnxslim.load(data.SerializeToString())
        r = m.simplify(passes="fold,dead")
        self.assertEqual([n.name for n in m.graph.nodes], ["reshape"])
        folded = [(c.name, c.into) for c in r.changes if c.kind == "folded_node"]
        self.assertEqual(folded, [("shape", "s"), ("gather", "b"), ("unsq", "bu"),
                                  ("concat", "shape2")])
        back = onnx.load_from_string(m.save_bytes())
        onnx.checker.check_model(back)
        init = {t.name: onnx.numpy_helper.to_array(t).tolist() for t in back.graph.initializer}
        self.assertEqual(init, {"shape2": [2, -1]})
        capped = libonnxslim.load(data.SerializeToString())
        r = capped.simplify(passes="fold", fold_max_bytes=16)
        self.assertEqual([c.name for c in r.changes], [])
        self.assertEqual(len(capped.graph.nodes), 5)

    def test_bert(self):
        m = libonnxslim.load(BERT)
        r = m.simplify()
        self.assertLess(r.initializers_after, r.initializers_before)
        self.assertEqual(len(m.simplify().changes), 0)


if __name__ == "__main__":
    unittest.main()
