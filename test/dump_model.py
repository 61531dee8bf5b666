#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Canonical text dump of an ONNX model with the python onnx package.

Prints exactly what test/dump_model.c prints through the libonnxslim read API
(see the format rules at the top of that file), so that
test/steps/30-read-api-vs-onnx.sh can compare the two.

Usage:
    dump_model.py MODEL.onnx                    dump to stdout
    dump_model.py -o DIR [-l LIST] [MODEL...]   dump model k (LIST entries
                                                first) to DIR/k.txt

Needs Debian's python3-onnx and python3-numpy (run with /usr/bin/python3).
Written against onnx 1.12: data types above 16 (FLOAT8*, INT4, ...) are not
known there and are handled from the raw integers.
"""

import os
import sys

import numpy as np
import onnx
from onnx import AttributeProto, TensorProto, numpy_helper

# error codes of include/onnxslim/error.h the dump can show
EUNSUPPORTED = -8
EMODEL = -10

# element sizes in bits of every data type libonnxslim knows (0..23)
DTYPE_BITS = {
    1: 32, 2: 8, 3: 8, 4: 16, 5: 16, 6: 32, 7: 64, 9: 8, 10: 16, 11: 64,
    12: 32, 13: 64, 14: 64, 15: 128, 16: 16, 17: 8, 18: 8, 19: 8, 20: 8,
    21: 4, 22: 4, 23: 4,
}

STORAGE_FIELDS = ("float_data", "int32_data", "string_data", "int64_data",
                  "double_data", "uint64_data")

FNV_INIT = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3
MASK64 = (1 << 64) - 1


def fnv1a(data, h=FNV_INIT):
    for b in data:
        h = ((h ^ b) * FNV_PRIME) & MASK64
    return h


def q(s):
    """Quoted, escaped form of a str (as UTF-8) or bytes."""
    if isinstance(s, str):
        s = s.encode("utf-8", "surrogateescape")
    out = ['"']
    for c in s:
        if 0x20 <= c <= 0x7E and c not in (0x22, 0x5C):
            out.append(chr(c))
        else:
            out.append("\\x%02x" % c)
    out.append('"')
    return "".join(out)


def fmt_float(f):
    if f != f:
        return "nan"
    return "%.9g" % f


def dtype_str(dt):
    if 0 <= dt <= 16:
        return "%d(%s)" % (dt, TensorProto.DataType.Name(dt))
    return "%d" % dt


# ---- types -----------------------------------------------------------------

def shape_str(tt):
    if not tt.HasField("shape"):
        return " noshape"
    dims = []
    for d in tt.shape.dim:
        k = d.WhichOneof("value")
        if k == "dim_value":
            dims.append("%d" % d.dim_value)
        elif k == "dim_param":
            dims.append(q(d.dim_param))
        else:
            dims.append("?")
    return " [" + ",".join(dims) + "]"


def type_str(tp):
    k = tp.WhichOneof("value")
    if k == "tensor_type":
        s = "tensor(" + dtype_str(tp.tensor_type.elem_type) + shape_str(tp.tensor_type) + ")"
    elif k == "sparse_tensor_type":
        s = ("sparse_tensor(" + dtype_str(tp.sparse_tensor_type.elem_type)
             + shape_str(tp.sparse_tensor_type) + ")")
    elif k == "sequence_type":
        st = tp.sequence_type
        s = "seq(" + (type_str(st.elem_type) if st.HasField("elem_type") else "-") + ")"
    elif k == "optional_type":
        ot = tp.optional_type
        s = "opt(" + (type_str(ot.elem_type) if ot.HasField("elem_type") else "-") + ")"
    elif k == "map_type":
        mt = tp.map_type
        s = ("map(" + dtype_str(mt.key_type) + ","
             + (type_str(mt.value_type) if mt.HasField("value_type") else "-") + ")")
    else:
        s = "unknown"
    if tp.denotation:
        s += "{denotation " + q(tp.denotation) + "}"
    return s


def value_info_str(vi):
    s = q(vi.name) + " " + (type_str(vi.type) if vi.HasField("type") else "notype")
    if vi.doc_string:
        s += " doc " + q(vi.doc_string)
    return s


# ---- tensors ---------------------------------------------------------------

def element_count(dims):
    c = 1
    for d in dims:
        c *= d
    return c


def storage_of(t):
    if t.data_location == TensorProto.EXTERNAL:
        return "EXTERNAL"
    if t.HasField("raw_data"):
        return "RAW"
    if any(len(getattr(t, f)) for f in STORAGE_FIELDS):
        return "TYPED"
    return "NONE"


def typed_field(dt):
    """(field, bytes per stored value or 0 for varints, bytes per output value)."""
    if dt in (TensorProto.FLOAT, TensorProto.COMPLEX64):
        return "float_data", 4, 4
    if dt in (TensorProto.DOUBLE, TensorProto.COMPLEX128):
        return "double_data", 8, 8
    if dt == TensorProto.INT64:
        return "int64_data", 0, 8
    if dt in (TensorProto.UINT32, TensorProto.UINT64):
        return "uint64_data", 0, DTYPE_BITS[dt] // 8
    if dt in (21, 22, 23):  # UINT4, INT4, FLOAT4E2M1: one int32 per packed byte
        return "int32_data", 0, 1
    return "int32_data", 0, DTYPE_BITS[dt] // 8


def tensor_bytes(t):
    """(0, bytes) in the raw little-endian layout, or (error code, None)."""
    dt = t.data_type
    bits = DTYPE_BITS.get(dt, 0)
    if not bits:
        return EUNSUPPORTED, None
    need = (element_count(t.dims) * bits + 7) // 8
    st = storage_of(t)
    if st == "EXTERNAL":
        # resolved at load (the loader refuses what it cannot resolve)
        kv = {e.key: e.value for e in t.external_data}
        with open(os.path.join(MODEL_DIR[0], kv["location"]), "rb") as f:
            f.seek(int(kv.get("offset", "0")))
            data = f.read(int(kv["length"])) if "length" in kv else f.read()
        if len(data) != need:
            return EMODEL, None
        return 0, data
    if st == "RAW":
        if len(t.raw_data) != need:
            return EMODEL, None
        if dt <= 15:
            return 0, numpy_helper.to_array(t).tobytes()
        return 0, bytes(t.raw_data)  # BFLOAT16 and newer types: bytes as stored
    if st == "TYPED":
        field, in_width, out_width = typed_field(dt)
        vals = getattr(t, field)
        if len(vals) * (in_width or out_width) != need:
            return EMODEL, None
        if dt in (TensorProto.COMPLEX64, TensorProto.COMPLEX128):
            # onnx 1.12's to_array cannot convert typed complex data (it casts
            # the complex pairs to the float storage type); the stored
            # (real, imag) pairs are the raw layout already
            return 0, np.asarray(vals, dtype=np.float32 if in_width == 4 else np.float64).tobytes()
        if dt <= 15:
            arr = numpy_helper.to_array(t)
            if dt == TensorProto.BOOL:
                # to_array turns every non-zero int32 into True (1); the raw
                # layout keeps the stored byte
                arr = np.asarray(vals, dtype=np.int64).astype(np.uint8)
            return 0, arr.tobytes()
        mask = (1 << (8 * out_width)) - 1
        return 0, b"".join((v & mask).to_bytes(out_width, "little") for v in vals)
    if need:
        return EMODEL, None
    return 0, b""


def tensor_str(t):
    s = ("tensor " + q(t.name) + " dtype " + dtype_str(t.data_type)
         + " dims [" + ",".join("%d" % d for d in t.dims) + "] storage " + storage_of(t)
         + " count %d" % element_count(t.dims))
    if t.data_type == TensorProto.STRING:
        s += " strings %d fnv %016x" % (len(t.string_data), fnv1a(b"".join(t.string_data)))
    else:
        rc, data = tensor_bytes(t)
        if rc:
            s += " data error %d" % rc
        else:
            s += " data %d fnv %016x" % (len(data), fnv1a(data))
    if t.doc_string:
        s += " doc " + q(t.doc_string)
    return s


def sparse_str(sp):
    s = "sparse dims [" + ",".join("%d" % d for d in sp.dims) + "] values "
    s += tensor_str(sp.values) if sp.HasField("values") else "none"
    s += " indices "
    s += tensor_str(sp.indices) if sp.HasField("indices") else "none"
    return s


# ---- attributes and nodes --------------------------------------------------

# value field of each attribute type, in type order (used to infer a missing type)
ATTR_FIELDS = [None, "f", "i", "s", "t", "g", "floats", "ints", "strings", "tensors",
               "graphs", "sparse_tensor", "sparse_tensors", "tp", "type_protos"]
SINGULAR = {"f", "i", "s", "t", "g", "sparse_tensor", "tp"}


def attr_type(a):
    if a.HasField("type"):
        return a.type
    for ty in range(1, len(ATTR_FIELDS)):
        f = ATTR_FIELDS[ty]
        if (a.HasField(f) if f in SINGULAR else len(getattr(a, f))):
            return ty
    return 0


def subgraphs(a):
    """Graphs held by an attribute, by its type (as the C dumper sees them)."""
    ty = attr_type(a)
    if ty == AttributeProto.GRAPH:
        return [a.g] if a.HasField("g") else []
    if ty == AttributeProto.GRAPHS:
        return list(a.graphs)
    return []


def dump_attr(w, a, depth):
    ind = "  " * depth
    ty = attr_type(a)
    s = ind + "attr " + q(a.name) + " type %d" % ty
    if a.ref_attr_name:
        s += " ref " + q(a.ref_attr_name)
    if a.doc_string:
        s += " doc " + q(a.doc_string)
    if ty == AttributeProto.FLOAT:
        w(s + " float " + fmt_float(a.f))
    elif ty == AttributeProto.INT:
        w(s + " int %d" % a.i)
    elif ty == AttributeProto.STRING:
        w(s + " string " + q(a.s))
    elif ty == AttributeProto.TENSOR:
        w(s + " " + (tensor_str(a.t) if a.HasField("t") else "none"))
    elif ty == AttributeProto.GRAPH:
        if a.HasField("g"):
            w(s + " graph")
            dump_graph(w, a.g, depth + 1)
        else:
            w(s + " graph none")
    elif ty == AttributeProto.SPARSE_TENSOR:
        w(s + " " + (sparse_str(a.sparse_tensor) if a.HasField("sparse_tensor")
                     else "sparse none"))
    elif ty == AttributeProto.TYPE_PROTO:
        w(s + " type_proto " + (type_str(a.tp) if a.HasField("tp") else "none"))
    elif ty == AttributeProto.FLOATS:
        w(s + " floats [" + ",".join(fmt_float(f) for f in a.floats) + "]")
    elif ty == AttributeProto.INTS:
        w(s + " ints [" + ",".join("%d" % i for i in a.ints) + "]")
    elif ty == AttributeProto.STRINGS:
        w(s + " strings [" + ",".join(q(x) for x in a.strings) + "]")
    elif ty == AttributeProto.TENSORS:
        w(s + " tensors %d" % len(a.tensors))
        for i, t in enumerate(a.tensors):
            w(ind + "  [%d] " % i + tensor_str(t))
    elif ty == AttributeProto.GRAPHS:
        w(s + " graphs %d" % len(a.graphs))
        for i, g in enumerate(a.graphs):
            w(ind + "  [%d]" % i)
            dump_graph(w, g, depth + 2)
    elif ty == AttributeProto.SPARSE_TENSORS:
        w(s + " sparse_tensors %d" % len(a.sparse_tensors))
        for i, sp in enumerate(a.sparse_tensors):
            w(ind + "  [%d] " % i + sparse_str(sp))
    elif ty == AttributeProto.TYPE_PROTOS:
        w(s + " type_protos %d" % len(a.type_protos))
        for i, tp in enumerate(a.type_protos):
            w(ind + "  [%d] " % i + type_str(tp))
    else:
        w(s)


def dump_node(w, n, index, depth):
    ind = "  " * depth
    s = ind + "node[%d] " % index + q(n.name) + " op " + q(n.op_type) + " domain " + q(n.domain)
    if n.doc_string:
        s += " doc " + q(n.doc_string)
    w(s)
    w(ind + "  in [" + ",".join(q(x) for x in n.input) + "] out ["
      + ",".join(q(x) for x in n.output) + "]")
    for a in n.attribute:
        dump_attr(w, a, depth + 1)


# ---- lookups ---------------------------------------------------------------

def defined_names(g):
    """Names a graph defines in its own scope."""
    d = set(vi.name for vi in g.input)
    d.update(t.name for t in g.initializer)
    d.update(sp.values.name for sp in g.sparse_initializer if sp.HasField("values"))
    for n in g.node:
        d.update(o for o in n.output if o)
    return d


def outer_uses(g, bound):
    """Names graph g (and its nested subgraphs) read from outside the subgraph
    tree rooted at the capturing node: proper lexical scoping, a name is bound
    if g or one of the subgraphs enclosing it (below the capturing node)
    defines it. Node inputs and graph outputs are uses."""
    b = bound | defined_names(g)
    used = set()
    for n in g.node:
        used.update(i for i in n.input if i and i not in b)
        for a in n.attribute:
            for sg in subgraphs(a):
                used |= outer_uses(sg, b)
    used.update(o.name for o in g.output if o.name and o.name not in b)
    return used


def all_uses(g, acc):
    """Every name used anywhere in g: node inputs and graph outputs, recursively."""
    for n in g.node:
        acc.update(i for i in n.input if i)
        for a in n.attribute:
            for sg in subgraphs(a):
                all_uses(sg, acc)
    acc.update(o.name for o in g.output if o.name)
    return acc


def dump_lookups(w, g, depth):
    ind = "  " * (depth + 1)
    w("  " * depth + "lookups")
    nodes = list(g.node)
    producer = {}
    for k, n in enumerate(nodes):
        for o in n.output:
            if o and o not in producer:
                producer[o] = k
    for n in nodes:
        for o in n.output:
            if o:
                w(ind + "producer " + q(o) + " %d" % producer[o])
    consumers = {}
    for k, n in enumerate(nodes):
        uses = set(i for i in n.input if i)
        for a in n.attribute:
            for sg in subgraphs(a):
                uses |= outer_uses(sg, set())
        for v in uses:
            consumers.setdefault(v, []).append(k)
    names = all_uses(g, set())
    names.update(vi.name for vi in g.input if vi.name)
    names.update(t.name for t in g.initializer if t.name)
    for v in sorted(names, key=lambda x: x.encode("utf-8", "surrogateescape")):
        w(ind + "consumers " + q(v) + " [" + ",".join("%d" % k for k in consumers.get(v, []))
          + "]")
    first_init = {}
    for i, t in enumerate(g.initializer):
        first_init.setdefault(t.name, i)
    for i, t in enumerate(g.initializer):
        w(ind + "find_initializer[%d] %d" % (i, first_init[t.name]))
    first_vi = {}
    for kind, lst in (("input", g.input), ("output", g.output), ("value_info", g.value_info)):
        for i, vi in enumerate(lst):
            first_vi.setdefault(vi.name, (kind, i))
    for kind, lst in (("input", g.input), ("output", g.output), ("value_info", g.value_info)):
        for i, vi in enumerate(lst):
            fk, fi = first_vi[vi.name]
            w(ind + "find_value_info %s[%d] " % (kind, i) + q(vi.name) + " %s[%d]" % (fk, fi))
    first_node = {}
    for k, n in enumerate(nodes):
        if n.name:
            first_node.setdefault(n.name, k)
    for k, n in enumerate(nodes):
        if n.name:
            w(ind + "find_node[%d] %d" % (k, first_node[n.name]))


# ---- graphs, functions, model ----------------------------------------------

def dump_graph(w, g, depth):
    ind = "  " * (depth + 1)
    s = "  " * depth + "graph " + q(g.name)
    if g.doc_string:
        s += " doc " + q(g.doc_string)
    w(s)
    for i, vi in enumerate(g.input):
        w(ind + "input[%d] " % i + value_info_str(vi))
    for i, vi in enumerate(g.output):
        w(ind + "output[%d] " % i + value_info_str(vi))
    for i, vi in enumerate(g.value_info):
        w(ind + "value_info[%d] " % i + value_info_str(vi))
    for i, t in enumerate(g.initializer):
        w(ind + "initializer[%d] " % i + tensor_str(t))
    for i, sp in enumerate(g.sparse_initializer):
        w(ind + "sparse_initializer[%d] " % i + sparse_str(sp))
    for i, n in enumerate(g.node):
        dump_node(w, n, i, depth + 1)
    dump_lookups(w, g, depth + 1)


def dump_function(w, fn, index):
    s = "function[%d] " % index + q(fn.name) + " domain " + q(fn.domain)
    if fn.doc_string:
        s += " doc " + q(fn.doc_string)
    w(s)
    w("  inputs [" + ",".join(q(x) for x in fn.input) + "] outputs ["
      + ",".join(q(x) for x in fn.output) + "] attributes ["
      + ",".join(q(x) for x in fn.attribute) + "]")
    for i, op in enumerate(fn.opset_import):
        w("  opset[%d] " % i + q(op.domain) + " %d" % op.version)
    for i, n in enumerate(fn.node):
        dump_node(w, n, i, 1)


MODEL_DIR = ["."]


def dump_model(path, f):
    MODEL_DIR[0] = os.path.dirname(path) or "."

    def w(line):
        f.write(line)
        f.write("\n")

    try:
        m = onnx.load(path, load_external_data=False)
    except Exception as e:  # noqa: BLE001 - any parse failure is reported
        w("load error python %s" % type(e).__name__)
        return
    if not m.HasField("graph"):
        # libonnxslim refuses a ModelProto without a graph at load (any byte
        # string that happens to parse as protobuf would otherwise "load")
        w("load error %d" % EMODEL)
        return
    w("model ir_version %d model_version %d" % (m.ir_version, m.model_version))
    w("producer " + q(m.producer_name) + " " + q(m.producer_version))
    w("domain " + q(m.domain))
    w("doc " + q(m.doc_string))
    for i, op in enumerate(m.opset_import):
        w("opset[%d] " % i + q(op.domain) + " %d" % op.version)
    for i, p in enumerate(m.metadata_props):
        w("metadata[%d] " % i + q(p.key) + " = " + q(p.value))
    for i, fn in enumerate(m.functions):
        dump_function(w, fn, i)
    dump_graph(w, m.graph, 0)


def main(argv):
    out_dir = None
    list_file = None
    i = 1
    while i < len(argv):
        if argv[i] == "-o" and i + 1 < len(argv):
            out_dir = argv[i + 1]
            i += 2
        elif argv[i] == "-l" and i + 1 < len(argv):
            list_file = argv[i + 1]
            i += 2
        else:
            break
    paths = argv[i:]
    if out_dir is None:
        if list_file is not None or len(paths) != 1:
            sys.stderr.write("usage: dump_model.py MODEL | -o DIR [-l LIST] [MODEL...]\n")
            return 2
        dump_model(paths[0], sys.stdout)
        return 0
    models = []
    if list_file is not None:
        with open(list_file, encoding="utf-8") as f:
            models = [line.rstrip("\r\n") for line in f if line.rstrip("\r\n")]
    models += paths
    for k, p in enumerate(models):
        with open("%s/%d.txt" % (out_dir, k), "w", encoding="utf-8", newline="\n") as f:
            dump_model(p, f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
