# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""The read API: bert-tiny and a model holding every kind of item, against python3-onnx."""

import os
import shutil
import tempfile
import unittest

import libonnxslim
from helpers import BERT

try:
    import numpy as np
    import onnx
    from onnx import TensorProto as T, helper, numpy_helper
    import views
except ImportError:  # Debian's python3-onnx (and numpy) are test dependencies
    onnx = None


def rich_model():
    """A model with every attribute type, sparse tensors, every kind of type,
    a function, metadata, doc strings and tensors of many dtypes, raw and typed."""
    sub_then = helper.make_graph(
        [helper.make_node("Identity", ["x"], ["t_out"], name="then_id")], "then_g", [],
        [helper.make_tensor_value_info("t_out", T.FLOAT, ["n", 3])])
    sub_else = helper.make_graph(
        [helper.make_node("Neg", ["x"], ["e_out"], name="else_neg")], "else_g", [],
        [helper.make_tensor_value_info("e_out", T.FLOAT, ["n", 3])], doc_string="else doc")
    if_node = helper.make_node("If", ["cond"], ["y"], name="if", then_branch=sub_then,
                               else_branch=sub_else)
    sparse = helper.make_sparse_tensor(
        helper.make_tensor("sp", T.FLOAT, [2], [1.5, -2.0]),
        helper.make_tensor("sp_idx", T.INT64, [2], [1, 4]), [2, 3])
    seq_type = helper.make_sequence_type_proto(helper.make_tensor_type_proto(T.FLOAT, ["n", None]))
    map_type = onnx.TypeProto()
    map_type.map_type.key_type = T.STRING
    map_type.map_type.value_type.CopyFrom(helper.make_tensor_type_proto(T.INT64, []))
    map_type.denotation = "DICT"
    empty_ints = onnx.AttributeProto(name="empty_ints", type=onnx.AttributeProto.INTS)
    kitchen = helper.make_node(
        "Kitchen", ["x", "", "w"], ["k_out", ""], name="kitchen", domain="test.domain",
        doc_string="node doc",
        f=0.1, i=-(2 ** 40), s=b"a\x00b\xff", floats=[1.0, float("nan"), -0.0], ints=[3, -4],
        strings=[b"u", b"", b"\x00"],
        t=numpy_helper.from_array(np.arange(6, dtype=np.float32).reshape(2, 3), "t"),
        tensors=[helper.make_tensor("ta", T.INT32, [2], [5, -6]),
                 helper.make_tensor("tb", T.STRING, [2], [b"p", b"q\x00"])],
        g=sub_then, graphs=[sub_then, sub_else], sparse=sparse, sparses=[sparse, sparse],
        tp=seq_type, tps=[map_type, helper.make_tensor_type_proto(T.BOOL, None)])
    kitchen.attribute.append(empty_ints)
    kitchen.attribute[0].doc_string = "attr doc"
    use = helper.make_node("Add", ["k_out", "w"], ["z"], name="add")
    f_node = helper.make_node("Mul", ["a", "a"], ["b"], name="f_mul")
    f_node.attribute.append(onnx.AttributeProto(name="alpha", ref_attr_name="scale",
                                                type=onnx.AttributeProto.FLOAT))
    func = helper.make_function("test.domain", "Square", ["a"], ["b"], [f_node],
                                [helper.make_opsetid("", 17)], ["scale"], doc_string="fn doc")
    inits = [
        numpy_helper.from_array(np.array([[1, 2], [3, 4]], dtype=np.float32), "w"),
        helper.make_tensor("i64_typed", T.INT64, [3], [1, -2, 2 ** 62]),
        helper.make_tensor("f16_typed", T.FLOAT16, [2], [1.5, -65504.0]),
        helper.make_tensor("bf16_typed", T.BFLOAT16, [2], [1.5, -3.0]),
        helper.make_tensor("bool_typed", T.BOOL, [3], [True, False, True]),
        helper.make_tensor("c64_typed", T.COMPLEX64, [2], [1 + 2j, -3.5j]),
        helper.make_tensor("f64_typed", T.DOUBLE, [2], [0.1, -1e300]),
        helper.make_tensor("u64_typed", T.UINT64, [1], [2 ** 64 - 1]),
        helper.make_tensor("u32_typed", T.UINT32, [1], [2 ** 32 - 1]),
        helper.make_tensor("i8_typed", T.INT8, [2], [-128, 127]),
        helper.make_tensor("u16_typed", T.UINT16, [1], [65535]),
        helper.make_tensor("scalar", T.FLOAT, [], [2.5]),
        helper.make_tensor("empty", T.FLOAT, [0, 3], []),
        helper.make_tensor("strs", T.STRING, [2, 1], [b"hello", b"\x00\xff"]),
        numpy_helper.from_array(np.array([1 - 1j], dtype=np.complex128), "c128_raw"),
        numpy_helper.from_array(np.array([7, 8], dtype=np.uint8), "u8_raw"),
    ]
    inits[0].doc_string = "init doc"
    graph = helper.make_graph(
        [if_node, kitchen, use], "main",
        [helper.make_tensor_value_info("x", T.FLOAT, ["n", 3]),
         helper.make_tensor_value_info("cond", T.BOOL, []),
         onnx.ValueInfoProto(name="untyped"),
         helper.make_value_info("seq", seq_type),
         helper.make_value_info("dict", map_type),
         helper.make_value_info("opt", helper.make_optional_type_proto(seq_type)),
         helper.make_sparse_tensor_value_info("spv", T.FLOAT, [2, "m"])],
        [helper.make_tensor_value_info("y", T.FLOAT, ["n", 3], doc_string="out doc"),
         helper.make_tensor_value_info("z", T.FLOAT, None)],
        initializer=inits, doc_string="graph doc",
        value_info=[helper.make_tensor_value_info("k_out", T.FLOAT, [None, "n"])],
        sparse_initializer=[sparse])
    model = helper.make_model(graph, producer_name="rich", producer_version="1.2",
                              domain="test.models", model_version=42, doc_string="model doc",
                              opset_imports=[helper.make_opsetid("", 17),
                                             helper.make_opsetid("test.domain", 1)],
                              functions=[func])
    helper.set_model_props(model, {"author": "me", "note": "é"})
    return model


@unittest.skipIf(onnx is None, "python3-onnx is not installed")
class TestBertTiny(unittest.TestCase):
    def setUp(self):
        self.ref = onnx.load(BERT)
        self.model = libonnxslim.load(BERT)
        self.addCleanup(self.model.close)

    def test_model_equals_onnx(self):
        got = views.slim_model(self.model)
        self.assertEqual(len(got[-1][2]), 58)  # nodes
        self.assertEqual(got, views.onnx_model(self.ref))

    def test_initializer_values_equal_onnx(self):
        want = {t.name: numpy_helper.to_array(t) for t in self.ref.graph.initializer}
        got = self.model.graph.initializers
        self.assertEqual(len(got), len(want))
        for t in got:
            with self.subTest(name=t.name):
                np.testing.assert_array_equal(t.numpy(), want[t.name])
                self.assertEqual(t.numpy().dtype, want[t.name].dtype)
                self.assertEqual(t.tobytes(), want[t.name].tobytes())
                self.assertEqual((t.size, t.nbytes), (want[t.name].size, want[t.name].nbytes))

    def test_inputs_have_symbolic_dims(self):
        (ids, mask), (logits,) = self.model.graph.inputs, self.model.graph.outputs
        self.assertEqual((ids.name, ids.type.kind, ids.type.dtype, ids.type.shape),
                         ("input_ids", "tensor", "INT64", ("batch", "seq")))
        self.assertEqual(ids.type.elem_type, libonnxslim.DTYPE_INT64)
        self.assertEqual(mask.name, "attention_mask")
        self.assertEqual(logits.type.shape, ("batch", 1))

    def test_load_from_bytes_reads_the_same(self):
        with open(BERT, "rb") as f:
            data = bytearray(f.read())
        with libonnxslim.load(data) as m:
            data[:] = b"\0" * len(data)  # the library copied the bytes
            self.assertEqual(views.slim_model(m), views.onnx_model(self.ref))
            self.assertEqual(m.files, [])
        self.assertEqual(self.model.files, [BERT])


@unittest.skipIf(onnx is None, "python3-onnx is not installed")
class TestRichModel(unittest.TestCase):
    def setUp(self):
        self.ref = rich_model()
        self.model = libonnxslim.load(self.ref.SerializeToString())
        self.addCleanup(self.model.close)
        self.graph = self.model.graph
        self.kitchen = self.graph.find_node("kitchen")

    def test_everything_equals_onnx(self):
        self.assertEqual(views.slim_model(self.model), views.onnx_model(self.ref))

    def test_model_fields(self):
        m = self.model
        self.assertEqual((m.ir_version, m.producer_name, m.producer_version, m.domain,
                          m.model_version, m.doc_string),
                         (self.ref.ir_version, "rich", "1.2", "test.models", 42, "model doc"))
        self.assertEqual(m.opsets, {"": 17, "test.domain": 1})
        self.assertEqual(m.metadata, {"author": "me", "note": "é"})

    def test_function(self):
        (f,) = self.model.functions
        self.assertEqual((f.name, f.domain, f.inputs, f.outputs, f.attributes, f.opsets,
                          f.doc_string),
                         ("Square", "test.domain", ["a"], ["b"], ["scale"], {"": 17}, "fn doc"))
        (n,) = f.nodes
        self.assertEqual((n.op_type, n.inputs, n.graph), ("Mul", ["a", "a"], None))
        a = n.find_attribute("alpha")
        self.assertEqual((a.name, a.type, a.ref_attr_name), ("alpha", "FLOAT", "scale"))

    def test_attribute_values_are_typed(self):
        a = self.kitchen.attributes
        self.assertEqual(list(a)[:3], ["f", "floats", "g"])  # stored order (sorted by helper)
        self.assertIsInstance(a["f"], float)
        self.assertEqual(a["f"], float(np.float32(0.1)))
        self.assertEqual(a["i"], -(2 ** 40))
        self.assertEqual(a["s"], b"a\x00b\xff")
        self.assertEqual(a["floats"][0], 1.0)
        self.assertNotEqual(a["floats"][1], a["floats"][1])  # NaN
        self.assertEqual(a["ints"], [3, -4])
        self.assertEqual(a["empty_ints"], [])
        self.assertEqual(a["strings"], [b"u", b"", b"\x00"])
        self.assertIsInstance(a["t"], libonnxslim.Tensor)
        self.assertEqual(a["t"].numpy().tolist(), [[0, 1, 2], [3, 4, 5]])
        self.assertEqual([t.name for t in a["tensors"]], ["ta", "tb"])
        self.assertEqual(a["tensors"][1].strings, [b"p", b"q\x00"])
        self.assertIsInstance(a["g"], libonnxslim.Graph)
        self.assertEqual([g.name for g in a["graphs"]], ["then_g", "else_g"])
        self.assertIsInstance(a["sparse"], libonnxslim.SparseTensor)
        self.assertEqual(a["sparse"].shape, (2, 3))
        self.assertEqual(a["sparse"].name, "sp")
        self.assertEqual(a["sparse"].indices.numpy().tolist(), [1, 4])
        self.assertEqual(len(a["sparses"]), 2)
        self.assertIsInstance(a["tp"], libonnxslim.Type)
        self.assertEqual((a["tp"].kind, a["tp"].inner.shape), ("sequence", ("n", None)))
        self.assertEqual([t.kind for t in a["tps"]], ["map", "tensor"])

    def test_find_attribute(self):
        a = self.kitchen.find_attribute("f")
        self.assertEqual((a.name, a.type, a.doc_string, a.ref_attr_name),
                         ("f", "FLOAT", "attr doc", ""))
        self.assertEqual(self.kitchen.find_attribute("ints").type, "INTS")
        self.assertIsNone(self.kitchen.find_attribute("nope"))
        self.assertRaises(TypeError, self.kitchen.find_attribute, None)

    def test_node_fields(self):
        k = self.kitchen
        self.assertEqual((k.name, k.op_type, k.domain, k.doc_string, k.inputs, k.outputs),
                         ("kitchen", "Kitchen", "test.domain", "node doc", ["x", "", "w"],
                          ["k_out", ""]))
        self.assertEqual(k.graph, self.graph)

    def test_subgraphs_and_parent(self):
        if_node = self.graph.find_node("if")
        # in attribute order; helper.make_node sorts attributes by name
        self.assertEqual([g.name for g in if_node.subgraphs], ["else_g", "then_g"])
        self.assertEqual([g.name for g in self.kitchen.subgraphs], ["then_g", "then_g", "else_g"])
        for g in if_node.subgraphs + self.kitchen.subgraphs:
            self.assertIn(g.parent_node, (if_node, self.kitchen))
        self.assertIsNone(self.graph.parent_node)
        else_g = if_node.subgraphs[0]
        self.assertEqual(else_g.doc_string, "else doc")
        self.assertEqual(else_g.nodes[0].graph, else_g)

    def test_lookups(self):
        g = self.graph
        self.assertEqual(g.find_node("add").op_type, "Add")
        self.assertIsNone(g.find_node("nope"))
        self.assertIsNone(g.find_node("then_id"))  # in a subgraph only
        self.assertEqual(g.find_initializer("w").doc_string, "init doc")
        self.assertIsNone(g.find_initializer("x"))
        self.assertEqual(g.find_value_info("k_out").type.shape, (None, "n"))
        self.assertEqual(g.find_value_info("y").doc_string, "out doc")
        self.assertIsNone(g.find_value_info("nope"))
        self.assertRaises(TypeError, g.find_node, 3)

    def test_producer_and_consumers(self):
        g = self.graph
        self.assertEqual(g.producer("k_out"), self.kitchen)
        self.assertIsNone(g.producer("x"))  # a graph input
        self.assertIsNone(g.producer("nope"))
        # "x": the If captures it in both branches, kitchen lists it
        self.assertEqual([n.name for n in g.consumers("x")], ["if", "kitchen"])
        self.assertEqual([n.name for n in g.consumers("w")], ["kitchen", "add"])
        self.assertEqual(g.consumers("z"), [])
        self.assertEqual(g.consumers("nope"), [])

    def test_value_infos_and_types(self):
        g = self.graph
        ins = {v.name: v for v in g.inputs}
        self.assertEqual(list(ins), ["x", "cond", "untyped", "seq", "dict", "opt", "spv"])
        self.assertIsNone(ins["untyped"].type)
        self.assertEqual(ins["cond"].type.shape, ())
        seq = ins["seq"].type
        self.assertEqual((seq.kind, seq.elem_type, seq.shape, seq.inner.dtype),
                         ("sequence", 0, None, "FLOAT"))
        d = ins["dict"].type
        self.assertEqual((d.kind, d.dtype, d.denotation, d.inner.dtype, d.inner.shape),
                         ("map", "STRING", "DICT", "INT64", ()))
        opt = ins["opt"].type
        self.assertEqual((opt.kind, opt.inner.kind, opt.inner.inner.shape),
                         ("optional", "sequence", ("n", None)))
        self.assertEqual((ins["spv"].type.kind, ins["spv"].type.shape),
                         ("sparse_tensor", (2, "m")))
        self.assertIsNone(ins["x"].type.inner)
        self.assertIsNone(g.outputs[1].type.shape)  # no shape: rank unknown

    def test_tensor_fields(self):
        g = self.graph
        w = g.find_initializer("w")
        self.assertEqual((w.dtype, w.elem_type, w.shape, w.size, w.nbytes, w.storage),
                         ("FLOAT", libonnxslim.DTYPE_FLOAT, (2, 2), 4, 16, "raw"))
        self.assertEqual(g.find_initializer("i64_typed").storage, "typed")
        scalar = g.find_initializer("scalar")
        self.assertEqual((scalar.shape, scalar.size, scalar.numpy().shape), ((), 1, ()))
        empty = g.find_initializer("empty")
        self.assertEqual((empty.size, empty.nbytes, empty.storage, empty.numpy().shape),
                         (0, 0, "none", (0, 3)))
        strs = g.find_initializer("strs")
        self.assertEqual(strs.strings, [b"hello", b"\x00\xff"])
        self.assertEqual(strs.numpy().tolist(), [[b"hello"], [b"\x00\xff"]])
        self.assertRaises(libonnxslim.Unsupported, lambda: strs.nbytes)
        with self.assertRaises(libonnxslim.TypeMismatch):
            w.strings
        (sp,) = g.sparse_initializers
        self.assertEqual((sp.name, sp.shape, sp.values.numpy().tolist()),
                         ("sp", (2, 3), [1.5, -2.0]))

    def test_closed_model_raises(self):
        items = [self.kitchen, self.graph.inputs[0], self.graph.inputs[0].type,
                 self.kitchen.find_attribute("f"), self.graph.sparse_initializers[0],
                 self.model.functions[0]]
        self.model.close()
        uses = [lambda: items[0].attributes, lambda: items[1].type, lambda: items[2].shape,
                lambda: items[3].value, lambda: items[4].values, lambda: items[5].nodes,
                lambda: self.model.opsets, lambda: self.model.metadata,
                lambda: self.graph.find_node("add"), lambda: self.graph.consumers("x")]
        for use in uses:
            with self.assertRaises(libonnxslim.InvalidArgument):
                use()
        for item in items:
            self.assertIn("closed", repr(item))


class TestFiles(unittest.TestCase):
    def test_external_data_file_is_listed(self):
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        path = os.path.join(tmp, "m.onnx")
        with libonnxslim.load(BERT) as m:
            m.save(path, layout=libonnxslim.LAYOUT_ONE_FILE, threshold=0)
        with libonnxslim.load(path) as m:
            self.assertEqual(m.files, [path, os.path.realpath(path + ".data")])
            self.assertEqual(m.graph.initializers[0].storage, "external")


if __name__ == "__main__":
    unittest.main()
