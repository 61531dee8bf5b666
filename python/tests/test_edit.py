# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""The edit API: each edit read back through the module and through python3-onnx.

python3-onnx parses the bytes the library writes (save_bytes(), or the saved
file), so an edit is checked by an independent reader, not only by the
module's own read functions.
"""

import os
import shutil
import tempfile
import unittest

import libonnxslim
from helpers import BERT

try:
    import numpy as np
    import onnx
    from onnx import helper, numpy_helper, TensorProto
except ImportError:  # python3-onnx and python3-numpy are test dependencies
    onnx = None


def read(path):
    with open(path, "rb") as f:
        return f.read()


def proto(model):
    """The model as python3-onnx reads the library's serialization."""
    return onnx.ModelProto.FromString(model.save_bytes())


def attr(p_node, name):
    for a in p_node.attribute:
        if a.name == name:
            return a
    raise KeyError(name)


def node_named(p_graph, name):
    for n in p_graph.node:
        if n.name == name:
            return n
    raise KeyError(name)


def small_model():
    """x (FLOAT [2, 3]) -> Relu -> y, opset 17."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])
    g = helper.make_graph([helper.make_node("Relu", ["x"], ["y"], name="relu")], "g", [x], [y])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    return libonnxslim.load(m.SerializeToString())


@unittest.skipIf(onnx is None, "python3-onnx and numpy are not installed")
class TestNodeEdits(unittest.TestCase):
    def setUp(self):
        self.m = libonnxslim.load(BERT)
        self.addCleanup(self.m.close)
        self.g = self.m.graph

    def test_add_node_appends_with_attributes(self):
        n = self.g.add_node("Transpose", ["logits"], ["t"], name="tr", attributes={"perm": [1, 0]})
        self.assertEqual((n.op_type, n.name, n.inputs, n.outputs), ("Transpose", "tr", ["logits"],
                                                                   ["t"]))
        self.assertEqual(self.g.nodes[-1].name, "tr")
        p = node_named(proto(self.m).graph, "tr")
        self.assertEqual(list(attr(p, "perm").ints), [1, 0])
        self.assertEqual(attr(p, "perm").type, onnx.AttributeProto.INTS)

    def test_add_node_at_index_with_domain_and_empty_input(self):
        n = self.g.add_node("Foo", ["", "logits"], ["o"], domain="com.example", index=0)
        self.assertIs(type(n), libonnxslim.Node)
        p = proto(self.m).graph.node[0]
        self.assertEqual((p.op_type, p.domain, list(p.input)), ("Foo", "com.example",
                                                                  ["", "logits"]))

    def test_add_node_bad_attribute_leaves_graph_unchanged(self):
        before = len(self.g.nodes)
        with self.assertRaises(TypeError):
            self.g.add_node("Relu", ["logits"], ["r"], attributes={"bad": object()})
        self.assertEqual(len(self.g.nodes), before)
        self.assertEqual(proto(self.m), onnx.load(BERT))

    def test_remove_node(self):
        victim = self.g.nodes[-1]
        name = victim.name
        self.g.remove_node(victim)
        self.assertNotIn(name, [n.name for n in proto(self.m).graph.node])
        with self.assertRaises(libonnxslim.InvalidArgument):
            victim.op_type  # a removed node's handle is refused, not a crash
        with self.assertRaises(libonnxslim.InvalidArgument):
            self.g.remove_node(victim)

    def test_move_and_reorder_nodes(self):
        nodes = self.g.nodes
        self.g.move_node(nodes[0], len(nodes) - 1)
        self.assertEqual([n.name for n in proto(self.m).graph.node],
                         [n.name for n in nodes[1:] + nodes[:1]])
        self.g.reorder_nodes(nodes)
        self.assertEqual([n.name for n in proto(self.m).graph.node], [n.name for n in nodes])
        with self.assertRaises(libonnxslim.InvalidArgument):
            self.g.reorder_nodes(nodes[1:])  # not every node: refused, graph unchanged
        self.assertEqual(self.m.save_bytes(), read(BERT))

    def test_setters(self):
        n = self.g.nodes[5]
        n.name = "renamed"
        n.op_type = "Sub"
        n.domain = "com.example"
        n.inputs = ["a", "", "c"]
        n.outputs = ["o1", "o2"]
        n.set_input(1, "b")
        n.set_input(3, "d")  # index == count appends
        n.set_output(0, "o0")
        self.assertEqual((n.name, n.op_type, n.domain, n.inputs, n.outputs),
                         ("renamed", "Sub", "com.example", ["a", "b", "c", "d"], ["o0", "o2"]))
        p = proto(self.m).graph.node[5]
        self.assertEqual((p.name, p.op_type, p.domain, list(p.input), list(p.output)),
                         ("renamed", "Sub", "com.example", ["a", "b", "c", "d"], ["o0", "o2"]))
        with self.assertRaises(libonnxslim.RangeError):
            n.set_input(9, "x")

    def test_graph_name(self):
        self.g.name = "edited"
        self.assertEqual(self.g.name, "edited")
        self.assertEqual(proto(self.m).graph.name, "edited")


@unittest.skipIf(onnx is None, "python3-onnx and numpy are not installed")
class TestAttributes(unittest.TestCase):
    def setUp(self):
        self.m = small_model()
        self.addCleanup(self.m.close)
        self.n = self.m.graph.nodes[0]

    def read(self, name):
        return attr(proto(self.m).graph.node[0], name)

    def test_inferred_types(self):
        A = onnx.AttributeProto
        cases = [("i", 7, A.INT, lambda a: a.i, 7),
                 ("b", True, A.INT, lambda a: a.i, 1),
                 ("npi", np.int64(-3), A.INT, lambda a: a.i, -3),
                 ("f", 0.5, A.FLOAT, lambda a: a.f, 0.5),
                 ("s", "héllo", A.STRING, lambda a: a.s, "héllo".encode()),
                 ("by", b"\x00\xff", A.STRING, lambda a: a.s, b"\x00\xff"),
                 ("is", [1, -2, 1 << 40], A.INTS, lambda a: list(a.ints), [1, -2, 1 << 40]),
                 ("fs", [1, 2.5], A.FLOATS, lambda a: list(a.floats), [1.0, 2.5]),
                 ("ss", ["a", b"b\x00c"], A.STRINGS, lambda a: list(a.strings), [b"a", b"b\x00c"])]
        for name, value, _, _, _ in cases:
            self.n.set_attribute(name, value)
        for name, _, kind, get, want in cases:
            with self.subTest(name=name):
                a = self.read(name)
                self.assertEqual(a.type, kind)
                self.assertEqual(get(a), want)

    def test_tensor_attribute_from_numpy_and_from_tensor(self):
        arr = np.arange(6, dtype=np.int32).reshape(2, 3)
        self.n.set_attribute("t", arr)
        with libonnxslim.load(BERT) as other:
            src = other.graph.initializers[0]
            self.n.set_attribute("u", src)  # copied from another model
            want_u = src.tobytes()
        t = self.read("t")
        self.assertEqual(t.type, onnx.AttributeProto.TENSOR)
        np.testing.assert_array_equal(numpy_helper.to_array(t.t), arr)
        u = self.read("u")
        self.assertEqual(numpy_helper.to_array(u.t).tobytes(), want_u)
        self.n.set_attribute("ts", [arr, np.float32(1.5) * np.ones(2, np.float32)])
        ts = self.read("ts")
        self.assertEqual(ts.type, onnx.AttributeProto.TENSORS)
        np.testing.assert_array_equal(numpy_helper.to_array(ts.tensors[1]), [1.5, 1.5])

    def test_graph_attributes(self):
        body = self.n.set_attribute("body", None, type="GRAPH")
        self.assertIsInstance(body, libonnxslim.Graph)
        body.name = "body"
        body.add_input("bx", "FLOAT", [1])
        body.add_node("Neg", ["bx"], ["by"])
        body.add_output("by", "FLOAT", [1])
        copy = self.n.set_attribute("copy", body)
        self.assertEqual([n.op_type for n in copy.nodes], ["Neg"])
        self.n.set_attribute("both", [body, copy])
        p = proto(self.m).graph.node[0]
        self.assertEqual(attr(p, "body").g.node[0].op_type, "Neg")
        self.assertEqual(attr(p, "copy").g.name, "body")
        self.assertEqual(len(attr(p, "both").graphs), 2)
        self.assertEqual(attr(p, "both").type, onnx.AttributeProto.GRAPHS)

    def test_explicit_type(self):
        self.n.set_attribute("e", [], type="INTS")
        self.n.set_attribute("ef", [], type=libonnxslim.ATTR_FLOATS)
        self.n.set_attribute("f1", 1, type="FLOAT")
        self.n.set_attribute("ia", np.array([3, 4]), type="INTS")
        self.assertEqual(self.read("e").type, onnx.AttributeProto.INTS)
        self.assertEqual(self.read("ef").type, onnx.AttributeProto.FLOATS)
        self.assertEqual((self.read("f1").type, self.read("f1").f),
                         (onnx.AttributeProto.FLOAT, 1.0))
        self.assertEqual(list(self.read("ia").ints), [3, 4])

    def test_replace_keeps_position_and_remove(self):
        self.n.set_attribute("a", 1)
        self.n.set_attribute("b", 2)
        self.n.set_attribute("a", "now a string")
        p = proto(self.m).graph.node[0]
        self.assertEqual([a.name for a in p.attribute], ["a", "b"])
        self.assertEqual(attr(p, "a").s, b"now a string")
        self.n.remove_attribute("a")
        self.assertEqual([a.name for a in proto(self.m).graph.node[0].attribute], ["b"])
        with self.assertRaises(libonnxslim.NotFound):
            self.n.remove_attribute("a")

    def test_misuse_raises(self):
        before = self.m.save_bytes()
        bad = [(([],), TypeError),                     # ambiguous: needs type=
               ((None,), TypeError),
               (([1, "x"],), TypeError),
               ((object(),), TypeError),
               ((1 << 63,), OverflowError),
               ((1.5,), ValueError, "INT"),
               (("x",), TypeError, "INTS"),
               (([1.5],), TypeError, "INTS"),
               ((1,), ValueError, "SPARSE_TENSOR"),
               ((1,), ValueError, "NOPE"),
               ((1,), TypeError, 1.5)]
        for case in bad:
            args, exc = case[0], case[1]
            kw = {"type": case[2]} if len(case) > 2 else {}
            with self.subTest(value=args[0], **{k: str(v) for k, v in kw.items()}):
                with self.assertRaises((exc, TypeError, ValueError)) as cm:
                    self.n.set_attribute("z", *args, **kw)
                self.assertIsInstance(cm.exception, exc if exc is not ValueError else
                                      (ValueError, TypeError))
        with self.assertRaises(TypeError):
            self.n.set_attribute(3, 1)
        with self.assertRaises(ValueError):
            self.n.set_attribute("a\0b", 1)
        self.assertEqual(self.m.save_bytes(), before)


@unittest.skipIf(onnx is None, "python3-onnx and numpy are not installed")
class TestInitializers(unittest.TestCase):
    def setUp(self):
        self.m = libonnxslim.load(BERT)
        self.addCleanup(self.m.close)
        self.g = self.m.graph

    def inits(self):
        return {t.name: t for t in proto(self.m).graph.initializer}

    def test_add_from_numpy(self):
        arrays = {"f32": np.arange(6, dtype=np.float32).reshape(2, 3),
                  "f16": np.array([1.5, -2], np.float16), "i64": np.array(7, np.int64),
                  "b": np.array([True, False]), "u8": np.zeros((0, 4), np.uint8),
                  "be": np.arange(3, dtype=">i4"),  # big-endian input, stored little-endian
                  "nc": np.arange(12, dtype=np.float64).reshape(3, 4).T}  # not contiguous
        for name, arr in arrays.items():
            t = self.g.add_initializer(name, arr)
            self.assertEqual(t.shape, arr.shape)
        got = self.inits()
        for name, arr in arrays.items():
            with self.subTest(name=name):
                np.testing.assert_array_equal(numpy_helper.to_array(got[name]), arr)
                self.assertEqual(numpy_helper.to_array(got[name]).dtype,
                                 arr.dtype.newbyteorder("="))

    def test_add_from_bytes_list_and_copy(self):
        t = self.g.add_initializer("bf", b"\x80\x3f\x00\x40", dtype="BFLOAT16", shape=[2])
        self.assertEqual((t.dtype, t.shape, t.tobytes()), ("BFLOAT16", (2,), b"\x80\x3f\x00\x40"))
        self.g.add_initializer("lst", [[1, 2], [3, 4]], dtype="int32")
        src = self.g.initializers[0]
        c = self.g.add_initializer("copy", src)
        self.assertEqual((c.name, c.shape, c.tobytes()), ("copy", src.shape, src.tobytes()))
        got = self.inits()
        self.assertEqual(got["bf"].data_type, TensorProto.BFLOAT16)
        np.testing.assert_array_equal(numpy_helper.to_array(got["lst"]), [[1, 2], [3, 4]])
        np.testing.assert_array_equal(numpy_helper.to_array(got["copy"]),
                                      numpy_helper.to_array(got[src.name]))

    def test_add_errors(self):
        with self.assertRaises(libonnxslim.InvalidArgument):
            self.g.add_initializer("x", b"\0" * 5, dtype="FLOAT", shape=[2])  # size mismatch
        with self.assertRaises(libonnxslim.Unsupported):
            self.g.add_initializer("x", b"", dtype="STRING", shape=[0])
        with self.assertRaises(TypeError):
            self.g.add_initializer("x", b"\0" * 4)  # bytes need dtype and shape
        with self.assertRaises(TypeError):
            self.g.add_initializer("x", "not data", dtype="FLOAT")
        with self.assertRaises(ValueError):
            self.g.add_initializer("x", b"\0" * 4, dtype="float", shape=[-1])
        with self.assertRaises(ValueError):
            self.g.add_initializer("x", b"\0" * 4, dtype="nonsense", shape=[1])
        with self.assertRaises(TypeError):
            self.g.add_initializer(None, np.zeros(1))
        self.assertEqual(self.m.save_bytes(), read(BERT))

    def test_remove_set_data_rename(self):
        first, second = self.g.initializers[:2]
        second_name = second.name
        self.g.remove_initializer(first)
        self.g.remove_initializer(second_name)
        with self.assertRaises(libonnxslim.NotFound):
            self.g.remove_initializer("no such initializer")
        t = self.g.initializers[0]
        t.set_data(np.full((3,), 2.5, np.float32))
        self.assertEqual((t.dtype, t.shape), ("FLOAT", (3,)))
        t.set_data(np.array([1.0, 2.0, 3.0], np.float32).tobytes())  # bytes: dtype and shape kept
        t.name = "new_name"
        got = self.inits()
        self.assertNotIn(second_name, got)
        self.assertEqual(len(got), 31)
        np.testing.assert_array_equal(numpy_helper.to_array(got["new_name"]), [1, 2, 3])
        with self.assertRaises(libonnxslim.InvalidArgument):
            first.name  # removed


@unittest.skipIf(onnx is None, "python3-onnx and numpy are not installed")
class TestValues(unittest.TestCase):
    def setUp(self):
        self.m = libonnxslim.load(BERT)
        self.addCleanup(self.m.close)
        self.g = self.m.graph

    def test_add_inputs_outputs_value_info(self):
        extra_vi = self.g.add_input("extra", "int64", ["batch", 4, None])
        self.assertEqual((extra_vi.name, extra_vi.type.shape), ("extra", ("batch", 4, None)))
        self.assertEqual(self.g.inputs[-1], extra_vi)
        self.g.add_output("/embeddings/Add_output_0", np.float32)
        self.g.add_value_info("vi", libonnxslim.DTYPE_FLOAT16, [])
        self.assertIsNone(self.g.add_value_info("untyped").type)
        p = proto(self.m).graph
        extra = p.input[-1]
        self.assertEqual(extra.name, "extra")
        self.assertEqual(extra.type.tensor_type.elem_type, TensorProto.INT64)
        dims = extra.type.tensor_type.shape.dim
        self.assertEqual([(d.WhichOneof("value"), d.dim_param or d.dim_value) for d in dims],
                         [("dim_param", "batch"), ("dim_value", 4), (None, 0)])
        out = p.output[-1]
        self.assertEqual(out.type.tensor_type.elem_type, TensorProto.FLOAT)
        self.assertFalse(out.type.tensor_type.HasField("shape"))
        vi = {v.name: v for v in p.value_info}
        self.assertTrue(vi["vi"].type.tensor_type.HasField("shape"))
        self.assertEqual(len(vi["vi"].type.tensor_type.shape.dim), 0)
        self.assertFalse(vi["untyped"].HasField("type"))
        self.assertIn("extra", [v if isinstance(v, str) else v.name for v in self.g.inputs])

    def test_set_value_type_and_remove(self):
        self.g.set_value_type("logits", "FLOAT16")  # shape kept
        p = proto(self.m).graph.output[0]
        self.assertEqual(p.type.tensor_type.elem_type, TensorProto.FLOAT16)
        self.assertEqual([d.dim_param or d.dim_value for d in p.type.tensor_type.shape.dim],
                         ["batch", 1])
        self.g.set_value_type("logits", "FLOAT", [None, 2], where="output")
        p = proto(self.m).graph.output[0]
        self.assertEqual([d.dim_value for d in p.type.tensor_type.shape.dim], [0, 2])
        self.g.set_value_type("logits", "FLOAT", None)
        self.assertFalse(proto(self.m).graph.output[0].type.tensor_type.HasField("shape"))
        self.g.set_value_type("logits", None)
        self.assertFalse(proto(self.m).graph.output[0].HasField("type"))
        self.g.rename_value_info("logits", "logits2")
        self.assertEqual(proto(self.m).graph.output[0].name, "logits2")
        self.g.remove_output("logits2")
        self.g.remove_input("attention_mask")
        p = proto(self.m).graph
        self.assertEqual([v.name for v in p.output], [])
        self.assertEqual([v.name for v in p.input], ["input_ids"])
        with self.assertRaises(libonnxslim.NotFound):
            self.g.remove_value_info("input_ids")  # an input, not a value_info entry
        with self.assertRaises(libonnxslim.NotFound):
            self.g.set_value_type("nothing", "FLOAT")
        with self.assertRaises(ValueError):
            self.g.set_value_type("input_ids", "FLOAT", where="inputs")

    def test_set_value_type_from_a_type_object(self):
        # a Type read from a model
        int64_type = self.g.find_value_info("input_ids").type
        self.g.set_value_type("logits", int64_type)
        t = proto(self.m).graph.output[0].type.tensor_type
        self.assertEqual(t.elem_type, TensorProto.INT64)
        self.assertEqual([d.dim_param for d in t.shape.dim], ["batch", "seq"])
        with self.assertRaises(TypeError):
            self.g.set_value_type("logits", int64_type, [1])

    def test_rename_value(self):
        self.g.rename_value("input_ids", "ids")
        p = proto(self.m).graph
        self.assertEqual(p.input[0].name, "ids")
        self.assertEqual(p.node[0].input[1], "ids")
        self.assertNotIn("input_ids", [i for n in p.node for i in n.input])


@unittest.skipIf(onnx is None, "python3-onnx and numpy are not installed")
class TestModelEdits(unittest.TestCase):
    def setUp(self):
        self.m = libonnxslim.load(BERT)
        self.addCleanup(self.m.close)

    def test_fields_opsets_metadata(self):
        self.m.set_producer("me", "1.2")
        self.m.set_producer(version="1.3")
        self.m.set_doc_string("docs")
        self.m.set_ir_version(9)
        self.m.set_opset("", 18)
        self.m.set_opset("com.example", 2)
        self.m.set_metadata("k", "v")
        self.m.set_metadata("k2", "v2")
        self.m.remove_metadata("k2")
        p = proto(self.m)
        self.assertEqual((p.producer_name, p.producer_version, p.doc_string, p.ir_version),
                         ("me", "1.3", "docs", 9))
        self.assertEqual({o.domain: o.version for o in p.opset_import}, {"": 18, "com.example": 2})
        meta = {e.key: e.value for e in p.metadata_props}
        self.assertEqual(meta["k"], "v")
        self.assertNotIn("k2", meta)
        self.m.remove_opset("com.example")
        self.assertEqual(len(proto(self.m).opset_import), 1)
        with self.assertRaises(libonnxslim.NotFound):
            self.m.remove_metadata("k2")
        with self.assertRaises(libonnxslim.NotFound):
            self.m.remove_opset("com.example")
        with self.assertRaises(OverflowError):
            self.m.set_ir_version(1 << 64)

    def test_fields_assignable(self):
        self.m.ir_version = 10
        self.m.doc_string = "d2"
        self.m.producer_name = "p"
        self.m.producer_version = "v"
        self.assertEqual((self.m.ir_version, self.m.doc_string, self.m.producer_name,
                          self.m.producer_version), (10, "d2", "p", "v"))
        p = proto(self.m)
        self.assertEqual((p.ir_version, p.doc_string, p.producer_name, p.producer_version),
                         (10, "d2", "p", "v"))
        with self.assertRaises(TypeError):
            self.m.doc_string = 3

    def test_unique_name(self):
        a = self.m.unique_name("logits")
        b = self.m.unique_name("logits")
        self.assertNotEqual(a, "logits")
        self.assertNotEqual(a, b)
        self.assertEqual(self.m.unique_name("fresh"), "fresh")

    def test_insert_cast_after_takes_over_the_name(self):
        cast = self.m.insert_cast_after("logits", "FLOAT16")
        self.assertEqual(cast.op_type, "Cast")
        self.assertEqual(cast.outputs, ["logits"])
        p = proto(self.m).graph
        c = node_named(p, cast.name)
        self.assertEqual(attr(c, "to").i, TensorProto.FLOAT16)
        self.assertEqual(p.output[0].type.tensor_type.elem_type, TensorProto.FLOAT16)
        onnx.checker.check_model(proto(self.m))

    def test_insert_after_for_chosen_consumers_and_before(self):
        g = self.m.graph
        consumers = [n for n in g.nodes if "input_ids" in n.inputs]
        ident = self.m.insert_after("input_ids", "Identity", consumers=consumers[:1],
                                    fresh_name="ids_copy")
        self.assertEqual((ident.inputs, ident.outputs), (["input_ids"], ["ids_copy"]))
        self.assertIn("ids_copy", consumers[0].inputs)
        mm = next(n for n in g.nodes if n.op_type == "MatMul")
        neg = self.m.insert_before(mm, 1, "Neg")
        self.assertEqual(mm.inputs[1], neg.outputs[0])
        cast = self.m.insert_cast_before(mm, 0, "FLOAT")
        self.assertEqual(mm.inputs[0], cast.outputs[0])
        onnx.checker.check_model(proto(self.m))
        with self.assertRaises(libonnxslim.NotFound):
            self.m.insert_after("no such value", "Identity")
        with self.assertRaises(libonnxslim.RangeError):
            self.m.insert_before(mm, 7, "Neg")
        with self.assertRaises(TypeError):
            self.m.insert_before("not a node", 0, "Neg")
        with self.assertRaises(TypeError):
            self.m.insert_cast_after("logits", object())

    def test_toposort_and_remove_unused(self):
        g = self.m.graph
        nodes = g.nodes
        g.reorder_nodes(nodes[::-1])
        self.assertNotEqual([n.name for n in g.nodes], [n.name for n in nodes])
        self.m.toposort()
        onnx.checker.check_model(proto(self.m))  # sorted again
        g.add_node("Neg", ["logits"], ["dead"], name="dead")
        g.add_initializer("unused", np.zeros(3, np.float32))
        self.assertEqual(self.m.remove_unused(), 2)
        names = [n.name for n in proto(self.m).graph.node]
        self.assertNotIn("dead", names)
        self.assertEqual(self.m.remove_unused(recursive=False), 0)
        # a cycle: refused, graph unchanged
        a = g.add_node("Neg", ["c2"], ["c1"], name="a")
        g.add_node("Neg", ["c1"], ["c2"], name="b")
        before = self.m.save_bytes()
        with self.assertRaises(libonnxslim.ModelError) as cm:
            self.m.toposort()
        self.assertIn("cycle", cm.exception.message)
        self.assertEqual(self.m.save_bytes(), before)
        self.assertEqual(a.name, "a")

    def test_subgraph_edits(self):
        m = small_model()
        self.addCleanup(m.close)
        node = m.graph.nodes[0]
        body = node.set_attribute("body", None, type="GRAPH")
        body.add_node("Neg", ["x"], ["unused_in_body"])
        body.add_node("Neg", ["x"], ["bo"])
        body.add_output("bo", "FLOAT")
        self.assertEqual(m.remove_unused(graph=body), 1)
        cast = m.insert_cast_after("bo", "FLOAT16", graph=body)
        self.assertEqual(cast.outputs, ["bo"])
        p = attr(proto(m).graph.node[0], "body").g
        self.assertEqual([n.op_type for n in p.node], ["Neg", "Cast"])
        with self.assertRaises(TypeError):
            m.toposort(graph="main")
        with self.assertRaises(ValueError):
            m.toposort(graph=self.m.graph)  # a graph of another model


@unittest.skipIf(onnx is None, "python3-onnx and numpy are not installed")
class TestMisuse(unittest.TestCase):
    def test_closed_model_and_wrong_types(self):
        m = libonnxslim.load(BERT)
        g = m.graph
        node = g.nodes[0]
        tensor = g.initializers[0]
        self.assertRaises(TypeError, g.add_node, "Relu", "x", ["y"])  # a str is not a list
        self.assertRaises(TypeError, g.add_node, None, ["x"], ["y"])
        self.assertRaises(TypeError, g.add_node, "Relu", [1], ["y"])
        self.assertRaises(TypeError, g.remove_node, "node name")
        self.assertRaises(TypeError, g.remove_node, tensor)
        self.assertRaises(TypeError, g.move_node, node, "0")
        self.assertRaises(ValueError, g.move_node, node, -1)
        self.assertRaises(libonnxslim.RangeError, g.move_node, node, 10 ** 6)
        self.assertRaises(TypeError, g.reorder_nodes, [1, 2])
        self.assertRaises(TypeError, g.rename_value, "a", None)
        self.assertRaises(libonnxslim.InvalidArgument, g.rename_value, "a", "")
        self.assertRaises(TypeError, setattr, node, "inputs", None)
        self.assertRaises(TypeError, setattr, node, "name", 5)
        self.assertRaises(TypeError, g.add_input, "x", "FLOAT", "batch")
        self.assertRaises(TypeError, g.add_input, "x", None, [1])
        self.assertRaises(TypeError, g.set_value_type, "logits", "FLOAT", [1.5])
        self.assertRaises(TypeError, m.set_metadata, "k", None)
        self.assertRaises(TypeError, m.save, None)
        self.assertRaises(TypeError, tensor.set_data, "text")
        self.assertRaises(TypeError, tensor.set_data, None)
        self.assertEqual(m.save_bytes(), read(BERT))
        m.close()
        edits = [lambda: g.add_node("Relu", ["x"], ["y"]), lambda: g.remove_node(node),
                 lambda: node.set_attribute("a", 1), lambda: setattr(node, "name", "n"),
                 lambda: tensor.set_data(b"", dtype="FLOAT", shape=[0]),
                 lambda: g.add_initializer("t", b"\0" * 4, dtype="FLOAT", shape=[1]),
                 lambda: m.set_opset("", 18), lambda: m.insert_cast_after("logits", "FLOAT16"),
                 lambda: m.toposort(), lambda: m.convert(to="fp16"), lambda: m.save_size(),
                 lambda: m.save(os.path.join(tempfile.gettempdir(), "never.onnx"))]
        for edit in edits:
            with self.assertRaises(libonnxslim.InvalidArgument) as cm:
                edit()
            self.assertIn("closed", cm.exception.message)

    def test_object_of_another_model_is_refused(self):
        with libonnxslim.load(BERT) as a, libonnxslim.load(BERT) as b:
            with self.assertRaises(libonnxslim.InvalidArgument):
                a.graph.remove_node(b.graph.nodes[0])
            self.assertEqual(len(b.graph.nodes), 58)


@unittest.skipIf(onnx is None, "python3-onnx and numpy are not installed")
class TestSavedFile(unittest.TestCase):
    """An edited model saved to a file reads back in python3-onnx as edited."""

    def test_edits_survive_save_and_reload(self):
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        path = os.path.join(tmp, "edited.onnx")
        with libonnxslim.load(BERT) as m:
            m.graph.add_initializer("w", np.arange(4, dtype=np.float32))
            m.graph.nodes[0].name = "first"
            m.set_metadata("edited", "yes")
            m.save(path)
            want = m.fingerprint()
        p = onnx.load(path)
        onnx.checker.check_model(p)
        self.assertEqual(p.graph.node[0].name, "first")
        np.testing.assert_array_equal(numpy_helper.to_array(p.graph.initializer[-1]), [0, 1, 2, 3])
        with libonnxslim.load(path) as again:
            self.assertEqual(again.fingerprint(), want)


if __name__ == "__main__":
    unittest.main()
