# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Model life cycle, errors, check, fingerprint and save."""

import gc
import os
import shutil
import subprocess
import tempfile
import unittest

import libonnxslim
from helpers import BERT


class TestLifecycle(unittest.TestCase):
    def test_use_after_close_raises(self):
        m = libonnxslim.load(BERT)
        graph = m.graph
        node = graph.nodes[0]
        tensor = graph.initializers[0]
        m.close()
        self.assertTrue(m.closed)
        uses = [lambda: m.graph, m.check, m.fingerprint, m.save_bytes,
                lambda: graph.nodes, lambda: graph.name, lambda: graph.inputs,
                lambda: node.op_type, lambda: node.inputs, lambda: tensor.shape,
                tensor.tobytes, lambda: tensor.dtype]
        for use in uses:
            with self.assertRaises(libonnxslim.Error) as cm:
                use()
            self.assertEqual(cm.exception.code, libonnxslim.EINVAL)
            self.assertIn("closed", cm.exception.message)
        m.close()  # idempotent

    def test_with_closes(self):
        with libonnxslim.load(BERT) as m:
            node = m.graph.nodes[0]
            self.assertEqual(node.op_type, "Gather")
        self.assertTrue(m.closed)
        self.assertRaises(libonnxslim.InvalidArgument, lambda: node.name)

    def test_freed_on_gc(self):
        m = libonnxslim.load(BERT)
        fin = m._finalizer
        self.assertTrue(fin.alive)
        del m
        gc.collect()
        self.assertFalse(fin.alive)

    def test_borrowed_object_keeps_model_alive(self):
        node = libonnxslim.load(BERT).graph.nodes[1]
        gc.collect()
        self.assertEqual(node.op_type, "Shape")


class TestErrors(unittest.TestCase):
    def test_malformed_bytes_raise_parse_error(self):
        with self.assertRaises(libonnxslim.ParseError) as cm:
            libonnxslim.load(b"\x0a\xff\xff\xff\xff\x0f garbage")
        err = cm.exception
        self.assertEqual(err.code, libonnxslim.EPARSE)
        self.assertIsInstance(err, libonnxslim.Error)
        self.assertTrue(err.message)
        self.assertIn(err.message, str(err))

    def test_missing_file_raises_io_error(self):
        with self.assertRaises(libonnxslim.IoError) as cm:
            libonnxslim.load("/nonexistent/model.onnx")
        self.assertTrue(cm.exception.message)

    def test_wrong_argument_type(self):
        self.assertRaises(TypeError, libonnxslim.load, None)
        self.assertRaises(TypeError, libonnxslim.load, 42)


class TestOutputs(unittest.TestCase):
    def setUp(self):
        self.model = libonnxslim.load(BERT)
        self.addCleanup(self.model.close)
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)

    def test_save_bytes_of_unedited_model_equals_file(self):
        with open(BERT, "rb") as f:
            self.assertEqual(self.model.save_bytes(), f.read())

    def test_check_clean_model(self):
        self.assertEqual(self.model.check(), [])

    def test_check_reports_problems(self):
        # an Add that reads a value nothing defines: one UNDEFINED_INPUT
        try:
            from onnx import helper, TensorProto
        except ImportError:
            self.skipTest("python3-onnx is not installed")
        x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])
        y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])
        node = helper.make_node("Add", ["x", "ghost"], ["y"], name="add")
        proto = helper.make_model(helper.make_graph([node], "g", [x], [y]))
        with libonnxslim.load(proto.SerializeToString()) as m:
            problems = m.check()
        self.assertEqual([p[0] for p in problems], [libonnxslim.CHECK_UNDEFINED_INPUT])
        self.assertIn("ghost", problems[0][1] + problems[0][2])

    def test_check_schemas_and_skip(self):
        try:
            from onnx import helper, TensorProto
        except ImportError:
            self.skipTest("python3-onnx is not installed")
        # BFLOAT16 into Cast at opset 11, and an output without a type
        x = helper.make_tensor_value_info("x", TensorProto.BFLOAT16, [1])
        y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])
        z = helper.make_value_info("z", helper.TypeProto())
        g = helper.make_graph([helper.make_node("Cast", ["x"], ["y"], name="c", to=1),
                               helper.make_node("Relu", ["y"], ["z"], name="r")], "g", [x], [y, z])
        proto = helper.make_model(g, opset_imports=[helper.make_opsetid("", 11)])
        with libonnxslim.load(proto.SerializeToString()) as m:
            codes = [p[0] for p in m.check()]
            self.assertEqual(sorted(codes), [libonnxslim.CHECK_TYPE_CONSTRAINT, libonnxslim.CHECK_UNTYPED_IO])
            self.assertEqual([p[0] for p in m.check(skip=["untyped_io"])],
                             [libonnxslim.CHECK_TYPE_CONSTRAINT])
            self.assertEqual(m.check(skip=[libonnxslim.CHECK_UNTYPED_IO, "type_constraint"]), [])
            self.assertEqual(m.check_note, "")
            with self.assertRaises(libonnxslim.NotFound):
                m.check(skip=["nonesuch"])
            with self.assertRaises(libonnxslim.InvalidArgument):
                m.check(skip=[99])
        self.assertEqual(libonnxslim.check_code_name(libonnxslim.CHECK_ARITY), "arity")
        self.assertEqual(libonnxslim.check_code_from_name("unknown_op"), libonnxslim.CHECK_UNKNOWN_OP)
        self.assertIs(libonnxslim.check_code_is_warning(libonnxslim.CHECK_EXTERNAL_LOAD_INPUT), True)
        self.assertIs(libonnxslim.check_code_is_warning(libonnxslim.CHECK_ARITY), False)
        with self.assertRaises(libonnxslim.InvalidArgument):
            libonnxslim.check_code_is_warning(99)
        # an opset newer than the tables: the note says the schemas were not checked
        proto = helper.make_model(g, opset_imports=[helper.make_opsetid("", 99)])
        with libonnxslim.load(proto.SerializeToString()) as m:
            m.check()
            self.assertIn("opset 99", m.check_note)

    def test_fingerprint_equals_cli(self):
        cli = os.environ.get("LIBONNXSLIM_CLI")
        if not cli or not os.access(cli, os.X_OK):
            self.skipTest("LIBONNXSLIM_CLI (build/libonnxslim) not given")
        out = subprocess.run([cli, "fingerprint", BERT], stdout=subprocess.PIPE, check=True)
        want = out.stdout.decode().split()[0]
        self.assertRegex(want, "^[0-9a-f]{32}$")
        self.assertEqual(self.model.fingerprint(), want)

    def test_save_and_reload(self):
        path = os.path.join(self.tmp, "out.onnx")
        self.model.save(path, layout=libonnxslim.LAYOUT_ONE_FILE, threshold=0)
        self.assertTrue(os.path.exists(path + ".data"))
        with libonnxslim.load(path) as m:
            self.assertEqual(m.fingerprint(), self.model.fingerprint())
            big = max(m.graph.initializers, key=lambda t: len(t.tobytes()))
            self.assertEqual(big.shape, (100, 16))
        with open(path, "rb") as f:
            with libonnxslim.load(f.read(), base_dir=self.tmp) as m:
                self.assertEqual(m.fingerprint(), self.model.fingerprint())

    def test_save_bad_layout_raises(self):
        with self.assertRaises(libonnxslim.InvalidArgument) as cm:
            self.model.save(os.path.join(self.tmp, "x.onnx"), layout=99)
        self.assertTrue(cm.exception.message)
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "x.onnx")))


class TestModule(unittest.TestCase):
    def test_version_and_path(self):
        self.assertRegex(libonnxslim.__version__, r"^\d+\.\d+\.\d+")
        self.assertTrue(os.path.exists(libonnxslim.library_path))
        want = os.environ.get("LIBONNXSLIM_LIBRARY")
        if want:
            self.assertEqual(libonnxslim.library_path, want)

    def test_help_names_public_names_as_onnxslim(self):
        import pydoc
        text = pydoc.render_doc(libonnxslim, renderer=pydoc.plaintext)
        for name in libonnxslim.__all__:
            obj = getattr(libonnxslim, name)
            if isinstance(obj, type) or callable(obj):
                with self.subTest(name=name):
                    self.assertEqual(obj.__module__, "libonnxslim")
        for part in ("CLASSES", "FUNCTIONS", "class Model(", "load(path_or_bytes",
                     "convert(self", "save(self, path", "class Error(", "__version__"):
            self.assertIn(part, text)

    def test_public_names_have_docstrings(self):
        for name in libonnxslim.__all__:
            obj = getattr(libonnxslim, name)
            if callable(obj):
                with self.subTest(name=name):
                    self.assertTrue(obj.__doc__ and obj.__doc__.strip())
                if isinstance(obj, type):
                    for attr, member in vars(obj).items():
                        if not attr.startswith("_") and (callable(member) or
                                                         isinstance(member, property)):
                            with self.subTest(name=name + "." + attr):
                                self.assertTrue(member.__doc__ and member.__doc__.strip())


if __name__ == "__main__":
    unittest.main()
