#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Checks that recipe outputs are equivalent, for bench/run.sh.

    compare_recipe.py ORIG.onnx REF.onnx OTHER.onnx...

Every model is checked with onnx.checker.check_model(path) and loaded with
python onnx (external data included). Each OTHER is compared with REF:
  - initializers: same names, data types, dims and bytes (bit for bit);
  - nodes: same sequence of (op_type, domain, inputs, outputs, attributes);
    node names are ignored (tools name the inserted Casts differently);
  - graph inputs, outputs and value_info: equal.
For REF alone: every BFLOAT16 initializer must be the top 16 bits of the
FLOAT initializer of the same name in ORIG (the recipe's truncation), and
every other initializer must be unchanged.
Prints one line per model and exits 1 on any difference.
"""

import sys

import numpy as np
import onnx
from onnx import TensorProto, numpy_helper


def tensor_bytes(t):
    if t.HasField("raw_data"):
        return bytes(t.raw_data)
    return numpy_helper.to_array(t).tobytes()


def node_key(n):
    return (n.op_type, n.domain, tuple(n.input), tuple(n.output),
            tuple(a.SerializeToString(deterministic=True) for a in n.attribute))


def load(path):
    onnx.checker.check_model(path)
    return onnx.load(path)


def compare(ref, other):
    diffs = []
    ri = {t.name: t for t in ref.graph.initializer}
    oi = {t.name: t for t in other.graph.initializer}
    if set(ri) != set(oi):
        diffs.append("initializer names differ: only in ref %s, only in other %s"
                     % (sorted(set(ri) - set(oi))[:5], sorted(set(oi) - set(ri))[:5]))
    for name in sorted(set(ri) & set(oi)):
        a, b = ri[name], oi[name]
        if a.data_type != b.data_type or list(a.dims) != list(b.dims):
            diffs.append("%s: type/dims %d%s vs %d%s" % (name, a.data_type, list(a.dims),
                                                        b.data_type, list(b.dims)))
        elif tensor_bytes(a) != tensor_bytes(b):
            diffs.append("%s: bytes differ" % name)
    rn = [node_key(n) for n in ref.graph.node]
    on = [node_key(n) for n in other.graph.node]
    if rn != on:
        if sorted(rn) == sorted(on):
            diffs.append("same nodes in a different order")
        else:
            k = next((i for i, (x, y) in enumerate(zip(rn, on)) if x != y), min(len(rn), len(on)))
            diffs.append("nodes differ from node %d: %s vs %s"
                         % (k, rn[k][:4] if k < len(rn) else None, on[k][:4] if k < len(on) else None))
    for field in ("input", "output", "value_info"):
        if list(getattr(ref.graph, field)) != list(getattr(other.graph, field)):
            diffs.append("graph %s differs" % field)
    return diffs


def check_truncation(orig, ref):
    diffs, n = [], 0
    oi = {t.name: t for t in orig.graph.initializer}
    for t in ref.graph.initializer:
        o = oi.get(t.name)
        if o is None:
            diffs.append("%s: not in the original" % t.name)
        elif t.data_type == TensorProto.BFLOAT16 and o.data_type == TensorProto.FLOAT:
            want = (np.frombuffer(tensor_bytes(o), dtype="<u4") >> 16).astype("<u2").tobytes()
            n += 1
            if tensor_bytes(t) != want:
                diffs.append("%s: BF16 bytes are not the truncated FP32" % t.name)
        elif t.data_type != o.data_type or tensor_bytes(t) != tensor_bytes(o):
            diffs.append("%s: changed although not converted" % t.name)
    return diffs, n


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    orig = load(argv[0])
    ref = load(argv[1])
    diffs, n = check_truncation(orig, ref)
    del orig
    bad = bool(diffs) or n == 0
    print("%s: checker ok, %d table(s) = truncated FP32 bit for bit%s"
          % (argv[1], n, "" if not diffs else "; " + "; ".join(diffs[:5])))
    for path in argv[2:]:
        d = compare(ref, load(path))
        bad = bad or bool(d)
        print("%s: checker ok, %s" % (path, "equivalent to %s (initializers bit for bit, "
                                             "nodes, inputs, outputs)" % argv[1]
                                      if not d else "DIFFERENT: " + "; ".join(d[:5])))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
