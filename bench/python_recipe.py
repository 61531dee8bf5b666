#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""The "Python way" of the published recipe, with onnx + numpy, as a
reference point for bench/run.sh.

    python_recipe.py IN.onnx OUT.onnx [--table NAME]... [--min-size BYTES]

1. load the model (onnx.load: every tensor comes into memory);
2. take each FLOAT initializer read as input 0 of a Gather (an embedding
   table) of at least --min-size bytes, or only the tables named with
   --table, and convert it to BF16 by truncation: keep the top 16 bits of
   each FP32 value;
3. replace the initializer's data (data_type BFLOAT16, raw_data);
4. rename the Gather's output to <out>_bf16 and add a Cast(to=FLOAT) right
   after the Gather that produces the original name, so nothing downstream
   changes;
5. save as one file with onnx.save.

Prints one line per converted table. Needs Debian's python3-onnx and
python3-numpy (run with /usr/bin/python3).
"""

import argparse
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def fresh(name, used):
    """name, or name_N when name is taken."""
    if name not in used:
        used.add(name)
        return name
    k = 1
    while "%s_%d" % (name, k) in used:
        k += 1
    used.add("%s_%d" % (name, k))
    return "%s_%d" % (name, k)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("src")
    ap.add_argument("dst")
    ap.add_argument("--table", action="append", default=[],
                    help="convert only this initializer (repeatable)")
    ap.add_argument("--min-size", type=int, default=0,
                    help="minimum byte size of a table (default 0)")
    a = ap.parse_args(argv)

    model = onnx.load(a.src)
    graph = model.graph
    inits = {t.name: t for t in graph.initializer}
    used = set(inits)
    for n in graph.node:
        used.update(n.input)
        used.update(n.output)
        used.add(n.name)
    for v in list(graph.input) + list(graph.output) + list(graph.value_info):
        used.add(v.name)

    # Which tables: FLOAT initializers that some Gather reads as input 0.
    tables = []
    for n in graph.node:
        if n.op_type != "Gather" or n.domain not in ("", "ai.onnx") or not n.input:
            continue
        t = inits.get(n.input[0])
        if t is None or t.data_type != TensorProto.FLOAT or t.name in tables:
            continue
        if a.table and t.name not in a.table:
            continue
        if not a.table and 4 * int(np.prod(t.dims)) < a.min_size:
            continue
        tables.append(t.name)

    for name in tables:
        t = inits[name]
        w = numpy_helper.to_array(t)                      # FP32, in memory
        bf16 = (w.view(np.uint32) >> 16).astype(np.uint16)  # truncation
        t.ClearField("float_data")
        t.data_type = TensorProto.BFLOAT16
        t.raw_data = bf16.tobytes()
        print("%s: %s FLOAT -> BFLOAT16 (truncate), %d -> %d bytes"
              % (name, list(t.dims), w.nbytes, bf16.nbytes))
        del w, bf16

    # Rewire every Gather that reads a converted table: Gather -> X_bf16,
    # Cast(to=FLOAT) X_bf16 -> X. Nodes are rebuilt in order so each Cast sits
    # right after its Gather.
    nodes = []
    for n in graph.node:
        nodes.append(n)
        if n.op_type == "Gather" and n.domain in ("", "ai.onnx") and n.input \
                and n.input[0] in tables:
            out = n.output[0]
            bf_out = fresh(out + "_bf16", used)
            n.output[0] = bf_out
            cast_name = fresh((n.name or out) + "_cast", used)
            nodes.append(helper.make_node("Cast", [bf_out], [out], name=cast_name,
                                          to=TensorProto.FLOAT))
    del graph.node[:]
    graph.node.extend(nodes)

    onnx.save(model, a.dst)
    return 0


if __name__ == "__main__":
    sys.exit(main())
