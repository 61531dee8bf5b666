#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Write small ONNX models that exercise corners of the read API.

Used by test/steps/30-read-api-vs-onnx.sh, which dumps each model with
test/dump_model.c (libonnxslim) and test/dump_model.py (python onnx) and
compares the dumps. The models are not meant to run; several are
deliberately odd (size mismatches, unknown data types, duplicate names) but
every one is well-formed protobuf that python onnx 1.12 can load.

Usage:
    make_read_api_models.py OUTDIR

Needs Debian's python3-onnx and python3-numpy (run with /usr/bin/python3).
"""

import os
import struct
import sys

import numpy as np
import onnx
from onnx import AttributeProto, TensorProto, helper, numpy_helper

T = TensorProto


def tensor(name, dtype, dims, **fields):
    """A TensorProto with the given fields set verbatim."""
    t = TensorProto()
    t.name = name
    t.data_type = dtype
    t.dims.extend(dims)
    for k, v in fields.items():
        if k == "raw_data":
            t.raw_data = v
        elif k == "doc_string":
            t.doc_string = v
        elif k == "data_location":
            t.data_location = v
        elif k == "external_data":
            for key, val in v:
                e = t.external_data.add()
                e.key = key
                e.value = val
        else:
            getattr(t, k).extend(v)
    return t


def model(graph, **kw):
    kw.setdefault("opset_imports", [helper.make_opsetid("", 17)])
    m = helper.make_model(graph, producer_name="make_read_api_models", **kw)
    m.ir_version = 8
    return m


# ---- tensors ---------------------------------------------------------------

def tensors_model():
    inits = []
    rng = np.random.default_rng(7)
    # every numpy-expressible type as raw_data (numpy_helper.from_array)
    for np_t in (np.float32, np.uint8, np.int8, np.uint16, np.int16, np.int32, np.int64,
                 np.bool_, np.float16, np.float64, np.uint32, np.uint64, np.complex64,
                 np.complex128):
        arr = (rng.standard_normal((2, 3)) * 50).astype(np_t)
        inits.append(numpy_helper.from_array(arr, "raw_" + np.dtype(np_t).name))
    # typed fields (helper.make_tensor with raw=False)
    vals = [0.5, -1.25, 3.0, 65504.0, -0.0, 1e-3]
    inits.append(helper.make_tensor("typed_float", T.FLOAT, [2, 3], vals))
    inits.append(helper.make_tensor("typed_float16", T.FLOAT16, [2, 3],
                                    np.array(vals, dtype=np.float16)))
    inits.append(helper.make_tensor("typed_bfloat16", T.BFLOAT16, [2, 3], vals))
    inits.append(helper.make_tensor("typed_double", T.DOUBLE, [3], [1.5, -2.0, 1e300]))
    inits.append(helper.make_tensor("typed_complex64", T.COMPLEX64, [2],
                                    [complex(1, 2), complex(-3.5, 0.25)]))
    inits.append(helper.make_tensor("typed_complex128", T.COMPLEX128, [1], [complex(1e-300, 7)]))
    inits.append(helper.make_tensor("typed_int8", T.INT8, [4], [-128, -1, 0, 127]))
    inits.append(helper.make_tensor("typed_uint8", T.UINT8, [3], [0, 128, 255]))
    inits.append(helper.make_tensor("typed_int16", T.INT16, [2], [-32768, 32767]))
    inits.append(helper.make_tensor("typed_uint16", T.UINT16, [2], [0, 65535]))
    inits.append(helper.make_tensor("typed_int32", T.INT32, [3], [-2**31, 2**31 - 1, 5]))
    inits.append(helper.make_tensor("typed_int64", T.INT64, [3], [-2**63, 2**63 - 1, -7]))
    inits.append(helper.make_tensor("typed_uint32", T.UINT32, [2], [0, 2**32 - 1]))
    inits.append(helper.make_tensor("typed_uint64", T.UINT64, [2], [1, 2**64 - 1]))
    inits.append(helper.make_tensor("typed_bool", T.BOOL, [3], [True, False, True]))
    inits.append(tensor("typed_scalar", T.FLOAT, [], float_data=[42.0]))
    # raw BFLOAT16 (numpy has no bfloat16)
    inits.append(tensor("raw_bfloat16", T.BFLOAT16, [3],
                        raw_data=struct.pack("<3H", 0x3F80, 0xC000, 0x7FC0)))
    # strings
    inits.append(tensor("strings", T.STRING, [4],
                        string_data=[b"abc", b"", b"\x00\xff\"\\", "h\u00e9".encode()]))
    inits.append(tensor("strings_empty", T.STRING, [0]))
    # empty tensors and missing data
    inits.append(tensor("empty_float", T.FLOAT, [0, 3]))
    inits.append(tensor("empty_raw", T.INT64, [2, 0], raw_data=b""))
    inits.append(tensor("no_data", T.FLOAT, [2]))
    inits.append(tensor("huge_no_data", T.FLOAT, [1000000000, 1000]))
    # size mismatches
    inits.append(tensor("raw_short", T.FLOAT, [3], raw_data=b"\0" * 8))
    inits.append(tensor("raw_long", T.INT16, [1], raw_data=b"\0" * 4))
    inits.append(tensor("typed_short", T.FLOAT, [3], float_data=[1.0]))
    inits.append(tensor("typed_wrong_field", T.FLOAT, [2], int64_data=[1, 2]))
    inits.append(tensor("int64_short", T.INT64, [3], int64_data=[1, 2]))
    # data types without a byte layout or unknown to onnx 1.12
    inits.append(tensor("undefined_type", T.UNDEFINED, [2], raw_data=b"ab"))
    inits.append(tensor("type_99", 99, [2], raw_data=b"ab"))
    inits.append(tensor("type_minus_1", -1, [1], raw_data=b"a"))
    for dt, n, nbytes in ((17, 3, 3), (18, 2, 2), (19, 4, 4), (20, 1, 1),
                          (21, 5, 3), (22, 4, 2), (23, 3, 2)):
        inits.append(tensor("raw_type_%d" % dt, dt, [n], raw_data=bytes(range(7, 7 + nbytes))))
        inits.append(tensor("typed_type_%d" % dt, dt, [n],
                            int32_data=[(37 * i + dt) & 0xFF for i in range(nbytes)]))
    inits.append(tensor("raw_type_17_short", 17, [3], raw_data=b"xy"))
    inits.append(tensor("typed_type_22_long", 22, [4], int32_data=[1, 2, 3]))
    # external data: weights.bin (written next to the model by main) holds
    # 16 bytes; the loader resolves and maps it
    inits.append(tensor("external", T.FLOAT, [4], data_location=T.EXTERNAL,
                        external_data=[("location", "weights.bin"), ("offset", "0"),
                                       ("length", "16")]))
    inits.append(tensor("with_doc", T.INT32, [1], int32_data=[3], doc_string="a \"doc\"\n"))
    # raw_data wins over typed fields when both are present
    inits.append(tensor("raw_and_typed", T.FLOAT, [1], raw_data=struct.pack("<f", 2.5),
                        float_data=[9.0]))

    consts = [
        helper.make_node("Constant", [], ["c_%d" % i], name="const_%d" % i, value=t)
        for i, t in enumerate([
            helper.make_tensor("cv_f16", T.FLOAT16, [2], np.array([1.0, -2.0], np.float16)),
            tensor("cv_bf16", T.BFLOAT16, [2], int32_data=[0x3F80, 0x4049]),
            tensor("cv_str", T.STRING, [], string_data=[b"scalar"]),
            tensor("cv_bad", T.DOUBLE, [2], double_data=[1.0]),
        ])
    ]
    nodes = consts + [
        helper.make_node("Add", ["raw_float32", "typed_float"], ["sum"], name="add"),
        helper.make_node("Identity", ["sum"], ["out"], name="id"),
    ]
    g = helper.make_graph(
        nodes, "tensors",
        [helper.make_tensor_value_info("raw_float32", T.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("out", T.FLOAT, [2, 3])],
        initializer=inits)
    return model(g)


# ---- attributes ------------------------------------------------------------

def raw_attr(name, **fields):
    """An AttributeProto with exactly the given fields (type may be left out)."""
    a = AttributeProto()
    a.name = name
    for k, v in fields.items():
        if k in ("floats", "ints", "strings", "tensors", "graphs", "sparse_tensors",
                 "type_protos"):
            getattr(a, k).extend(v)
        elif k in ("t", "g", "sparse_tensor", "tp"):
            getattr(a, k).CopyFrom(v)
        else:
            setattr(a, k, v)
    return a


def small_graph(name, inp, out):
    return helper.make_graph(
        [helper.make_node("Identity", [inp], [out])], name,
        [helper.make_tensor_value_info(inp, T.FLOAT, [1])],
        [helper.make_tensor_value_info(out, T.FLOAT, [1])])


def sparse(name, values, indices, dims):
    return helper.make_sparse_tensor(
        helper.make_tensor(name, T.FLOAT, [len(values)], values),
        helper.make_tensor(name + "_idx", T.INT64, [len(indices)], indices), dims)


def attrs_model():
    inf = float("inf")
    attrs = [
        helper.make_attribute("f_half", 0.5),
        helper.make_attribute("f_tenth", 0.1),
        helper.make_attribute("f_nan", float("nan")),
        helper.make_attribute("f_neg_nan", -float("nan")),
        helper.make_attribute("f_inf", inf),
        helper.make_attribute("f_ninf", -inf),
        helper.make_attribute("f_negzero", -0.0),
        helper.make_attribute("f_denorm", 1e-45),
        helper.make_attribute("f_max", 3.4028234663852886e38),
        helper.make_attribute("i_min", -2**63),
        helper.make_attribute("i_max", 2**63 - 1),
        helper.make_attribute("s_bytes", b"\x00\x01\xff\"\\ end"),
        helper.make_attribute("s_utf8", "gr\u00fc\u00df \u4e16"),
        helper.make_attribute("s_empty", b""),
        helper.make_attribute("floats", [1.0, float("nan"), -inf, 1e-38, 16777217.0]),
        helper.make_attribute("ints", [0, -1, 2**40, -2**63]),
        raw_attr("ints_empty", type=AttributeProto.INTS),
        helper.make_attribute("strings", [b"a", b"", b"\n\t"]),
        helper.make_attribute("t", helper.make_tensor("attr_t", T.INT32, [2], [4, 5])),
        helper.make_attribute("tensors", [helper.make_tensor("l0", T.FLOAT, [1], [1.0]),
                                          tensor("l1", T.UINT8, [2], raw_data=b"\x01\x02")]),
        helper.make_attribute("g", small_graph("attr_g", "gi", "go")),
        helper.make_attribute("graphs", [small_graph("gl0", "a0", "b0"),
                                         small_graph("gl1", "a1", "b1")]),
        helper.make_attribute("sparse", sparse("sp", [1.5, 2.5], [0, 3], [5])),
        helper.make_attribute("sparses", [sparse("sp0", [1.0], [2], [3]),
                                          sparse("sp1", [], [], [0])]),
        raw_attr("tp", type=AttributeProto.TYPE_PROTO,
                 tp=helper.make_sequence_type_proto(
                     helper.make_tensor_type_proto(T.INT64, ["n", None, 3]))),
        raw_attr("tps", type=AttributeProto.TYPE_PROTOS,
                 type_protos=[helper.make_tensor_type_proto(T.BOOL, []),
                              helper.make_optional_type_proto(
                                  helper.make_tensor_type_proto(T.FLOAT, None))]),
        # no type field: the type is inferred from the value field
        raw_attr("untyped_i", i=17),
        raw_attr("untyped_f", f=2.0),
        raw_attr("untyped_s", s=b"x"),
        raw_attr("untyped_ints", ints=[3, 4]),
        raw_attr("untyped_t", t=helper.make_tensor("ut", T.INT64, [1], [9])),
        raw_attr("untyped_g", g=small_graph("ug", "ui", "uo")),
        raw_attr("untyped_nothing"),
        # a type without its value field, and an explicit UNDEFINED type
        raw_attr("float_no_value", type=AttributeProto.FLOAT),
        raw_attr("tensor_no_value", type=AttributeProto.TENSOR),
        raw_attr("graph_no_value", type=AttributeProto.GRAPH),
        raw_attr("explicit_undefined", type=AttributeProto.UNDEFINED, i=5),
        # type disagrees with the field that is set
        raw_attr("int_but_f", type=AttributeProto.INT, f=1.5),
        raw_attr("with_doc", type=AttributeProto.INT, i=1, doc_string="attr doc"),
        raw_attr("dup", type=AttributeProto.INT, i=1),
        raw_attr("dup", type=AttributeProto.INT, i=2),
    ]
    n = helper.make_node("Custom", ["x", "", "x"], ["y", ""], name="custom",
                         domain="com.example", doc_string="node \x01 doc")
    n.attribute.extend(attrs)
    g = helper.make_graph(
        [n, helper.make_node("Identity", ["y"], ["z"], name="")], "attrs",
        [helper.make_tensor_value_info("x", T.FLOAT, [1])],
        [helper.make_tensor_value_info("z", T.FLOAT, [1])], doc_string="graph doc")
    return model(g, opset_imports=[helper.make_opsetid("", 17),
                                   helper.make_opsetid("com.example", 1)])


# ---- types -----------------------------------------------------------------

def types_model():
    tt = helper.make_tensor_type_proto
    seq = helper.make_sequence_type_proto
    opt = helper.make_optional_type_proto
    vi = helper.make_value_info

    map_t = onnx.TypeProto()
    map_t.map_type.key_type = T.INT64
    map_t.map_type.value_type.CopyFrom(seq(tt(T.FLOAT, [2])))
    map_no_value = onnx.TypeProto()
    map_no_value.map_type.key_type = T.STRING
    seq_empty = onnx.TypeProto()
    seq_empty.sequence_type.SetInParent()
    opt_empty = onnx.TypeProto()
    opt_empty.optional_type.SetInParent()
    sparse_t = onnx.TypeProto()
    sparse_t.sparse_tensor_type.elem_type = T.FLOAT
    sparse_t.sparse_tensor_type.shape.dim.add().dim_value = 10
    sparse_t.sparse_tensor_type.shape.dim.add().dim_param = "k"
    sparse_noshape = onnx.TypeProto()
    sparse_noshape.sparse_tensor_type.elem_type = T.INT8
    opaque = onnx.TypeProto()
    opaque.opaque_type.domain = "com.example"
    opaque.opaque_type.name = "Thing"
    denot = tt(T.UINT8, [1, 3, 224, 224])
    denot.denotation = "IMAGE"
    weird_dims = tt(T.FLOAT, [0, -1, 2**62])
    weird_dims.tensor_type.shape.dim[0].denotation = "DATA_BATCH"
    new_elem = tt(19, ["s"])
    no_type = onnx.ValueInfoProto()
    no_type.name = "no_type"
    empty_type = onnx.ValueInfoProto()
    empty_type.name = "empty_type"
    empty_type.type.SetInParent()
    with_doc = vi("with_doc", tt(T.FLOAT, None), doc_string="value doc")

    inputs = [
        vi("scalar", tt(T.FLOAT, [])),
        vi("noshape", tt(T.INT32, None)),
        vi("mixed", tt(T.FLOAT, ["batch", None, 7, "h\u00e9"])),
        vi("seq_t", seq(tt(T.FLOAT, [3]))),
        vi("seq_seq", seq(seq(tt(T.INT64, None)))),
        vi("map", map_t),
        vi("map_no_value", map_no_value),
        vi("opt_t", opt(tt(T.BOOL, [1]))),
        vi("opt_seq", opt(seq(tt(T.STRING, [])))),
        vi("seq_empty", seq_empty),
        vi("opt_empty", opt_empty),
        vi("sparse", sparse_t),
        vi("sparse_noshape", sparse_noshape),
        vi("opaque", opaque),
        vi("denot", denot),
        vi("weird_dims", weird_dims),
        vi("new_elem", new_elem),
        no_type,
        empty_type,
        with_doc,
    ]
    # dims: a dim with neither value nor param inside a shape
    unknown = tt(T.FLOAT, [1])
    unknown.tensor_type.shape.dim.add()
    inputs.append(vi("unknown_dim", unknown))
    nodes = [helper.make_node("Identity", [v.name], [v.name + "_out"], name="id_" + v.name)
             for v in inputs]
    outputs = [vi(v.name + "_out", v.type) if v.HasField("type") else
               helper.make_empty_tensor_value_info(v.name + "_out") for v in inputs[:6]]
    value_info = [vi(v.name + "_out", v.type) for v in inputs[6:12]]
    # the same name as an input, an output and a value_info entry
    outputs.append(vi("scalar", tt(T.DOUBLE, [])))
    value_info.append(vi("scalar", tt(T.INT8, [])))
    value_info.append(vi("seq_t_out", tt(T.INT8, [])))
    g = helper.make_graph(nodes, "types", inputs, outputs, value_info=value_info)
    return model(g)


# ---- model fields, functions -----------------------------------------------

def functions_model():
    fn_body = [
        helper.make_node("Constant", [], ["k"], value_float=2.0),
        helper.make_node("Mul", ["a", "k"], ["m"]),
        helper.make_node("LeakyRelu", ["m"], ["r"]),
        helper.make_node("If", ["c"], ["o"],
                         then_branch=small_graph("fthen", "ti", "to"),
                         else_branch=small_graph("felse", "ei", "eo")),
    ]
    ref = AttributeProto()
    ref.name = "alpha"
    ref.ref_attr_name = "slope"
    ref.type = AttributeProto.FLOAT
    fn_body[2].attribute.append(ref)
    fn = helper.make_function("com.example", "ScaledRelu", ["a", "c"], ["r", "o"], fn_body,
                              [helper.make_opsetid("", 17), helper.make_opsetid("ai.x", 2)],
                              attributes=["slope", "unused"])
    fn.doc_string = "function doc"
    fn2 = onnx.FunctionProto()
    fn2.name = "Empty"
    g = helper.make_graph(
        [helper.make_node("ScaledRelu", ["x", "c"], ["y", "o"], domain="com.example",
                          slope=0.25)],
        "with_functions",
        [helper.make_tensor_value_info("x", T.FLOAT, [4]),
         helper.make_tensor_value_info("c", T.BOOL, [])],
        [helper.make_tensor_value_info("y", T.FLOAT, [4]),
         helper.make_tensor_value_info("o", T.FLOAT, [1])])
    m = model(g, opset_imports=[helper.make_opsetid("", 17),
                                helper.make_opsetid("com.example", 1)],
              functions=[fn, fn2])
    m.producer_version = "1.2.3"
    m.domain = "org.example.tests"
    m.model_version = 42
    m.doc_string = "model doc with \"quotes\" and\nnewline"
    helper.set_model_props(m, {"author": "tests", "empty": "", "k\u00e9y": "v\x01"})
    return m


def bare_model():
    m = onnx.ModelProto()
    m.ir_version = 3
    return m


# ---- lookups: producers, consumers, captures, duplicates ------------------

def captures_model():
    vi = helper.make_tensor_value_info
    # If nested in a Loop body: both capture from the main graph
    then_g = helper.make_graph(
        [helper.make_node("Add", ["y", "b"], ["t"], name="then_add")], "then",
        [], [vi("t", T.FLOAT, [1])])
    # an If branch whose output is an outer value (no node)
    else_g = helper.make_graph([], "else", [], [vi("z", T.FLOAT, [1])])
    body = helper.make_graph(
        [helper.make_node("Mul", ["v_in", "x"], ["b"], name="body_mul"),
         helper.make_node("If", ["cond_in"], ["v_out"], name="body_if",
                          then_branch=then_g, else_branch=else_g),
         helper.make_node("Identity", ["cond_in"], ["cond_out"], name="body_cond")],
        "body",
        [vi("iter", T.INT64, []), vi("cond_in", T.BOOL, []), vi("v_in", T.FLOAT, [1])],
        [vi("cond_out", T.BOOL, []), vi("v_out", T.FLOAT, [1])])
    # a subgraph with its own initializer and sparse initializer shadowing
    # nothing, and a node that uses the same outer value as input and capture
    inner_init = helper.make_graph(
        [helper.make_node("Add", ["w", "x"], ["s1"], name="in_add"),
         helper.make_node("Add", ["s1", "spi"], ["s2"], name="in_add2")], "inner_init",
        [], [vi("s2", T.FLOAT, [1])],
        initializer=[helper.make_tensor("w", T.FLOAT, [1], [1.0])],
        sparse_initializer=[sparse("spi", [3.0], [0], [1])])
    graphs_user = helper.make_node("Multi", ["x"], ["mo"], name="multi", domain="com.example")
    graphs_user.attribute.append(helper.make_attribute(
        "bodies", [helper.make_graph([helper.make_node("Neg", ["q"], ["nq"])], "gq",
                                     [], [vi("nq", T.FLOAT, [1])]),
                   helper.make_graph([helper.make_node("Neg", ["x"], ["nx"])], "gx",
                                     [], [vi("nx", T.FLOAT, [1])])]))
    nodes = [
        helper.make_node("Loop", ["", "cond", "v0"], ["v_final"], name="loop", body=body),
        helper.make_node("If", ["cond"], ["s2"], name="if_inner", then_branch=inner_init,
                         else_branch=helper.make_graph([], "else2", [],
                                                       [vi("x", T.FLOAT, [1])])),
        graphs_user,
        helper.make_node("Add", ["x", "x"], ["dup"], name="dup_node"),
        helper.make_node("Sub", ["dup", "spw"], ["dup"], name="dup_node"),
        helper.make_node("Identity", ["init"], ["from_init"], name="use_init"),
        helper.make_node("Identity", ["", "missing"], ["", "o2"]),
        helper.make_node("Identity", ["q"], ["q2"], name="qq"),
    ]
    g = helper.make_graph(
        nodes, "captures",
        [vi("x", T.FLOAT, [1]), vi("y", T.FLOAT, [1]), vi("z", T.FLOAT, [1]),
         vi("q", T.FLOAT, [1]), vi("cond", T.BOOL, []), vi("v0", T.FLOAT, [1]),
         vi("x", T.DOUBLE, [1])],
        [vi("v_final", T.FLOAT, [1]), vi("dup", T.FLOAT, [1])],
        initializer=[helper.make_tensor("init", T.FLOAT, [1], [1.0]),
                     helper.make_tensor("init", T.FLOAT, [1], [2.0]),
                     helper.make_tensor("v0", T.FLOAT, [1], [0.0])],
        value_info=[vi("b", T.FLOAT, [1]), vi("dup", T.FLOAT, [1])],
        sparse_initializer=[sparse("spw", [1.0, 2.0], [0, 1], [2, 2])])
    return model(g, opset_imports=[helper.make_opsetid("", 17),
                                   helper.make_opsetid("com.example", 1)])


def main(argv):
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    out = argv[1]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "weights.bin"), "wb") as f:
        f.write(struct.pack("<4f", 1.5, -2.0, 0.25, 1e30))
    for name, fn in (("tensors", tensors_model), ("attrs", attrs_model),
                     ("types", types_model), ("functions", functions_model),
                     ("bare", bare_model), ("captures", captures_model)):
        with open(os.path.join(out, name + ".onnx"), "wb") as f:
            f.write(fn().SerializeToString())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
