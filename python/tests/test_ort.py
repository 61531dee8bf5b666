# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Models edited from Python run in onnxruntime-node with the expected outputs.

python/tests/ort_run.js runs a model in onnxruntime-node ($ORT_NODE_MODULES,
set up by test/steps/47-python.sh through test/ort-setup.sh). Without node or
onnxruntime-node the tests are skipped, unless LIBONNXSLIM_REQUIRE_ORT=1 (the
step sets it when node is installed): then they fail.
"""

import json
import os
import shutil
import subprocess
import tempfile
import unittest

import libonnxslim
from helpers import BERT

try:
    import numpy as np
    import onnx
except ImportError:  # python3-onnx and python3-numpy are test dependencies
    onnx = None

HERE = os.path.dirname(os.path.abspath(__file__))
TABLES = ["roberta.embeddings.word_embeddings.weight",
          "roberta.embeddings.position_embeddings.weight"]


def _ort_problem():
    """Why onnxruntime-node cannot run here, or None."""
    if shutil.which("node") is None:
        return "node is not installed"
    probe = subprocess.run(["node", "-e", "require(process.env.ORT_NODE_MODULES ? "
                            "require('path').resolve(process.env.ORT_NODE_MODULES, "
                            "'onnxruntime-node') : 'onnxruntime-node')"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if probe.returncode != 0:
        return "onnxruntime-node cannot be loaded (ORT_NODE_MODULES=%s)" % \
            os.environ.get("ORT_NODE_MODULES")
    return None


class OrtCase(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if onnx is None:
            raise unittest.SkipTest("python3-onnx and numpy are not installed")
        problem = _ort_problem()
        if problem:
            if os.environ.get("LIBONNXSLIM_REQUIRE_ORT") == "1":
                raise AssertionError("LIBONNXSLIM_REQUIRE_ORT=1 but " + problem)
            raise unittest.SkipTest(problem)

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)

    def run_ort(self, model_path, feeds):
        """The outputs of model_path for feeds (name -> numpy array), name -> numpy array."""
        specs = {}
        for name, arr in feeds.items():
            data = [str(v) for v in arr.ravel().tolist()] if arr.dtype == np.int64 else \
                arr.ravel().tolist()
            specs[name] = {"type": str(arr.dtype), "dims": list(arr.shape), "data": data}
        inputs = os.path.join(self.tmp, "inputs.json")
        with open(inputs, "w") as f:
            json.dump(specs, f)
        proc = subprocess.run(["node", os.path.join(HERE, "ort_run.js"), model_path, inputs],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
        self.assertEqual(proc.returncode, 0, proc.stderr.decode()[-2000:])
        out = {}
        for name, spec in json.loads(proc.stdout).items():
            out[name] = np.array([float(v) for v in spec["data"]],
                                 dtype=spec["type"]).reshape(spec["dims"])
        return out

    def bert_feeds(self):
        rng = np.random.default_rng(3)
        ids = rng.integers(0, 100, size=(3, 12), dtype=np.int64)
        mask = np.ones((3, 12), np.int64)
        mask[1, 8:] = 0
        mask[2, 5:] = 0
        return {"input_ids": ids, "attention_mask": mask}


class TestOrt(OrtCase):
    def test_model_built_with_the_edit_api(self):
        # from an empty ModelProto (a graph field only) to a runnable model
        m = libonnxslim.load(b"\x3a\x00")
        self.addCleanup(m.close)
        m.set_ir_version(8)
        m.set_opset("", 17)
        m.set_producer("test_ort.py", "1")
        g = m.graph
        g.name = "built"
        g.add_input("x", "FLOAT", [2, 3])
        w = np.arange(6, dtype=np.float32).reshape(2, 3) / 4
        g.add_initializer("w", w)
        g.add_initializer("c", np.array(3.0, np.float32))
        g.add_node("Add", ["x", "w"], ["s"], name="add")
        g.add_node("Transpose", ["s"], ["t"], name="tr", attributes={"perm": [1, 0]})
        mul = g.add_node("Mul", ["t", "w"], ["y"], name="mul")
        mul.set_input(1, "c")
        g.add_node("ReduceSum", ["y"], ["r"], name="sum", attributes={"keepdims": 0})
        g.add_output("y", np.float32, [3, 2])
        g.add_output("r", "FLOAT", [])
        g.add_node("Neg", ["x"], ["dead"], name="dead")
        self.assertEqual(m.remove_unused(), 1)
        self.assertEqual(m.check(), [])
        path = os.path.join(self.tmp, "built.onnx")
        m.save(path)
        onnx.checker.check_model(onnx.load(path), full_check=True)
        x = np.array([[1, -2, 3], [0.5, 0, -1]], np.float32)
        out = self.run_ort(path, {"x": x})
        want = (x + w).T * np.float32(3)
        np.testing.assert_array_equal(out["y"], want)
        self.assertAlmostEqual(float(out["r"]), float(want.sum()), places=4)

    def test_bert_edit_and_recipe(self):
        feeds = self.bert_feeds()
        orig = self.run_ort(BERT, feeds)["logits"]
        self.assertEqual(orig.shape, (3, 1))

        # an inserted Mul after the graph output: the outputs double exactly
        doubled = os.path.join(self.tmp, "doubled.onnx")
        with libonnxslim.load(BERT) as m:
            m.graph.add_initializer("two", np.array(2.0, np.float32))
            mul = m.insert_after("logits", "Mul")
            mul.set_input(1, "two")
            self.assertEqual(mul.outputs, ["logits"])
            m.save(doubled)
        np.testing.assert_array_equal(self.run_ort(doubled, feeds)["logits"], 2 * orig)

        # the recipe (BF16 tables, truncated, Cast after each Gather, external
        # data) gives exactly the outputs of the original model with the
        # tables' values truncated to BF16 in FP32
        recipe = os.path.join(self.tmp, "recipe.onnx")
        with libonnxslim.load(BERT) as m:
            rep = m.convert(gather_to="bf16", rounding="truncate")
            self.assertEqual(rep.names(), TABLES)
            m.save(recipe, external_data="one_file", threshold=0)
        self.assertTrue(os.path.exists(recipe + ".data"))
        reference = os.path.join(self.tmp, "reference.onnx")
        with libonnxslim.load(BERT) as m:
            for t in m.graph.initializers:
                if t.name in TABLES:
                    bits = np.frombuffer(t.tobytes(), np.uint32) & np.uint32(0xFFFF0000)
                    t.set_data(bits.view(np.float32).reshape(t.shape))
            m.save(reference)
        got = self.run_ort(recipe, feeds)["logits"]
        np.testing.assert_array_equal(got, self.run_ort(reference, feeds)["logits"])
        self.assertFalse(np.array_equal(got, orig))  # the tables did change
        np.testing.assert_allclose(got, orig, rtol=0, atol=0.05 * float(np.abs(orig).max()))


if __name__ == "__main__":
    unittest.main()
