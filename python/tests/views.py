# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""A model as plain Python values, read once by python3-onnx and once by libonnxslim.

onnx_model() and slim_model() build the same nested tuples from the two
readers, so a test compares them with one assertEqual: the model's fields,
opsets, metadata, functions and the graph with its nodes, attributes (typed
values, nested tensors and subgraphs, recursively), initializers (dtype,
shape, values), sparse initializers and inputs/outputs/value_info with their
types (symbolic dims too). Floats are compared as their float32 bits, tensor
values as (numpy dtype, shape, bytes), so NaNs compare equal.
"""

import struct

import numpy as np
import onnx
from onnx import numpy_helper

_AT = onnx.AttributeProto
_BF16 = onnx.TensorProto.BFLOAT16
_STRING = onnx.TensorProto.STRING
_COMPLEX = {onnx.TensorProto.COMPLEX64: ("float_data", ("<f4", "<c8")),
            onnx.TensorProto.COMPLEX128: ("double_data", ("<f8", "<c16"))}
_KINDS = {"tensor_type": "tensor", "sequence_type": "sequence", "map_type": "map",
          "optional_type": "optional", "sparse_tensor_type": "sparse_tensor"}


def f32(x):
    """The float32 bits of x (a float read from a float32 field)."""
    return struct.pack("<f", x)


def array_view(arr):
    """(dtype, shape, bytes) of a numpy array; object arrays (STRING) as a list."""
    if arr.dtype == object:
        return ("object", arr.shape, list(arr.ravel()))
    return (arr.dtype.str, arr.shape, arr.tobytes())


# ---- python3-onnx --------------------------------------------------------------

def onnx_values(t):
    if t.data_type == _STRING:
        arr = np.empty(len(t.string_data), dtype=object)
        arr[:] = list(t.string_data)
        return array_view(arr.reshape(tuple(t.dims)))
    if t.data_type in _COMPLEX and not t.raw_data:
        # onnx 1.12's to_array fails on typed complex data: pairs of float_data
        # (COMPLEX64) or double_data (COMPLEX128), real part first
        pairs, dtype = _COMPLEX[t.data_type]
        arr = np.array(getattr(t, pairs), dtype=dtype[0]).view(dtype[1])
        return array_view(arr.reshape(tuple(t.dims)))
    arr = numpy_helper.to_array(t)
    if t.data_type == _BF16:  # onnx 1.12 widens bfloat16 to float32: keep the bits
        arr = (arr.astype("<f4").view("<u4") >> 16).astype("<u2")
    return array_view(arr)


def onnx_storage(t):
    if t.data_location == onnx.TensorProto.EXTERNAL:
        return "external"
    if t.raw_data:
        return "raw"
    for field in ("float_data", "int32_data", "string_data", "int64_data", "double_data",
                  "uint64_data"):
        if len(getattr(t, field)):
            return "typed"
    return "none"


def onnx_tensor(t):
    return (t.name, t.data_type, tuple(t.dims), t.doc_string, onnx_storage(t), onnx_values(t))


def onnx_sparse(s):
    return (onnx_tensor(s.values) if s.HasField("values") else None,
            onnx_tensor(s.indices) if s.HasField("indices") else None, tuple(s.dims))


def onnx_type(tp):
    which = tp.WhichOneof("value")
    kind = _KINDS.get(which, "unknown")
    elem, shape, inner = 0, None, None
    if kind in ("tensor", "sparse_tensor"):
        t = getattr(tp, which)
        elem = t.elem_type
        if t.HasField("shape"):
            shape = tuple(getattr(d, d.WhichOneof("value")) if d.WhichOneof("value") else None
                          for d in t.shape.dim)
    elif kind in ("sequence", "optional"):
        t = getattr(tp, which)
        inner = onnx_type(t.elem_type) if t.HasField("elem_type") else None
    elif kind == "map":
        elem = tp.map_type.key_type
        inner = onnx_type(tp.map_type.value_type) if tp.map_type.HasField("value_type") else None
    return (kind, elem, shape, tp.denotation, inner)


def onnx_value_info(v):
    return (v.name, v.doc_string, onnx_type(v.type) if v.HasField("type") else None)


def onnx_attr_value(a):
    t = a.type
    if t == _AT.FLOAT:
        return f32(a.f)
    if t == _AT.INT:
        return a.i
    if t == _AT.STRING:
        return a.s
    if t == _AT.TENSOR:
        return onnx_tensor(a.t)
    if t == _AT.GRAPH:
        return onnx_graph(a.g)
    if t == _AT.SPARSE_TENSOR:
        return onnx_sparse(a.sparse_tensor)
    if t == _AT.TYPE_PROTO:
        return onnx_type(a.tp)
    if t == _AT.FLOATS:
        return [f32(x) for x in a.floats]
    if t == _AT.INTS:
        return list(a.ints)
    if t == _AT.STRINGS:
        return list(a.strings)
    if t == _AT.TENSORS:
        return [onnx_tensor(x) for x in a.tensors]
    if t == _AT.GRAPHS:
        return [onnx_graph(x) for x in a.graphs]
    if t == _AT.SPARSE_TENSORS:
        return [onnx_sparse(x) for x in a.sparse_tensors]
    if t == _AT.TYPE_PROTOS:
        return [onnx_type(x) for x in a.type_protos]
    return None


def onnx_attr(a):
    return (a.name, _AT.AttributeType.Name(a.type), a.ref_attr_name, a.doc_string,
            onnx_attr_value(a))


def onnx_node(n):
    return (n.name, n.op_type, n.domain, n.doc_string, list(n.input), list(n.output),
            [onnx_attr(a) for a in n.attribute])


def onnx_graph(g):
    return (g.name, g.doc_string, [onnx_node(n) for n in g.node],
            [onnx_tensor(t) for t in g.initializer],
            [onnx_sparse(s) for s in g.sparse_initializer],
            [onnx_value_info(v) for v in g.input], [onnx_value_info(v) for v in g.output],
            [onnx_value_info(v) for v in g.value_info])


def onnx_function(f):
    return (f.name, f.domain, f.doc_string, list(f.input), list(f.output), list(f.attribute),
            [onnx_node(n) for n in f.node], {o.domain: o.version for o in f.opset_import})


def onnx_model(m):
    return (m.ir_version, {o.domain: o.version for o in m.opset_import}, m.producer_name,
            m.producer_version, m.domain, m.model_version, m.doc_string,
            {p.key: p.value for p in m.metadata_props}, [onnx_function(f) for f in m.functions],
            onnx_graph(m.graph))


# ---- libonnxslim --------------------------------------------------------------------

def slim_tensor(t):
    return (t.name, t.elem_type, t.shape, t.doc_string, t.storage, array_view(t.numpy()))


def slim_sparse(s):
    values, indices = s.values, s.indices
    return (None if values is None else slim_tensor(values),
            None if indices is None else slim_tensor(indices), s.shape)


def slim_type(tp):
    inner = tp.inner
    return (tp.kind, tp.elem_type, tp.shape, tp.denotation,
            None if inner is None else slim_type(inner))


def slim_value_info(v):
    tp = v.type
    return (v.name, v.doc_string, None if tp is None else slim_type(tp))


def slim_attr_value(kind, value):
    one = {"FLOAT": f32, "TENSOR": slim_tensor, "GRAPH": slim_graph,
           "SPARSE_TENSOR": slim_sparse, "TYPE_PROTO": slim_type}
    many = {"FLOATS": f32, "TENSORS": slim_tensor, "GRAPHS": slim_graph,
            "SPARSE_TENSORS": slim_sparse, "TYPE_PROTOS": slim_type}
    if kind in one:
        return one[kind](value)
    if kind in many:
        return [many[kind](x) for x in value]
    return value


def slim_attr(a):
    return (a.name, a.type, a.ref_attr_name, a.doc_string, slim_attr_value(a.type, a.value))


def slim_node(n):
    attrs = []
    for name in n.attributes:
        a = n.find_attribute(name)
        attrs.append(slim_attr(a))
    return (n.name, n.op_type, n.domain, n.doc_string, n.inputs, n.outputs, attrs)


def slim_graph(g):
    return (g.name, g.doc_string, [slim_node(n) for n in g.nodes],
            [slim_tensor(t) for t in g.initializers],
            [slim_sparse(s) for s in g.sparse_initializers],
            [slim_value_info(v) for v in g.inputs], [slim_value_info(v) for v in g.outputs],
            [slim_value_info(v) for v in g.value_info])


def slim_function(f):
    return (f.name, f.domain, f.doc_string, f.inputs, f.outputs, f.attributes,
            [slim_node(n) for n in f.nodes], f.opsets)


def slim_model(m):
    return (m.ir_version, m.opsets, m.producer_name, m.producer_version, m.domain,
            m.model_version, m.doc_string, m.metadata, [slim_function(f) for f in m.functions],
            slim_graph(m.graph))
