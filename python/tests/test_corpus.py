# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""For every libonnx-testdata model, what libonnxslim reads equals what python3-onnx reads.

Compared (views.py): model fields, opsets, metadata, functions, and every
graph recursively (subgraphs of If/Loop/Scan through their GRAPH attributes):
nodes, attributes with typed values, initializers with dtype, shape and
values (Tensor.numpy() against onnx.numpy_helper.to_array), sparse
initializers, inputs/outputs/value_info with types and shapes. Also the
lookups: find_node, find_initializer, find_value_info, find_attribute,
producer, consumers, subgraphs and parent_node.
"""

import glob
import os
import sys
import unittest

import libonnxslim
from helpers import TESTDATA_ROOT

try:
    import onnx
    import views
except ImportError:  # Debian's python3-onnx (and numpy) are test dependencies
    onnx = None

#: libonnx-testdata 1.x holds 1072 models (node 932, pytorch-converted 82,
#: pytorch-operator 35, simple 23); fewer means a broken glob or install.
MIN_MODELS = 1000


def corpus():
    return sorted(glob.glob(os.path.join(TESTDATA_ROOT, "*", "*", "model.onnx")))


def check_lookups(tc, graph, ref):
    """Lookups of `graph` (libonnxslim) agree with the onnx GraphProto `ref`, recursively."""
    nodes = graph.nodes
    for n, rn in zip(nodes, ref.node):
        if rn.name:
            tc.assertEqual(graph.find_node(rn.name).name, rn.name)
        for out in rn.output:
            if out:
                first = next(x for x in ref.node if out in x.output)
                tc.assertEqual(graph.producer(out).outputs, list(first.output))
        subgraphs = []
        for a in rn.attribute:
            tc.assertEqual(n.find_attribute(a.name).name, a.name)
            subgraphs += [a.g] if a.type == onnx.AttributeProto.GRAPH else list(a.graphs)
        got = n.subgraphs
        tc.assertEqual(len(got), len(subgraphs))
        for sub, rsub in zip(got, subgraphs):
            tc.assertEqual(sub.parent_node, n)
            check_lookups(tc, sub, rsub)
    tc.assertIsNone(graph.find_node("no such node \x01"))
    nested = any(n.subgraphs for n in nodes)
    for v in {name for rn in ref.node for name in rn.input if name}:
        want = [n for n, rn in zip(nodes, ref.node) if v in rn.input]
        got = graph.consumers(v)
        if nested:  # captures by subgraphs add consumers
            tc.assertTrue(set(want) <= set(got), v)
        else:
            tc.assertEqual(got, want, v)
    for t in ref.initializer:
        tc.assertEqual(graph.find_initializer(t.name).name, t.name)
    for v in list(ref.input) + list(ref.output) + list(ref.value_info):
        tc.assertEqual(graph.find_value_info(v.name).name, v.name)


@unittest.skipIf(onnx is None, "python3-onnx is not installed")
class TestCorpus(unittest.TestCase):
    def test_every_model_reads_as_onnx(self):
        paths = corpus()
        if not paths:
            self.skipTest("libonnx-testdata is not installed")
        compared = 0
        for path in paths:
            name = os.path.relpath(os.path.dirname(path), TESTDATA_ROOT)
            with self.subTest(model=name):
                ref = onnx.load(path)
                with libonnxslim.load(path) as m:
                    self.assertEqual(views.slim_model(m), views.onnx_model(ref))
                    self.assertEqual(m.graph.parent_node, None)
                    check_lookups(self, m.graph, ref.graph)
                compared += 1
        sys.stdout.write("[corpus: %d libonnx-testdata models compared with python3-onnx] "
                         % compared)
        self.assertEqual(compared, len(paths))
        self.assertGreaterEqual(compared, MIN_MODELS)


if __name__ == "__main__":
    unittest.main()
