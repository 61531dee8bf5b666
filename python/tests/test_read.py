"""What the module reads equals what python3-onnx reads from the same files."""

import glob
import os
import unittest

import onnxslim
from helpers import BERT, TESTDATA

try:
    import onnx
    from onnx import numpy_helper
except ImportError:  # Debian's python3-onnx is a test dependency
    onnx = None

SAMPLE = 100  # first N libonnx-testdata node models, sorted


def onnx_view(proto_graph):
    nodes = [(n.name, n.op_type, n.domain, list(n.input), list(n.output)) for n in proto_graph.node]
    inits = [(t.name, onnx.TensorProto.DataType.Name(t.data_type), tuple(t.dims))
             for t in proto_graph.initializer]
    return (proto_graph.name, nodes, inits, [v.name for v in proto_graph.input],
            [v.name for v in proto_graph.output])


def slim_view(graph):
    nodes = [(n.name, n.op_type, n.domain, n.inputs, n.outputs) for n in graph.nodes]
    inits = [(t.name, t.dtype, t.shape) for t in graph.initializers]
    return (graph.name, nodes, inits, graph.inputs, graph.outputs)


@unittest.skipIf(onnx is None, "python3-onnx is not installed")
class TestBertTiny(unittest.TestCase):
    def setUp(self):
        self.ref = onnx.load(BERT)
        self.model = onnxslim.load(BERT)
        self.addCleanup(self.model.close)

    def test_graph_equals_onnx(self):
        got, want = slim_view(self.model.graph), onnx_view(self.ref.graph)
        self.assertEqual(len(got[1]), 58)
        self.assertEqual(got, want)

    def test_initializer_bytes_equal_onnx(self):
        want = {t.name: numpy_helper.to_array(t).tobytes() for t in self.ref.graph.initializer}
        got = self.model.graph.initializers
        self.assertEqual(len(got), len(want))
        for t in got:
            with self.subTest(name=t.name):
                self.assertEqual(t.tobytes(), want[t.name])

    def test_load_from_bytes_reads_the_same(self):
        with open(BERT, "rb") as f:
            data = bytearray(f.read())
        with onnxslim.load(data) as m:
            data[:] = b"\0" * len(data)  # the library copied the bytes
            self.assertEqual(slim_view(m.graph), onnx_view(self.ref.graph))
            self.assertEqual(m.fingerprint(), self.model.fingerprint())


@unittest.skipIf(onnx is None, "python3-onnx is not installed")
class TestTestdata(unittest.TestCase):
    def test_nodes_equal_onnx(self):
        paths = sorted(glob.glob(os.path.join(TESTDATA, "*", "model.onnx")))[:SAMPLE]
        if not paths:
            self.skipTest("libonnx-testdata is not installed")
        compared = 0
        for path in paths:
            with self.subTest(model=os.path.basename(os.path.dirname(path))):
                ref = onnx.load(path)
                with onnxslim.load(path) as m:
                    self.assertEqual(slim_view(m.graph), onnx_view(ref.graph))
                compared += 1
        self.assertEqual(compared, len(paths))


if __name__ == "__main__":
    unittest.main()
