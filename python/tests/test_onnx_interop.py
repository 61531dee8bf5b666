# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""onnx.ModelProto in and out: load(proto) and Model.to_onnx()."""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import libonnxslim
from helpers import BERT, ROOT

try:
    import numpy as np
    import onnx
    from onnx import numpy_helper
except ImportError:  # Debian's python3-onnx (and numpy) are test dependencies
    onnx = None


@unittest.skipIf(onnx is None, "python3-onnx or numpy is not installed")
class TestOnnxInterop(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)

    def test_load_model_proto(self):
        proto = onnx.load(BERT)
        with libonnxslim.load(proto) as m, libonnxslim.load(BERT) as ref:
            self.assertEqual(m.fingerprint(), ref.fingerprint())
            self.assertEqual([n.name for n in m.graph.nodes],
                             [n.name for n in proto.graph.node])
            self.assertEqual(m.files, [])  # from bytes: no file mapped
        # the model is a copy: changing the proto afterwards changes nothing
        with libonnxslim.load(proto) as m:
            proto.graph.node[0].name = "changed"
            self.assertNotEqual(m.graph.nodes[0].name, "changed")

    def test_to_onnx(self):
        with libonnxslim.load(BERT) as m:
            proto = m.to_onnx()
            self.assertIsInstance(proto, onnx.ModelProto)
            with open(BERT, "rb") as f:
                self.assertEqual(proto.SerializeToString(), f.read())
            # an edit shows in the next proto, and the proto is valid ONNX
            m.graph.nodes[0].name = "renamed_gather"
            m.set_metadata("by", "to_onnx")
            edited = m.to_onnx()
        self.assertEqual(edited.graph.node[0].name, "renamed_gather")
        self.assertEqual({p.key: p.value for p in edited.metadata_props}["by"], "to_onnx")
        self.assertEqual(proto.graph.node[0].name, onnx.load(BERT).graph.node[0].name)
        onnx.checker.check_model(edited)

    def test_round_trip_after_convert(self):
        with libonnxslim.load(BERT) as m:
            m.convert(gather_to="bf16")
            proto = m.to_onnx()
            with libonnxslim.load(proto) as back:
                # the same message (protobuf writes the fields of the inserted
                # Casts' attributes in number order, so the bytes may differ)
                self.assertEqual(onnx.ModelProto.FromString(back.save_bytes()), proto)
                self.assertEqual(onnx.ModelProto.FromString(m.save_bytes()), proto)
                self.assertEqual([t.dtype for t in back.graph.initializers],
                                 [t.dtype for t in m.graph.initializers])
                self.assertIn("BFLOAT16", [t.dtype for t in back.graph.initializers])
                np.testing.assert_array_equal(back.graph.initializers[0].numpy(),
                                              m.graph.initializers[0].numpy())

    def test_external_data_stays_referenced(self):
        path = os.path.join(self.tmp, "m.onnx")
        with libonnxslim.load(BERT) as m:
            m.save(path, external_data="one_file", threshold=0)
        with libonnxslim.load(path) as m:
            proto = m.to_onnx()
            table = m.graph.initializers[0]
            want = table.numpy().copy()
            name = table.name
        t = next(t for t in proto.graph.initializer if t.name == name)
        self.assertEqual(t.data_location, onnx.TensorProto.EXTERNAL)
        onnx.load_external_data_for_model(proto, self.tmp)
        t = next(t for t in proto.graph.initializer if t.name == name)
        np.testing.assert_array_equal(numpy_helper.to_array(t), want)
        # and back, with base_dir for the data file
        with libonnxslim.load(onnx.load(path, load_external_data=False),
                              base_dir=self.tmp) as m:
            np.testing.assert_array_equal(m.graph.find_initializer(name).numpy(), want)

    def test_other_types_still_refused(self):
        with self.assertRaises(TypeError) as cm:
            libonnxslim.load(onnx.load(BERT).graph)
        self.assertIn("onnx.ModelProto", str(cm.exception))


class TestWithoutOnnx(unittest.TestCase):
    def test_to_onnx_names_the_package(self):
        code = ("import sys; sys.modules['onnx'] = None\n"
                "import libonnxslim\n"
                "m = libonnxslim.load(%r)\n"
                "print(len(m.save_bytes()) > 0)\n"
                "try:\n    m.to_onnx()\nexcept ImportError as e:\n    print(e)\n" % BERT)
        env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
        out = subprocess.run([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, timeout=60)
        self.assertEqual(out.returncode, 0, out.stderr.decode())
        lines = out.stdout.decode().splitlines()
        self.assertEqual(lines[0], "True")
        self.assertIn("python3-onnx", lines[1])


if __name__ == "__main__":
    unittest.main()
