#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Write the seed corpus of fuzz_passes (test/fuzz/fuzz_passes.c).

Usage:
    make_passes_corpus.py [OUTDIR]   (default: corpus-passes/ next to this script)

Each file is 4 option bytes (test/fuzz/passes_core.h) followed by a model:
a small model with every kind of tensor the passes touch (a Gather table, a
MatMul weight, a Gemm weight and bias, a Constant, a Reshape shape, an If
whose branches read the table), at opsets 13 and 21, then the same model
with one node made odd: no outputs, outputs "", no inputs, inputs "", its
first input "" - the nodes that crashed the conversions when nothing ran
remove_unused first. Also the issue's Gather without outputs
(gather_no_outputs.onnx, written to test/fuzz/regressions/ as well when
OUTDIR is the default). Deterministic; old *.bin files in OUTDIR are removed,
but for regress_*.bin: inputs fuzz_passes found a bug with, kept by hand
(regress_convert_refusal_after_edits.bin: a Gemm whose C is INT16, where a
conversion refused a Cast after converting the tensors before it).
Needs Debian's python3-onnx (run with /usr/bin/python3).
"""

import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper


def kitchen(opset):
    rng = np.random.default_rng(7)
    f = np.float32
    inits = [
        numpy_helper.from_array(rng.standard_normal((4, 16)).astype(f), "E"),
        numpy_helper.from_array(rng.standard_normal((16, 16)).astype(f), "W"),
        numpy_helper.from_array(rng.standard_normal((16, 16)).astype(f), "B"),
        numpy_helper.from_array(rng.standard_normal((16,)).astype(f), "C"),
        numpy_helper.from_array(np.array([-1, 16], dtype=np.int64), "S"),
    ]
    branch = lambda name: helper.make_graph(
        [helper.make_node("Gather", ["E", "ids"], [name + "_g"], name=name + "_gather")],
        name, [], [helper.make_tensor_value_info(name + "_g", TensorProto.FLOAT, None)])
    nodes = [
        helper.make_node("Gather", ["E", "ids"], ["emb"], name="gather"),
        helper.make_node("MatMul", ["emb", "W"], ["mm"], name="matmul"),
        helper.make_node("Gemm", ["mm", "B", "C"], ["gm"], name="gemm", transB=1),
        helper.make_node("Constant", [], ["k"], name="const",
                         value=numpy_helper.from_array(np.full((16,), 0.5, f), "kv")),
        helper.make_node("Add", ["gm", "k"], ["ad"], name="add"),
        helper.make_node("Reshape", ["ad", "S"], ["rs"], name="reshape"),
        helper.make_node("If", ["cond"], ["br"], name="if",
                         then_branch=branch("then"), else_branch=branch("else")),
        helper.make_node("Cast", ["rs"], ["y"], name="cast", to=TensorProto.FLOAT16),
    ]
    g = helper.make_graph(
        nodes, "kitchen",
        [helper.make_tensor_value_info("ids", TensorProto.INT64, ["n"]),
         helper.make_tensor_value_info("cond", TensorProto.BOOL, [])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT16, ["n", 16]),
         helper.make_tensor_value_info("br", TensorProto.FLOAT, None)],
        initializer=inits,
        value_info=[helper.make_tensor_value_info("emb", TensorProto.FLOAT, ["n", 16])])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    return m


def gather_no_outputs():
    """The issue's model: a Gather with no outputs (helper.make_node("Gather",
    ["T", "idx"], []))."""
    t = numpy_helper.from_array(np.arange(24, dtype=np.float32).reshape(6, 4), "T")
    g = helper.make_graph(
        [helper.make_node("Gather", ["T", "idx"], [])], "gather_no_outputs",
        [helper.make_tensor_value_info("idx", TensorProto.INT64, [2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4])], [t])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 8
    return m.SerializeToString()


def odd(model, k, how):
    m = type(model)()
    m.CopyFrom(model)
    n = m.graph.node[k]
    if how == "no_outputs":
        del n.output[:]
    elif how == "empty_outputs":
        for i in range(len(n.output)):
            n.output[i] = ""
    elif how == "no_inputs":
        del n.input[:]
    elif how == "empty_inputs":
        for i in range(len(n.input)):
            n.input[i] = ""
    elif how == "first_input_empty":
        if not n.input:
            return None
        n.input[0] = ""
    return m.SerializeToString()


def opts(i):
    """Option bytes that vary with the case number."""
    return bytes([(i * 37 + 8) & 0xFF, (i * 91) & 0xFF, (i * 53) & 0xFF, (i * 29 + i // 8) & 0xFF])


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    outdir = argv[1] if len(argv) > 1 else os.path.join(here, "corpus-passes")
    os.makedirs(outdir, exist_ok=True)
    cases = []
    for opset in (13, 21):
        base = kitchen(opset)
        cases.append(("kitchen%d" % opset, base.SerializeToString()))
        for k, node in enumerate(base.graph.node):
            for how in ("no_outputs", "empty_outputs", "no_inputs", "empty_inputs",
                        "first_input_empty"):
                b = odd(base, k, how)
                if b is not None:
                    cases.append(("kitchen%d_%s_%s" % (opset, node.name, how), b))
    gno = gather_no_outputs()
    # options 0: everything at its default; 1: BF16 truncated; 0x0f: a
    # report, saturation and flushing
    for i, o in enumerate((b"\x00", b"\x01", b"\x0f")):
        cases.append(("gather_no_outputs_%d" % i, o + b"\x00\x00\x00" + gno))
    for old in os.listdir(outdir):
        if old.endswith(".bin") and not old.startswith("regress_"):
            os.remove(os.path.join(outdir, old))
    for i, c in enumerate(cases):
        name, data = c[0], (c[1] if c[0].startswith("gather_no") else opts(i) + c[1])
        with open(os.path.join(outdir, name + ".bin"), "wb") as f:
            f.write(data)
    if len(argv) <= 1:
        reg = os.path.join(here, "regressions")
        os.makedirs(reg, exist_ok=True)
        with open(os.path.join(reg, "gather_no_outputs.onnx"), "wb") as f:
            f.write(gno)
    print("%s: %d files; gather_no_outputs.onnx: %d bytes" % (outdir, len(cases), len(gno)))


if __name__ == "__main__":
    main(sys.argv)
