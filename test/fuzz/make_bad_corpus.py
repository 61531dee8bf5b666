#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Write a deterministic corpus of malformed ONNX ModelProto files.

Usage:
    make_bad_corpus.py [OUTDIR]        (default: corpus/ next to this script)

Every file written is something a strict ModelProto loader must reject.  The
script starts from a small valid model (built with onnx.helper: a few nodes,
a raw_data initializer, an If node with then/else subgraphs, value_info with
symbolic dims) and derives bad inputs from it, building raw protobuf bytes by
hand where onnx.helper cannot express the corruption.

Before writing, each case is run through a strict reference validator defined
below (wire format checked against the ONNX descriptors: wire types of known
fields, varint length, field number range, lengths inside their parent, no
groups, nesting depth <= MAX_DEPTH; then a few semantic checks: graph present,
tensor dims non-negative and not overflowing, raw_data size matching dims).
The script aborts if the valid base model is rejected or if any bad case is
accepted, so e.g. a truncation that lands on a field boundary can never slip
into the corpus.

Old *.onnx files in OUTDIR are removed first; README.md is regenerated.
Needs Debian's python3-onnx (run with /usr/bin/python3).
"""

import os
import random
import sys
import warnings

import numpy as np
import onnx
from google.protobuf.descriptor import FieldDescriptor as FD
from onnx import TensorProto, helper, numpy_helper

MAX_FILE = 64 * 1024          # per-file limit (bytes, exclusive)
MAX_TOTAL = 1024 * 1024       # whole corpus limit (bytes, exclusive)
MAX_DEPTH = 100               # message nesting accepted by the validator
U64 = (1 << 64) - 1

# ---------------------------------------------------------------------------
# Tiny protobuf wire encoder
# ---------------------------------------------------------------------------
WT_VARINT, WT_I64, WT_LEN, WT_SGROUP, WT_EGROUP, WT_I32 = 0, 1, 2, 3, 4, 5


def varint(n):
    """Canonical varint; negative ints are encoded as 64-bit two's complement."""
    n &= U64
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def tag(field, wt):
    return varint((field << 3) | wt)


def f_varint(field, value):
    return tag(field, WT_VARINT) + varint(value)


def f_len(field, payload):
    if isinstance(payload, str):
        payload = payload.encode()
    return tag(field, WT_LEN) + varint(len(payload)) + payload


# ---------------------------------------------------------------------------
# Wire-level splitter (no schema) used to locate and rewrite fields
# ---------------------------------------------------------------------------
class WireError(Exception):
    pass


def read_varint(buf, pos, end):
    """Return (value, new_pos).  Strict: at most 10 bytes, no bits past 64."""
    result = 0
    shift = 0
    start = pos
    while True:
        if pos >= end:
            raise WireError("truncated varint at %d" % start)
        b = buf[pos]
        pos += 1
        if pos - start == 10 and b > 1:
            raise WireError("varint overflows 64 bits at %d" % start)
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, pos
        shift += 7
        if pos - start >= 10:
            raise WireError("varint longer than 10 bytes at %d" % start)


class Field:
    """One field occurrence: buf[start:vstart] is tag (+ length), value is
    buf[vstart:end] (for LEN fields, the payload)."""

    def __init__(self, num, wt, start, vstart, end, value=None):
        self.num, self.wt = num, wt
        self.start, self.vstart, self.end = start, vstart, end
        self.value = value

    def __repr__(self):
        return "Field(%d,wt%d,%d..%d)" % (self.num, self.wt, self.start, self.end)


def split(buf, start=0, end=None):
    """Split a (valid) message payload into its fields.  No groups."""
    end = len(buf) if end is None else end
    pos = start
    fields = []
    while pos < end:
        fstart = pos
        key, pos = read_varint(buf, pos, end)
        num, wt = key >> 3, key & 7
        value = None
        if wt == WT_VARINT:
            value, pos2 = read_varint(buf, pos, end)
            vstart = pos
        elif wt == WT_I64:
            vstart, pos2 = pos, pos + 8
        elif wt == WT_I32:
            vstart, pos2 = pos, pos + 4
        elif wt == WT_LEN:
            n, vstart = read_varint(buf, pos, end)
            pos2 = vstart + n
        else:
            raise WireError("split: wire type %d" % wt)
        if pos2 > end:
            raise WireError("split: field past end")
        fields.append(Field(num, wt, fstart, vstart, pos2, value))
        pos = pos2
    return fields


def join(buf, fields):
    return b"".join(buf[f.start:f.end] for f in fields)


def first(fields, num):
    for f in fields:
        if f.num == num:
            return f
    raise KeyError(num)


# ---------------------------------------------------------------------------
# Strict reference validator (schema from the onnx protobuf descriptors)
# ---------------------------------------------------------------------------
_VARINT_TYPES = {FD.TYPE_INT64, FD.TYPE_UINT64, FD.TYPE_INT32, FD.TYPE_UINT32,
                 FD.TYPE_BOOL, FD.TYPE_ENUM, FD.TYPE_SINT32, FD.TYPE_SINT64}
_I64_TYPES = {FD.TYPE_DOUBLE, FD.TYPE_FIXED64, FD.TYPE_SFIXED64}
_I32_TYPES = {FD.TYPE_FLOAT, FD.TYPE_FIXED32, FD.TYPE_SFIXED32}
_LEN_TYPES = {FD.TYPE_STRING, FD.TYPE_BYTES, FD.TYPE_MESSAGE}


def _expected(fd):
    """(allowed wire types, scalar wire type of packed elements or None)."""
    if fd.type in _LEN_TYPES:
        return {WT_LEN}, None
    if fd.type in _VARINT_TYPES:
        wt = WT_VARINT
    elif fd.type in _I64_TYPES:
        wt = WT_I64
    elif fd.type in _I32_TYPES:
        wt = WT_I32
    else:                                       # TYPE_GROUP: none in ONNX
        return {WT_SGROUP}, None
    if fd.label == FD.LABEL_REPEATED:
        return {wt, WT_LEN}, wt
    return {wt}, None


def _check_packed(buf, pos, end, wt):
    if wt == WT_VARINT:
        while pos < end:
            _, pos = read_varint(buf, pos, end)
    else:
        size = 8 if wt == WT_I64 else 4
        if (end - pos) % size:
            raise WireError("packed fixed payload not a multiple of %d" % size)


def _skip_group(buf, pos, end, num, depth):
    """Skip an unknown group body up to its matching end-group tag."""
    if depth > MAX_DEPTH:
        raise WireError("nesting too deep")
    while True:
        if pos >= end:
            raise WireError("unterminated group %d" % num)
        key, pos = read_varint(buf, pos, end)
        fnum, wt = key >> 3, key & 7
        if fnum == 0:
            raise WireError("field number 0")
        if wt == WT_EGROUP:
            if fnum != num:
                raise WireError("mismatched end group")
            return pos
        pos = _skip_unknown(buf, pos, end, fnum, wt, depth + 1)


def _skip_unknown(buf, pos, end, num, wt, depth):
    if wt == WT_VARINT:
        return read_varint(buf, pos, end)[1]
    if wt == WT_I64:
        pos += 8
    elif wt == WT_I32:
        pos += 4
    elif wt == WT_LEN:
        n, pos = read_varint(buf, pos, end)
        if n > end - pos:
            raise WireError("length past end")
        pos += n
    elif wt == WT_SGROUP:
        return _skip_group(buf, pos, end, num, depth)
    elif wt == WT_EGROUP:
        raise WireError("stray end group")
    else:
        raise WireError("invalid wire type %d" % wt)
    if pos > end:
        raise WireError("fixed field past end")
    return pos


def wire_check(buf, desc, pos=0, end=None, depth=1):
    """Raise WireError unless buf[pos:end] is a strictly well-formed `desc`."""
    end = len(buf) if end is None else end
    if depth > MAX_DEPTH:
        raise WireError("nesting deeper than %d" % MAX_DEPTH)
    while pos < end:
        key, pos = read_varint(buf, pos, end)
        if key > 0xFFFFFFFF:
            raise WireError("tag does not fit 32 bits")
        num, wt = key >> 3, key & 7
        if num == 0:
            raise WireError("field number 0")
        if wt in (6, 7):
            raise WireError("invalid wire type %d" % wt)
        fd = desc.fields_by_number.get(num)
        if fd is None:
            pos = _skip_unknown(buf, pos, end, num, wt, depth)
            continue
        allowed, packed_wt = _expected(fd)
        if wt not in allowed:
            raise WireError("%s.%s: wire type %d" % (desc.name, fd.name, wt))
        if wt == WT_LEN:
            n, pos = read_varint(buf, pos, end)
            if n > end - pos:
                raise WireError("%s.%s: length past end" % (desc.name, fd.name))
            if fd.type == FD.TYPE_MESSAGE:
                wire_check(buf, fd.message_type, pos, pos + n, depth + 1)
            elif packed_wt is not None:
                _check_packed(buf, pos, pos + n, packed_wt)
            pos += n
        else:
            pos = _skip_unknown(buf, pos, end, num, wt, depth)


_ELEM_SIZE = {TensorProto.FLOAT: 4, TensorProto.UINT8: 1, TensorProto.INT8: 1,
              TensorProto.UINT16: 2, TensorProto.INT16: 2, TensorProto.INT32: 4,
              TensorProto.INT64: 8, TensorProto.BOOL: 1, TensorProto.FLOAT16: 2,
              TensorProto.DOUBLE: 8, TensorProto.UINT32: 4, TensorProto.UINT64: 8,
              TensorProto.BFLOAT16: 2}
INT64_MAX = (1 << 63) - 1


def _check_tensor(t):
    count = 1
    for d in t.dims:
        if d < 0:
            raise ValueError("tensor %r: negative dim %d" % (t.name, d))
        count *= d
        if count > INT64_MAX:
            raise ValueError("tensor %r: element count overflows" % t.name)
    size = _ELEM_SIZE.get(t.data_type)
    if size and count * size > INT64_MAX:
        raise ValueError("tensor %r: byte size overflows" % t.name)
    if t.HasField("raw_data") and size and len(t.raw_data) != count * size:
        raise ValueError("tensor %r: raw_data size mismatch" % t.name)


def _check_type(tp):
    if tp.HasField("tensor_type") and tp.tensor_type.HasField("shape"):
        for d in tp.tensor_type.shape.dim:
            if d.HasField("dim_value") and d.dim_value < 0:
                raise ValueError("negative dim_value")


def _check_graph(g):
    for t in g.initializer:
        _check_tensor(t)
    for vi in list(g.input) + list(g.output) + list(g.value_info):
        _check_type(vi.type)
    for n in g.node:
        for a in n.attribute:
            if a.HasField("t"):
                _check_tensor(a.t)
            for t in a.tensors:
                _check_tensor(t)
            if a.HasField("g"):
                _check_graph(a.g)
            for sg in a.graphs:
                _check_graph(sg)


def strict_reject_reason(data):
    """None if a strict loader may accept `data`, else the reason to reject."""
    try:
        wire_check(data, onnx.ModelProto.DESCRIPTOR)
    except WireError as e:
        return "wire: %s" % e
    m = onnx.ModelProto()
    try:
        m.ParseFromString(data)
    except Exception as e:  # DecodeError; should not happen after wire_check
        return "protobuf: %s" % e
    if not m.HasField("graph"):
        return "semantic: no graph"
    try:
        _check_graph(m.graph)
    except ValueError as e:
        return "semantic: %s" % e
    return None


def protobuf_accepts(data):
    """Informational: does the stock (lenient) protobuf runtime parse it?"""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            onnx.ModelProto().ParseFromString(data)
            return True
        except Exception:
            return False


# ---------------------------------------------------------------------------
# The valid base model
# ---------------------------------------------------------------------------
def base_model():
    X = helper.make_tensor_value_info("X", TensorProto.FLOAT, ["N", 4])
    C = helper.make_tensor_value_info("cond", TensorProto.BOOL, [])
    Y = helper.make_tensor_value_info("Y", TensorProto.FLOAT, ["N", 3])

    w = np.arange(12, dtype=np.float32).reshape(4, 3) / 10.0
    W = numpy_helper.from_array(w, "W")                      # raw_data
    B = helper.make_tensor("B", TensorProto.FLOAT, [3], [0.5, -0.5, 1.0])
    assert W.HasField("raw_data")

    then_g = helper.make_graph(
        [helper.make_node("Identity", ["h"], ["then_out"], name="then_id")],
        "then_branch", [],
        [helper.make_tensor_value_info("then_out", TensorProto.FLOAT, ["N", 3])])
    else_g = helper.make_graph(
        [helper.make_node("Neg", ["h"], ["else_out"], name="else_neg")],
        "else_branch", [],
        [helper.make_tensor_value_info("else_out", TensorProto.FLOAT, ["N", 3])])

    nodes = [
        helper.make_node("MatMul", ["X", "W"], ["mm"], name="matmul"),
        helper.make_node("Relu", ["mm"], ["h"], name="relu"),
        helper.make_node("If", ["cond"], ["sel"], name="if",
                         then_branch=then_g, else_branch=else_g),
        helper.make_node("Add", ["sel", "B"], ["Y"], name="add_bias"),
    ]
    graph = helper.make_graph(
        nodes, "fuzz_base", [X, C], [Y], initializer=[W, B],
        value_info=[
            helper.make_tensor_value_info("mm", TensorProto.FLOAT, ["N", 3]),
            helper.make_tensor_value_info("h", TensorProto.FLOAT, ["N", 3]),
            helper.make_tensor_value_info("sel", TensorProto.FLOAT, ["N", 3]),
        ])
    model = helper.make_model(
        graph, producer_name="libonnxslim-fuzz", producer_version="1",
        opset_imports=[helper.make_opsetid("", 17)],
        doc_string="base model for the bad-input corpus")
    model.ir_version = 8
    helper.set_model_props(model, {"purpose": "fuzz-base"})
    onnx.checker.check_model(model, full_check=True)
    return model


# ---------------------------------------------------------------------------
# Case generation
# ---------------------------------------------------------------------------
class Corpus:
    def __init__(self):
        self.cases = []          # (filename, bytes, description)
        self.names = set()

    def add(self, name, data, desc):
        assert name not in self.names, name
        self.names.add(name)
        self.cases.append((name, bytes(data), desc))


class Base:
    """The base model's bytes plus handy field locations."""

    def __init__(self, data):
        self.data = data
        self.top = split(data)
        self.graph_f = first(self.top, 7)
        self.gfields = split(data, self.graph_f.vstart, self.graph_f.end)

    def with_graph(self, gpayload, before=b"", after=b""):
        """Model bytes with the graph payload replaced (and extra top-level
        bytes inserted just before/after the graph field)."""
        out = b""
        for f in self.top:
            if f is self.graph_f:
                out += before + f_len(7, gpayload) + after
            else:
                out += self.data[f.start:f.end]
        return out

    def graph_fields_of(self, num):
        return [f for f in self.gfields if f.num == num]


def gen_trunc(c, b):
    """Truncations strictly inside a top-level field."""
    d = b.data
    cands = {}       # offset -> description

    def note(off, what):
        if off not in cands:
            cands[off] = what

    # Walk every field at every depth (via the schema-less splitter with the
    # known message-typed fields) to collect interesting offsets.
    def walk(start, end, desc, path, depth):
        for f in split(d, start, end):
            fd = desc.fields_by_number.get(f.num)
            name = "%s.%s" % (path, fd.name if fd else f.num)
            tag_len = len(tag(f.num, f.wt))
            if tag_len > 1:
                note(f.start + 1, "inside the 2-byte tag of %s" % name)
            note(f.start + tag_len, "right after the tag of %s" % name)
            if f.wt == WT_LEN:
                len_start = f.start + tag_len
                if f.vstart - len_start > 1:
                    note(len_start + 1, "inside the length varint of %s" % name)
                note(f.vstart, "right after the length of %s" % name)
                if f.end - f.vstart > 2:
                    note((f.vstart + f.end) // 2, "middle of the payload of %s" % name)
                    note(f.end - 1, "one byte before the end of %s" % name)
                if fd is not None and fd.type == FD.TYPE_MESSAGE and depth < 6:
                    walk(f.vstart, f.end, fd.message_type, name, depth + 1)
            elif f.wt == WT_VARINT and f.end - f.vstart > 1:
                note(f.vstart + 1, "inside the varint value of %s" % name)
            note(f.end, "at the boundary after %s" % name)

    walk(0, len(d), onnx.ModelProto.DESCRIPTOR, "Model", 0)

    def inside_top(off):
        return any(f.start < off < f.end for f in b.top)

    valid = sorted(o for o in cands if 0 < o < len(d) and inside_top(o))
    # Prefer descriptive spots that exercise different code paths.
    wanted = ["inside the 2-byte tag", "inside the length varint",
              "inside the varint value", "right after the tag",
              "right after the length", "middle of the payload",
              "one byte before the end", "at the boundary after"]
    chosen = []
    for w in wanted:
        hits = [o for o in valid if cands[o].startswith(w)]
        # up to 2 per kind, spread across the file
        if hits:
            step = max(1, len(hits) // 2)
            for o in hits[::step][:2]:
                if o not in chosen:
                    chosen.append(o)
    # Always include a few fixed spots.
    for o in (1, len(d) - 1, b.graph_f.start + 1, b.graph_f.vstart + 1):
        if inside_top(o) and o not in chosen:
            chosen.append(o)
            cands.setdefault(o, "inside a top-level field")
    for o in sorted(chosen):
        c.add("trunc_%05d.onnx" % o, d[:o],
              "valid model truncated at byte %d of %d (%s)" % (o, len(d), cands[o]))


def gen_random(c, rng):
    sizes = [1, 2, 5, 16, 100, 1024, 4096, 20000]
    for i, n in enumerate(sizes):
        for attempt in range(1000):
            data = bytes(rng.getrandbits(8) for _ in range(n))
            why = strict_reject_reason(data)
            if why and why.startswith("wire"):
                break
        else:
            raise RuntimeError("could not make invalid random data")
        c.add("random_%03d.onnx" % i, data, "%d seeded random bytes (%s)" % (n, why))


def gen_mutate(c, b, rng):
    """Random byte overwrites of the valid model, kept only if wire-invalid."""
    made = 0
    tries = 0
    while made < 8:
        tries += 1
        assert tries < 10000
        data = bytearray(b.data)
        for _ in range(1 + rng.randrange(3)):
            data[rng.randrange(len(data))] = rng.getrandbits(8)
        why = strict_reject_reason(bytes(data))
        if why and why.startswith("wire"):
            c.add("mutate_%03d.onnx" % made, data,
                  "valid model with a few random bytes overwritten (%s)" % why)
            made += 1


def node_fields(b, idx):
    nf = b.graph_fields_of(1)[idx]
    return nf, split(b.data, nf.vstart, nf.end)


def rebuild_graph(b, replace):
    """replace: dict graph-field-object -> new bytes (b"" to drop)."""
    return b"".join(replace.get(f, b.data[f.start:f.end]) for f in b.gfields)


def gen_wire_type(c, b):
    d = b.data
    # ModelProto.graph (7) as a varint; the real graph is dropped.
    out = b"".join(f_varint(7, 5) if f is b.graph_f else d[f.start:f.end]
                   for f in b.top)
    c.add("wire_type_model_graph_varint.onnx", out,
          "ModelProto.graph (field 7, a message) encoded as varint; no real graph")

    # ModelProto.graph as fixed64 in front of the real graph.
    c.add("wire_type_model_graph_fixed64.onnx",
          b.with_graph(d[b.graph_f.vstart:b.graph_f.end],
                       before=tag(7, WT_I64) + b"\x01" * 8),
          "extra ModelProto.graph field with wire type 1 (fixed64) before the real graph")

    # ModelProto.ir_version (1, int64) as a length-delimited field.
    f1 = first(b.top, 1)
    out = b"".join(f_len(1, b"\x08") if f is f1 else d[f.start:f.end] for f in b.top)
    c.add("wire_type_model_irversion_len.onnx", out,
          "ModelProto.ir_version (non-repeated int64) with wire type 2")

    # GraphProto.node (1) as fixed32: the first node replaced by 4 bytes.
    n0 = b.graph_fields_of(1)[0]
    g = rebuild_graph(b, {n0: tag(1, WT_I32) + b"\x00\x00\x00\x00"})
    c.add("wire_type_graph_node_fixed32.onnx", b.with_graph(g),
          "GraphProto.node (field 1) with wire type 5 (fixed32) instead of the first node")

    # NodeProto.input (1) as fixed64 in the first node.
    nf, fields = node_fields(b, 0)
    inp = first(fields, 1)
    node = b"".join(tag(1, WT_I64) + b"XXXXXXXX" if f is inp else d[f.start:f.end]
                    for f in fields)
    g = rebuild_graph(b, {nf: f_len(1, node)})
    c.add("wire_type_node_input_fixed64.onnx", b.with_graph(g),
          "NodeProto.input (field 1, string) with wire type 1 (fixed64)")

    # TensorProto.dims (1, repeated int64) as fixed32 in initializer W.
    init = b.graph_fields_of(5)[0]
    tf = split(d, init.vstart, init.end)
    dims0 = first(tf, 1)
    t = b"".join(tag(1, WT_I32) + b"\x04\x00\x00\x00" if f is dims0 else d[f.start:f.end]
                 for f in tf)
    g = rebuild_graph(b, {init: f_len(5, t)})
    c.add("wire_type_tensor_dims_fixed32.onnx", b.with_graph(g),
          "TensorProto.dims (repeated int64) with wire type 5 (fixed32)")

    # NodeProto.op_type (4) as varint inside the If node's then_branch.
    if_f = [f for f in b.graph_fields_of(1)
            if first(split(d, f.vstart, f.end), 4) and
            d[first(split(d, f.vstart, f.end), 4).vstart:
              first(split(d, f.vstart, f.end), 4).end] == b"If"][0]
    if_fields = split(d, if_f.vstart, if_f.end)
    new_if = b""
    for f in if_fields:
        if f.num == 5:                               # attribute
            af = split(d, f.vstart, f.end)
            gf = first(af, 6)
            sub = split(d, gf.vstart, gf.end)
            sn = first(sub, 1)
            snf = split(d, sn.vstart, sn.end)
            node = b"".join(f_varint(4, 7) if x.num == 4 else d[x.start:x.end]
                            for x in snf)
            subg = b"".join(f_len(1, node) if x is sn else d[x.start:x.end] for x in sub)
            attr = b"".join(f_len(6, subg) if x is gf else d[x.start:x.end] for x in af)
            new_if += f_len(5, attr)
        else:
            new_if += d[f.start:f.end]
    g = rebuild_graph(b, {if_f: f_len(1, new_if)})
    c.add("wire_type_subgraph_optype_varint.onnx", b.with_graph(g),
          "NodeProto.op_type (string) as varint, inside an If then/else subgraph")

    # Groups.
    c.add("wire_type_group_unterminated.onnx",
          b.with_graph(d[b.graph_f.vstart:b.graph_f.end], after=tag(99, WT_SGROUP) + f_varint(1, 1)),
          "start-group (wire type 3) for unknown field 99 that is never closed")
    c.add("wire_type_group_graph.onnx",
          b.data[:b.graph_f.start] + tag(7, WT_SGROUP) +
          d[b.graph_f.vstart:b.graph_f.end] + tag(7, WT_EGROUP) + d[b.graph_f.end:],
          "ModelProto.graph encoded as a (terminated) group, wire types 3/4")
    c.add("wire_type_endgroup_stray.onnx",
          b.with_graph(d[b.graph_f.vstart:b.graph_f.end], before=tag(9, WT_EGROUP)),
          "end-group tag (wire type 4) with no matching start-group")
    c.add("wire_type_group_mismatched_end.onnx",
          b.with_graph(d[b.graph_f.vstart:b.graph_f.end],
                       after=tag(100, WT_SGROUP) + f_varint(1, 2) + tag(101, WT_EGROUP)),
          "group for unknown field 100 closed by an end-group of field 101")
    n1 = b.graph_fields_of(1)[1]
    g = rebuild_graph(b, {n1: tag(1, WT_SGROUP) + d[n1.vstart:n1.end] + tag(1, WT_EGROUP)})
    c.add("wire_type_graph_node_group.onnx", b.with_graph(g),
          "GraphProto.node encoded as a group (wire type 3 ... 4) in the graph")

    # Invalid wire types 6 and 7.
    c.add("wire_type_6_top.onnx",
          b.with_graph(d[b.graph_f.vstart:b.graph_f.end], after=tag(8, 6) + b"\x00" * 8),
          "ModelProto.opset_import tag with invalid wire type 6")
    c.add("wire_type_7_unknown.onnx",
          b.with_graph(d[b.graph_f.vstart:b.graph_f.end], before=tag(50, 7) + b"\x00"),
          "unknown field 50 with invalid wire type 7 (cannot be skipped)")
    g = d[b.graph_f.vstart:b.graph_f.end] + tag(13, 6) + b"\x00"
    c.add("wire_type_6_nested.onnx", b.with_graph(g),
          "GraphProto.value_info tag with invalid wire type 6 at the end of the graph")


def gen_len_past_end(c, b):
    d = b.data
    gp = d[b.graph_f.vstart:b.graph_f.end]
    rest = len(d) - b.graph_f.vstart
    # Top level: graph length one more than all remaining bytes.
    out = d[:b.graph_f.start] + tag(7, WT_LEN) + varint(rest + 1) + d[b.graph_f.vstart:]
    c.add("len_past_end_top_graph.onnx", out,
          "ModelProto.graph length = remaining file bytes + 1")
    # Top level string at the end of the file.
    c.add("len_past_end_top_string.onnx", d + tag(3, WT_LEN) + varint(100) + b"v1.0",
          "trailing ModelProto.producer_version with length 100 but 4 bytes left")
    # Nested: the last node, moved to the end of the graph payload, claims 3
    # more bytes than it has, so it overruns the graph but stays inside the
    # file (a loader that only checks against the file end misses it).
    n_last = b.graph_fields_of(1)[-1]
    others = b"".join(d[f.start:f.end] for f in b.gfields if f is not n_last)
    new_node = (tag(1, WT_LEN) + varint(n_last.end - n_last.vstart + 3) +
                d[n_last.vstart:n_last.end])
    assert len(d) - b.graph_f.end > 3          # opset_import etc. follow
    c.add("len_past_end_nested_node.onnx", b.with_graph(others + new_node),
          "last GraphProto.node length overruns the graph by 3 bytes (still inside the file)")
    # raw_data (moved last in its tensor) claims 40 more bytes than the tensor has.
    init = b.graph_fields_of(5)[0]
    tf = split(d, init.vstart, init.end)
    rd = first(tf, 9)
    t = (b"".join(d[f.start:f.end] for f in tf if f is not rd) +
         tag(9, WT_LEN) + varint(rd.end - rd.vstart + 40) + d[rd.vstart:rd.end])
    g = rebuild_graph(b, {init: f_len(5, t)})
    c.add("len_past_end_raw_data.onnx", b.with_graph(g),
          "TensorProto.raw_data length 40 bytes larger than what is left of its tensor")
    # String field inside the innermost subgraph.
    c.add("len_past_end_in_string.onnx",
          b.with_graph(gp + tag(2, WT_LEN) + varint(0x7F) + b"name"),
          "GraphProto.name length 127 at the end of the graph with 4 bytes left in it")


def gen_varint(c, b):
    d = b.data
    body = d[first(b.top, 1).end:]          # everything after ir_version
    c.add("varint_overflow.onnx", tag(1, WT_VARINT) + b"\xff" * 10 + b"\x01" + body,
          "ModelProto.ir_version as an 11-byte varint")
    c.add("varint_overflow_10th_byte.onnx", tag(1, WT_VARINT) + b"\xff" * 9 + b"\x7f" + body,
          "10-byte varint whose last byte carries bits beyond 64")
    c.add("varint_overflow_tag.onnx", b"\x80" * 10 + b"\x01" + d,
          "an 11-byte tag varint before a valid model")
    c.add("varint_overflow_length.onnx",
          d[:b.graph_f.start] + tag(7, WT_LEN) + b"\x80" * 10 + b"\x00" + d[b.graph_f.vstart:],
          "ModelProto.graph length as an 11-byte (non-canonical) varint")
    c.add("varint_unterminated_eof.onnx", d + tag(5, WT_VARINT) + b"\xff\xff\xff",
          "trailing model_version whose varint has continuation bits up to EOF")


def gen_zero_tag(c, b):
    d = b.data
    c.add("zero_tag.onnx", b"\x00\x00" + d, "field number 0 (wire type 0) before a valid model")
    c.add("zero_tag_len.onnx", d + b"\x02\x00", "field number 0 with wire type 2 at the end")
    gp = d[b.graph_f.vstart:b.graph_f.end]
    c.add("zero_tag_nested.onnx", b.with_graph(b"\x00\x01" + gp),
          "field number 0 at the start of the graph payload")
    c.add("field_num_too_big.onnx", b.with_graph(gp, before=varint((1 << 32) | WT_VARINT) + b"\x01"),
          "tag varint 2^32 (field number 2^29, beyond the 2^29-1 maximum)")


def gen_huge_len(c, b):
    d = b.data
    head, tail = d[:b.graph_f.start], d[b.graph_f.vstart:]
    real = b.graph_f.end - b.graph_f.vstart
    c.add("huge_len.onnx", head + tag(7, WT_LEN) + varint(1 << 63) + tail,
          "ModelProto.graph length 2^63")
    c.add("huge_len_u64max.onnx", head + tag(7, WT_LEN) + varint(U64) + tail,
          "ModelProto.graph length 2^64-1 (-1 as int64)")
    c.add("huge_len_u32_wrap.onnx", head + tag(7, WT_LEN) + varint((1 << 32) + real) + tail,
          "ModelProto.graph length 2^32 + real length (correct if cut to 32 bits)")
    c.add("huge_len_int32_neg.onnx", head + tag(7, WT_LEN) + varint((1 << 31) + 5) + tail,
          "ModelProto.graph length 2^31+5 (negative as int32)")
    init = b.graph_fields_of(5)[0]
    tf = split(d, init.vstart, init.end)
    rd = first(tf, 9)
    t = b"".join(tag(9, WT_LEN) + varint(1 << 62) + d[rd.vstart:rd.end]
                 if f is rd else d[f.start:f.end] for f in tf)
    g = rebuild_graph(b, {init: f_len(5, t)})
    c.add("huge_len_raw_data.onnx", b.with_graph(g),
          "TensorProto.raw_data length 2^62 inside a nested initializer")


def gen_packed(c, b):
    d = b.data
    init = b.graph_fields_of(5)[0]
    tf = split(d, init.vstart, init.end)
    # dims as a packed payload ending in the middle of a varint
    t = b"".join(d[f.start:f.end] for f in tf if f.num != 1)
    t = f_len(1, b"\x04\x83") + t
    g = rebuild_graph(b, {init: f_len(5, t)})
    c.add("packed_dims_trunc_varint.onnx", b.with_graph(g),
          "TensorProto.dims packed (wire type 2) with a payload ending mid-varint")
    # float_data packed with a length that is not a multiple of 4
    t = b"".join(d[f.start:f.end] for f in tf if f.num != 9)
    t += f_len(4, b"\x00" * 7)
    g = rebuild_graph(b, {init: f_len(5, t)})
    c.add("packed_float_data_bad_len.onnx", b.with_graph(g),
          "TensorProto.float_data packed with 7 bytes (not a multiple of 4)")


def gen_absurd_dims(c, base):
    def with_init(mutator):
        m = onnx.ModelProto()
        m.CopyFrom(base)
        w = [t for t in m.graph.initializer if t.name == "W"][0]
        mutator(w, m)
        return m.SerializeToString()

    def dims(values, raw=None):
        def f(t, m):
            del t.dims[:]
            t.dims.extend(values)
            if raw is not None:
                t.raw_data = raw
        return f

    c.add("absurd_dims_negative.onnx", with_init(dims([-1], b"\x00" * 4)),
          "initializer with dims [-1]")
    c.add("absurd_dims_int64_min.onnx", with_init(dims([-(1 << 63)], b"")),
          "initializer with dims [-2^63]")
    c.add("absurd_dims_mul_overflow.onnx", with_init(dims([1 << 62, 1 << 62], b"\x00" * 4)),
          "initializer with dims [2^62, 2^62]: element count overflows int64")
    c.add("absurd_dims_bytes_overflow.onnx", with_init(dims([1 << 62], b"\x00" * 4)),
          "float initializer with dims [2^62]: byte size (x4) overflows int64")
    c.add("absurd_dims_wrap_to_small.onnx",
          with_init(dims([1 << 32, 1 << 32, 1 << 32], b"\x00" * 4)),
          "dims [2^32,2^32,2^32]: product wraps to 0 mod 2^64")
    # Two more odd but loadable cases (raw_data shorter than dims say, and a
    # negative dim_value in value_info) live in test/data/odd/: a loader keeps
    # them (libonnxslim check reports them) and fails only when the data is read.


def gen_deep(c, b):
    d = b.data
    gp = d[b.graph_f.vstart:b.graph_f.end]

    # 5000 TypeProto levels = 10000 nested messages (TypeProto <-> Sequence).
    levels = 5000
    tp = f_len(1, f_varint(1, TensorProto.FLOAT))           # TypeProto{tensor_type}
    for _ in range(levels):
        seq = f_len(1, tp)                                  # Sequence{elem_type}
        tp = f_len(4, seq)                                  # TypeProto{sequence_type}
    vi = f_len(1, "deep") + f_len(2, tp)
    c.add("deep_nesting_sequence_type.onnx", b.with_graph(gp + f_len(13, vi)),
          "value_info whose TypeProto nests sequence_type %d deep (%d messages)"
          % (levels, 2 * levels))

    # If-subgraph nesting, 500 deep: each then_branch holds another If.
    depth = 500
    else_g = f_len(2, "e") + f_len(12, f_len(1, "eo"))
    inner = f_len(2, "g%d" % depth) + f_len(12, f_len(1, "o%d" % depth))
    for k in range(depth - 1, -1, -1):
        then_attr = (f_len(1, "then_branch") + f_len(6, inner) +
                     f_varint(20, 5))                       # AttributeProto.GRAPH
        else_attr = (f_len(1, "else_branch") + f_len(6, else_g) + f_varint(20, 5))
        node = (f_len(1, "cond") + f_len(2, "o%d" % k) + f_len(3, "if%d" % k) +
                f_len(4, "If") + f_len(5, then_attr) + f_len(5, else_attr))
        inner = f_len(1, node) + f_len(2, "g%d" % k) + f_len(12, f_len(1, "o%d" % k))
    # inner is now a whole graph; use it as the top graph (keeps inputs simple).
    c.add("deep_nesting_if_subgraph.onnx", b.with_graph(inner),
          "graph of If nodes whose then_branch nests %d levels deep" % depth)

    # Deep unknown groups (a skipper that recurses per group level).
    groups = tag(60, WT_SGROUP) * 3000 + tag(60, WT_EGROUP) * 3000
    c.add("deep_nesting_groups.onnx", b.with_graph(gp, after=groups),
          "3000 nested start-groups of unknown field 60, all closed")


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    outdir = argv[1] if len(argv) > 1 else os.path.join(here, "corpus")
    os.makedirs(outdir, exist_ok=True)

    model = base_model()
    data = model.SerializeToString()
    why = strict_reject_reason(data)
    if why:
        sys.exit("make_bad_corpus.py: validator rejects the base model: %s" % why)
    b = Base(data)

    c = Corpus()
    rng = random.Random(20240601)
    gen_trunc(c, b)
    gen_random(c, rng)
    gen_mutate(c, b, rng)
    gen_wire_type(c, b)
    gen_len_past_end(c, b)
    gen_varint(c, b)
    gen_zero_tag(c, b)
    gen_huge_len(c, b)
    gen_packed(c, b)
    gen_absurd_dims(c, model)
    gen_deep(c, b)

    total = 0
    lenient = []
    for name, blob, desc in c.cases:
        why = strict_reject_reason(blob)
        if not why:
            sys.exit("make_bad_corpus.py: case %s is not rejected" % name)
        if len(blob) >= MAX_FILE:
            sys.exit("make_bad_corpus.py: case %s is %d bytes" % (name, len(blob)))
        total += len(blob)
        if protobuf_accepts(blob):
            lenient.append(name)
    if total >= MAX_TOTAL:
        sys.exit("make_bad_corpus.py: corpus is %d bytes" % total)

    for old in os.listdir(outdir):
        if old.endswith(".onnx"):
            os.remove(os.path.join(outdir, old))
    for name, blob, _ in c.cases:
        with open(os.path.join(outdir, name), "wb") as f:
            f.write(blob)
    write_readme(outdir, c, len(data))

    print("%s: %d files, %d bytes (base model %d bytes)" % (
        outdir, len(c.cases), total, len(data)))
    print("parsed without error by the stock protobuf runtime "
          "(must still be rejected by a strict loader): %d: %s"
          % (len(lenient), " ".join(lenient)))


CATEGORIES = [
    ("trunc_", "the valid base model cut at byte offset NNN, always strictly inside a "
               "top-level field (mid-tag, mid-varint, mid-length, mid-payload, nested "
               "boundaries); cuts at top-level field boundaries are excluded"),
    ("random_", "seeded random bytes of various sizes (1 B .. 20 KB)"),
    ("mutate_", "the base model with 1-3 random bytes overwritten, kept only when the "
                "result is malformed at the wire level"),
    ("wire_type_", "known fields with the wrong wire type (message as varint/fixed32/"
                   "fixed64/group, string as fixed64/varint, int64 as LEN/fixed32), "
                   "groups that are unterminated, stray or mismatched, wire types 6/7"),
    ("len_past_end_", "a length prefix larger than the bytes left, at top level, in a "
                      "string at EOF, and nested (overrunning the parent but not the file)"),
    ("varint_", "varints of 11 bytes, with bits past 64, as a tag, as a length, and "
                "unterminated at EOF"),
    ("zero_tag", "field number 0 at top level and nested"),
    ("field_num_too_big", "a tag whose field number exceeds 2^29-1"),
    ("huge_len", "length prefixes 2^63, 2^64-1, 2^31+5, 2^32+real (wraps to the right "
                 "value if truncated to 32 bits) and 2^62 on a nested raw_data"),
    ("packed_", "packed repeated fields with a truncated varint or a fixed-width "
                "payload whose size is not a multiple of the element size"),
    ("absurd_dims_", "well-formed protobuf with impossible tensor dims: negative, "
                     "int64 min, products overflowing int64 or byte size, raw_data size "
                     "mismatch, negative value_info dim_value"),
    ("deep_nesting_", "10000 nested TypeProto/Sequence messages, If subgraphs nested "
                      "500 deep, 3000 nested unknown groups (a loader needs a depth limit)"),
]


def write_readme(outdir, c, base_len):
    lines = [
        "# Bad-input corpus for the ModelProto loader",
        "",
        "Generated by `test/fuzz/make_bad_corpus.py` (deterministic; rerun with",
        "`/usr/bin/python3 test/fuzz/make_bad_corpus.py`). Do not edit by hand.",
        "",
        "Every `*.onnx` file here must be REJECTED by a strict loader (and must",
        "not crash, hang or allocate absurd amounts of memory). Each is derived",
        "from a small valid model (%d bytes: MatMul/Relu/If/Add, raw_data" % base_len,
        "initializer, then/else subgraphs, symbolic-dim value_info) and checked by",
        "the script's strict reference validator (known-field wire types, varint",
        "<= 10 bytes, field number 1..2^29-1, lengths inside the parent, no groups",
        "on known fields, nesting depth <= %d, graph present, sane tensor dims)." % MAX_DEPTH,
        "",
        "## Categories",
        "",
    ]
    for prefix, text in CATEGORIES:
        lines.append("- `%s*`: %s." % (prefix, text))
    lines += ["", "## Files", ""]
    for name, blob, desc in sorted(c.cases):
        lines.append("- `%s` (%d B): %s" % (name, len(blob), desc))
    lines.append("")
    with open(os.path.join(outdir, "README.md"), "w") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    main(sys.argv)
