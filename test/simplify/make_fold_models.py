#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Models for the runtime proof of constant folding (test step
32-simplify-ort): graphs whose nodes have all-constant inputs, as exports
have them, each reading a graph input so that the runtime has something to
compute.

usage: make_fold_models.py OUT_DIR [BERT.onnx]
Writes OUT_DIR/fold_*.onnx; with BERT.onnx (a test/gen/make_bert.py model,
inputs input_ids and attention_mask [batch, seq]) also
OUT_DIR/fold_bert_static.onnx: the same model with batch 2 and seq 16
fixed, so that its Shape -> Squeeze -> Range -> Gather of the position
table folds. Prints the names written.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh


def model(name, nodes, inputs, outputs, inits, opset=17):
    g = h.make_graph(nodes, name, inputs, outputs, [nh.from_array(v, k) for k, v in inits.items()])
    m = h.make_model(g, opset_imports=[h.make_opsetid("", opset)], producer_name="make_fold_models")
    m.ir_version = 8
    return m


def i64(*v):
    return np.array(v, np.int64)


def reshape_chain():
    """Shape -> Gather -> Unsqueeze -> Concat -> Reshape, the flattening an
    export writes, then ConstantOfShape of the result's (inferred) shape,
    and Size."""
    n = [
        h.make_node("Shape", ["x"], ["s"]),
        h.make_node("Gather", ["s", "zero"], ["b"], axis=0),
        h.make_node("Unsqueeze", ["b", "ax0"], ["bu"]),
        h.make_node("Concat", ["bu", "m1"], ["shape"], axis=0),
        h.make_node("Reshape", ["x", "shape"], ["flat"]),
        h.make_node("Shape", ["flat"], ["fs"]),
        h.make_node("ConstantOfShape", ["fs"], ["ones"],
                    value=nh.from_array(np.array([1.5], np.float32))),
        h.make_node("Add", ["flat", "ones"], ["y"]),
        h.make_node("Size", ["x"], ["n"]),
    ]
    return model("fold_reshape_chain", n,
                 [h.make_tensor_value_info("x", T.FLOAT, [2, 3, 4])],
                 [h.make_tensor_value_info("y", T.FLOAT, [2, 12]),
                  h.make_tensor_value_info("n", T.INT64, [])],
                 {"zero": np.array(0, np.int64), "ax0": i64(0), "m1": i64(-1)})


def int_arith():
    """Range, integer arithmetic (Div, Mod of negative values, Mul, Sub,
    Neg, Max) and exact Casts feeding a float input's Add."""
    n = [
        h.make_node("Range", ["r0", "r1", "r2"], ["r"]),
        h.make_node("Sub", ["r", "five"], ["rs"]),
        h.make_node("Div", ["rs", "three"], ["d"]),
        h.make_node("Mod", ["rs", "three"], ["mo"]),
        h.make_node("Mod", ["rs", "mthree"], ["mf"], fmod=1),
        h.make_node("Mul", ["d", "mo"], ["p"]),
        h.make_node("Neg", ["mf"], ["ng"]),
        h.make_node("Max", ["p", "ng", "d"], ["mx"]),
        h.make_node("Cast", ["mx"], ["mxi"], to=T.INT32),
        h.make_node("Cast", ["mxi"], ["f"], to=T.FLOAT),
        h.make_node("Add", ["x", "f"], ["y"]),
        h.make_node("Equal", ["d", "mo"], ["eq"]),
        h.make_node("Cast", ["eq"], ["eqf"], to=T.FLOAT),
        h.make_node("Mul", ["x", "eqf"], ["z"]),
    ]
    return model("fold_int_arith", n,
                 [h.make_tensor_value_info("x", T.FLOAT, ["batch", 10])],
                 [h.make_tensor_value_info("y", T.FLOAT, ["batch", 10]),
                  h.make_tensor_value_info("z", T.FLOAT, ["batch", 10])],
                 {"r0": np.array(0, np.int64), "r1": np.array(10, np.int64),
                  "r2": np.array(1, np.int64), "five": i64(5), "three": i64(3),
                  "mthree": i64(-3)})


def movement():
    """Slice (negative step), Gather (negative index), Transpose of a
    weight, Squeeze/Unsqueeze, Expand, Where and Concat on constants."""
    w = np.arange(12, dtype=np.float32).reshape(4, 3) / 7
    n = [
        h.make_node("Transpose", ["w"], ["wt"], perm=[1, 0]),
        h.make_node("MatMul", ["x", "wt"], ["xw"]),
        h.make_node("Slice", ["v", "st", "en", "ax", "sp"], ["sl"]),
        h.make_node("Gather", ["sl", "idx"], ["ga"], axis=0),
        h.make_node("Unsqueeze", ["ga", "ax0"], ["gu"]),
        h.make_node("Squeeze", ["gu", "ax0"], ["gs"]),
        h.make_node("Expand", ["gs", "eshape"], ["ex"]),
        h.make_node("Greater", ["ex", "thr"], ["cond"]),
        h.make_node("Where", ["cond", "ex", "thr"], ["wh"]),
        h.make_node("Concat", ["wh", "wh"], ["cc"], axis=1),
        h.make_node("Cast", ["cc"], ["ccf"], to=T.FLOAT),
        h.make_node("Flatten", ["ccf"], ["fl"], axis=0),
        h.make_node("Add", ["xw", "ccf"], ["y"]),
        h.make_node("Mul", ["x", "x"], ["x2"]),
    ]
    return model("fold_movement", n,
                 [h.make_tensor_value_info("x", T.FLOAT, [2, 3])],
                 [h.make_tensor_value_info("y", T.FLOAT, [2, 4]),
                  h.make_tensor_value_info("fl", T.FLOAT, [1, 8])],
                 {"w": w, "v": np.arange(10, dtype=np.int64) * 3 - 7, "st": i64(8), "en": i64(0),
                  "ax": i64(0), "sp": i64(-2), "idx": i64(-1, 0), "ax0": i64(0),
                  "eshape": i64(2, 2), "thr": i64(5)})


def weights():
    """Reshape (constant shape, with -1) and Identity of weights that
    only these nodes read: folded in place, the weight renamed and
    reshaped without a copy, whatever its size."""
    rng = np.random.default_rng(5)
    w = rng.standard_normal((64, 48)).astype(np.float32)
    v = rng.standard_normal((48, 8)).astype(np.float32)
    n = [
        h.make_node("Reshape", ["w", "wshape"], ["wr"]),
        h.make_node("MatMul", ["x", "wr"], ["xw"]),
        h.make_node("Identity", ["v"], ["vi"]),
        h.make_node("MatMul", ["xw", "vi"], ["y"]),
    ]
    return model("fold_weights", n,
                 [h.make_tensor_value_info("x", T.FLOAT, ["batch", 48])],
                 [h.make_tensor_value_info("y", T.FLOAT, ["batch", 8])],
                 {"w": w, "v": v, "wshape": i64(48, -1)})
def edge_floats(shape, seed):
    """FP32 values of the given shape, as bit patterns: random ones (every
    exponent, NaNs with payloads included) and the edges of a conversion
    to FP16 (signed zeros, Inf, quiet and signaling NaNs, FP16 subnormals
    and ties, the overflow threshold 65520)."""
    rng = np.random.default_rng(seed)
    bits = rng.integers(0, 2**32, size=int(np.prod(shape)), dtype=np.uint64).astype(np.uint32)
    edges = [0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000,
             0x7F800001, 0x7FA00000, 0x7F812345, 0xFFBFFFFF, 0x33800000, 0x33000000,
             0x33000001, 0x387FC000, 0x387FE000, 0x477FF000, 0x477FEFFF, 0x3F801000,
             0x3F803000, 0x00800000, 0x007FFFFF, 0xC77FF000]
    bits[:len(edges)] = edges
    return bits.view(np.float32).reshape(shape)


def weight_casts():
    """Cast to FLOAT16 of FP32 weights larger than the fold cap (2.5 MiB
    and 1.5 MiB) that only the Cast reads: folded in place, the weight
    pending its conversion, streamed by the save. One is a graph output
    through a Reshape (1.25 MiB: over the cap, it stays), its bits compared
    whole (NaN payloads, subnormals, ties); the other feeds a MatMul with
    the input."""
    rng = np.random.default_rng(6)
    w = edge_floats((1024, 640), 7)
    v = rng.standard_normal((768, 512)).astype(np.float32)
    n = [
        h.make_node("Cast", ["w"], ["w16"], to=T.FLOAT16),
        h.make_node("Reshape", ["w16", "flat"], ["wout"]),
        h.make_node("Cast", ["v"], ["v16"], to=T.FLOAT16),
        h.make_node("MatMul", ["x", "v16"], ["y"]),
    ]
    return model("fold_weight_casts", n,
                 [h.make_tensor_value_info("x", T.FLOAT16, ["batch", 768])],
                 [h.make_tensor_value_info("y", T.FLOAT16, ["batch", 512]),
                  h.make_tensor_value_info("wout", T.FLOAT16, [1024 * 640])],
                 {"w": w, "v": v, "flat": i64(-1)})


def weight_transposes():
    """Transpose of 2-D weights larger than the fold cap (1.6 MiB and 1.4
    MiB) that only the Transpose reads: folded in place, the weight pending
    its transpose (made by bands of columns while saving). One feeds a
    MatMul with the input; the other, random bit patterns, is a graph
    output through a Reshape (over the cap, it stays), its bits compared
    whole."""
    rng = np.random.default_rng(8)
    w = rng.standard_normal((700, 600)).astype(np.float32)
    e = edge_floats((900, 400), 9)
    n = [
        h.make_node("Transpose", ["w"], ["wt"]),
        h.make_node("MatMul", ["x", "wt"], ["y"]),
        h.make_node("Transpose", ["e"], ["et"], perm=[1, 0]),
        h.make_node("Reshape", ["et", "flat"], ["eout"]),
    ]
    return model("fold_weight_transposes", n,
                 [h.make_tensor_value_info("x", T.FLOAT, ["batch", 600])],
                 [h.make_tensor_value_info("y", T.FLOAT, ["batch", 700]),
                  h.make_tensor_value_info("eout", T.FLOAT, [900 * 400])],
                 {"w": w, "e": e, "flat": i64(-1)})


def weight_transposes_nd():
    """Transposes of weights of rank 3 and 4 over the fold cap (1.1 to 2.4
    MiB) that only the Transpose reads, folded in place whatever their perm (made by the save from runs of the
    source): a TF-style conv weight HWIO to OIHW read by a Conv, attention
    heads [12, 64, 768] to [768, 12, 64] reshaped for a MatMul; and, as graph
    outputs through a Reshape (whose bits are compared whole), random bit
    patterns of FLOAT, FLOAT16 (an axis of size 1 moved too), INT64 and
    UINT8 by other perms."""
    rng = np.random.default_rng(10)
    hwio = rng.standard_normal((3, 3, 128, 256)).astype(np.float32)
    heads = rng.standard_normal((12, 64, 768)).astype(np.float32)
    e = edge_floats((9, 10, 61, 67), 11)
    f = rng.integers(0, 2**16, size=(37, 1, 129, 131), dtype=np.uint16).view(np.float16)
    k = rng.integers(-2**62, 2**62, size=(40, 50, 70), dtype=np.int64)
    u = rng.integers(0, 256, size=(1031, 1033, 2), dtype=np.uint8)
    n = [
        h.make_node("Transpose", ["hwio"], ["oihw"], perm=[3, 2, 0, 1]),
        h.make_node("Conv", ["x", "oihw"], ["y"], pads=[1, 1, 1, 1]),
        h.make_node("Transpose", ["heads"], ["ht"], perm=[2, 0, 1]),
        h.make_node("Reshape", ["ht", "hshape"], ["h2"]),
        h.make_node("MatMul", ["x2", "h2"], ["y2"]),
    ]
    outs = [h.make_tensor_value_info("y", T.FLOAT, ["batch", 256, 6, 6]),
            h.make_tensor_value_info("y2", T.FLOAT, ["batch", 768])]
    inits = {"hwio": hwio, "heads": heads, "hshape": i64(768, 768), "flat": i64(-1)}
    for name, v, perm, t in [("e", e, [2, 0, 3, 1], T.FLOAT), ("f", f, [3, 1, 0, 2], T.FLOAT16),
                             ("k", k, [1, 2, 0], T.INT64), ("u", u, [2, 1, 0], T.UINT8)]:
        n += [h.make_node("Transpose", [name], [name + "t"], perm=perm),
              h.make_node("Reshape", [name + "t", "flat"], [name + "out"])]
        outs.append(h.make_tensor_value_info(name + "out", t, [v.size]))
        inits[name] = v
    return model("fold_weight_transposes_nd", n,
                 [h.make_tensor_value_info("x", T.FLOAT, ["batch", 128, 6, 6]),
                  h.make_tensor_value_info("x2", T.FLOAT, ["batch", 768])],
                 outs, inits)


def weight_transposes_tall():
    """Transposes of tall 2-D weights (over 16384 rows, a few columns) that
    only the Transpose reads: folded in place, the save makes each chunk's
    columns from windows of whole rows. One (3.7 MiB) feeds a MatMul; the
    other (1.1 MiB), random bit patterns, is a graph output through a Reshape, its
    bits compared whole."""
    rng = np.random.default_rng(12)
    w = rng.standard_normal((20000, 48)).astype(np.float32)
    e = edge_floats((100003, 3), 13)
    n = [
        h.make_node("Transpose", ["w"], ["wt"]),
        h.make_node("MatMul", ["x", "wt"], ["y"]),
        h.make_node("Transpose", ["e"], ["et"], perm=[1, 0]),
        h.make_node("Reshape", ["et", "flat"], ["eout"]),
    ]
    return model("fold_weight_transposes_tall", n,
                 [h.make_tensor_value_info("x", T.FLOAT, ["batch", 48])],
                 [h.make_tensor_value_info("y", T.FLOAT, ["batch", 20000]),
                  h.make_tensor_value_info("eout", T.FLOAT, [100003 * 3])],
                 {"w": w, "e": e, "flat": i64(-1)})


def constant_nodes():
    """Constant nodes of each attribute form (value, value_float(s),
    value_int(s)) read by float and integer operators, one of them inside an
    If branch (subgraphs keep theirs); one Constant is a graph output and
    becomes an initializer too."""
    then_g = h.make_graph(
        [h.make_node("Constant", [], ["tk"], value_floats=[0.25, -1.0, 3.5, 0.0]),
         h.make_node("Mul", ["x", "tk"], ["ty"])],
        "then", [], [h.make_tensor_value_info("ty", T.FLOAT, [3, 4])])
    else_g = h.make_graph([h.make_node("Identity", ["x"], ["ey"])], "else", [],
                          [h.make_tensor_value_info("ey", T.FLOAT, [3, 4])])
    n = [
        h.make_node("Constant", [], ["kt"], value=nh.from_array(np.array([[1.5], [-2.0], [0.125]],
                                                                         np.float32))),
        h.make_node("Constant", [], ["kf"], value_float=0.1),
        h.make_node("Constant", [], ["kfs"], value_floats=[1.0, 2.0, -3.0, 0.5]),
        h.make_node("Constant", [], ["ki"], value_int=3),
        h.make_node("Constant", [], ["kis"], value_ints=[2, -1, 7, 0]),
        h.make_node("Constant", [], ["kout"], value_ints=[4, 5]),
        h.make_node("Mul", ["x", "kt"], ["a"]),
        h.make_node("Add", ["a", "kf"], ["b"]),
        h.make_node("Sub", ["b", "kfs"], ["y"]),
        h.make_node("Add", ["i", "ki"], ["ia"]),
        h.make_node("Mul", ["ia", "kis"], ["yi"]),
        h.make_node("If", ["c"], ["z"], then_branch=then_g, else_branch=else_g),
    ]
    return model("fold_constant_nodes", n,
                 [h.make_tensor_value_info("x", T.FLOAT, [3, 4]),
                  h.make_tensor_value_info("i", T.INT64, [4]),
                  h.make_tensor_value_info("c", T.BOOL, [])],
                 [h.make_tensor_value_info("y", T.FLOAT, [3, 4]),
                  h.make_tensor_value_info("yi", T.INT64, [4]),
                  h.make_tensor_value_info("z", T.FLOAT, [3, 4]),
                  h.make_tensor_value_info("kout", T.INT64, [2])],
                 {})


def noop_inferred():
    """No-ops the model states no type for: a Cast to the type its input
    has by inference, a Reshape by a Shape that folds to the shape its input
    already has (both removed by the noop pass); a Cast to another type
    stays."""
    n = [
        h.make_node("Relu", ["x"], ["r"]),
        h.make_node("Cast", ["r"], ["c"], to=T.FLOAT),
        h.make_node("Shape", ["c"], ["s"]),
        h.make_node("Reshape", ["c", "s"], ["rs"]),
        h.make_node("Add", ["rs", "x"], ["y"]),
        h.make_node("Cast", ["r"], ["yd"], to=T.DOUBLE),
    ]
    return model("fold_noop_inferred", n,
                 [h.make_tensor_value_info("x", T.FLOAT, [2, 3, 4])],
                 [h.make_tensor_value_info("y", T.FLOAT, [2, 3, 4]),
                  h.make_tensor_value_info("yd", T.DOUBLE, [2, 3, 4])],
                 {})


def float_arith():
    """Float folds over 4096 random bit patterns (subnormals, zeros, large
    values; no NaN or infinity): Add, Sub, Mul, Div, Sqrt, Reciprocal, Neg,
    Abs, comparisons and Casts FLOAT -> DOUBLE -> FLOAT, each result
    added to x * 0, so that the runtime's vectorized kernels on the
    original and the folded constants meet in the outputs."""
    rng = np.random.default_rng(7)

    def finite(pos):
        u = rng.integers(0, 2**32, 4096, dtype=np.uint64).astype(np.uint32)
        u = np.where((u >> 23) & 0xFF == 0xFF, u & 0x807FFFFF, u)
        if pos:
            u &= 0x7FFFFFFF
        return u.view(np.float32)

    a, b, p = finite(False), finite(False), finite(True)
    a[:2] = [0.0, -0.0]
    n = [h.make_node("Mul", ["x", "zero"], ["x0"])]
    outs = []
    for k, (op, ins) in enumerate([("Add", ["a", "b"]), ("Sub", ["a", "b"]), ("Mul", ["a", "b"]),
                                   ("Div", ["a", "b"]), ("Sqrt", ["p"]), ("Reciprocal", ["a"]),
                                   ("Neg", ["a"]), ("Abs", ["a"]), ("Less", ["a", "b"]),
                                   ("Equal", ["a", "a"]), ("Cast", ["a"])]):
        attrs = {"to": T.DOUBLE} if op == "Cast" else {}
        n.append(h.make_node(op, ins, ["c%d" % k], **attrs))
        c = "c%d" % k
        if op in ("Less", "Equal"):
            n.append(h.make_node("Cast", [c], ["c%df" % k], to=T.FLOAT))
            c = "c%df" % k
        elif op == "Cast":
            n.append(h.make_node("Cast", [c], ["c%df" % k], to=T.FLOAT))
            c = "c%df" % k
        n.append(h.make_node("Add", [c, "x0"], ["y%d" % k]))
        outs.append(h.make_tensor_value_info("y%d" % k, T.FLOAT, [4096]))
    return model("fold_float_arith", n, [h.make_tensor_value_info("x", T.FLOAT, [4096])], outs,
                 {"a": a, "b": b, "p": p, "zero": np.array([0.0], np.float32)})


def transpose_pairs():
    """Transpose -> Transpose (the noop pass): perms that cancel (also two
    perm-less ones; one pair ends in a graph output that the Relu before
    takes as its name), perms that compose into one Transpose, and a pair
    on a weight that composes into one, which then folds (so that the model
    has folded nodes too)."""
    rng = np.random.default_rng(3)
    n = [
        h.make_node("Transpose", ["x"], ["a"], perm=[1, 2, 3, 0]),
        h.make_node("Transpose", ["a"], ["b"], perm=[3, 0, 1, 2]),
        h.make_node("Relu", ["b"], ["ya"]),
        h.make_node("Transpose", ["x"], ["c"], perm=[0, 2, 1, 3]),
        h.make_node("Transpose", ["c"], ["d"], perm=[1, 0, 3, 2]),
        h.make_node("Relu", ["d"], ["yb"]),
        h.make_node("Transpose", ["x"], ["e"]),
        h.make_node("Transpose", ["e"], ["f"]),
        h.make_node("Relu", ["f"], ["yc"]),
        h.make_node("Relu", ["x"], ["s"]),
        h.make_node("Transpose", ["s"], ["g"], perm=[2, 1, 0, 3]),
        h.make_node("Transpose", ["g"], ["yd"], perm=[2, 1, 0, 3]),
        h.make_node("Transpose", ["w"], ["wt"], perm=[1, 0, 2]),
        h.make_node("Transpose", ["wt"], ["wtt"], perm=[0, 2, 1]),
        h.make_node("Add", ["z", "wtt"], ["ye"]),
    ]
    return model("fold_transpose_pairs", n,
                 [h.make_tensor_value_info("x", T.FLOAT, [2, 3, 4, 5]),
                  h.make_tensor_value_info("z", T.FLOAT, [3, 4, 2])],
                 [h.make_tensor_value_info("ya", T.FLOAT, [2, 3, 4, 5]),
                  h.make_tensor_value_info("yb", T.FLOAT, [3, 4, 2, 5]),
                  h.make_tensor_value_info("yc", T.FLOAT, [2, 3, 4, 5]),
                  h.make_tensor_value_info("yd", T.FLOAT, [2, 3, 4, 5]),
                  h.make_tensor_value_info("ye", T.FLOAT, [3, 4, 2])],
                 {"w": rng.standard_normal((2, 3, 4)).astype(np.float32)})


def concat_merges():
    """Concat -> Concat on the same axis (the noop pass): the second reads
    the first one's inputs (the same attribute; -1 against 2 at rank 3; a
    chain of three at axis 0 and -3; the first read twice; the halves of a
    Split, as a rotary embedding concatenates them, then the rest), one on
    another axis that stays; a Concat whose other input is empty along the
    axis (a Split's empty part, an empty initializer) goes; and a Concat of
    two weights that folds (so that the model has folded nodes too)."""
    rng = np.random.default_rng(5)
    n = [
        h.make_node("Relu", ["x"], ["a"]),
        h.make_node("Sigmoid", ["x"], ["b"]),
        h.make_node("Concat", ["a", "b"], ["c1"], axis=-1),
        h.make_node("Concat", ["c1", "x"], ["ya"], axis=2),
        h.make_node("Concat", ["x", "a"], ["d1"], axis=0),
        h.make_node("Concat", ["d1", "b"], ["d2"], axis=-3),
        h.make_node("Concat", ["x", "d2"], ["yb"], axis=0),
        h.make_node("Concat", ["a", "b"], ["e1"], axis=1),
        h.make_node("Concat", ["e1", "e1"], ["yc"], axis=1),
        h.make_node("Concat", ["a", "b"], ["f1"], axis=0),
        h.make_node("Concat", ["f1", "f1"], ["yd"], axis=1),
        h.make_node("Split", ["x", "halves"], ["x1", "x2", "rest"], axis=-1),
        h.make_node("Sub", ["x1", "x2"], ["re"]),
        h.make_node("Add", ["x1", "x2"], ["im"]),
        h.make_node("Concat", ["re", "im"], ["rot"], axis=-1),
        h.make_node("Concat", ["rot", "rest"], ["ye"], axis=-1),
        h.make_node("Concat", ["w1", "w2"], ["w"], axis=0),
        h.make_node("Add", ["x", "w"], ["yf"]),
        h.make_node("Concat", ["w1", "w2"], ["g1"], axis=0),
        h.make_node("Concat", ["g1", "x"], ["yg"], axis=0),
        h.make_node("Split", ["x", "all"], ["q1", "q0"], axis=2),
        h.make_node("Concat", ["q0", "a"], ["yh"], axis=-1),
        h.make_node("Concat", ["b", "e0"], ["yi"], axis=2),
    ]
    return model("fold_concat_merges", n,
                 [h.make_tensor_value_info("x", T.FLOAT, [2, 3, 4])],
                 [h.make_tensor_value_info("ya", T.FLOAT, [2, 3, 12]),
                  h.make_tensor_value_info("yb", T.FLOAT, [8, 3, 4]),
                  h.make_tensor_value_info("yc", T.FLOAT, [2, 12, 4]),
                  h.make_tensor_value_info("yd", T.FLOAT, [4, 6, 4]),
                  h.make_tensor_value_info("ye", T.FLOAT, [2, 3, 4]),
                  h.make_tensor_value_info("yf", T.FLOAT, [2, 3, 4]),
                  h.make_tensor_value_info("yg", T.FLOAT, [4, 3, 4]),
                  h.make_tensor_value_info("yh", T.FLOAT, [2, 3, 4]),
                  h.make_tensor_value_info("yi", T.FLOAT, [2, 3, 4])],
                 {"halves": i64(1, 1, 2), "all": i64(4, 0), "e0": np.zeros((2, 3, 0), np.float32),
                  "w1": rng.standard_normal((1, 3, 4)).astype(np.float32),
                  "w2": rng.standard_normal((1, 3, 4)).astype(np.float32)})


def zero_operands():
    """Add and Sub of constant zeros, Mul and Div by ones (the noop pass):
    x + 0 of int64, x + (-0.0), x - (+0.0), x * 1.0 and x / 1.0 of a Relu,
    +0.0 added to an attention mask (Where of -inf and +0.0, also cast to
    float16), all removed; x + (+0.0)
    and 0 - x of a Relu and +0.0 added to a Where that can give -0.0, kept
    (each read by a Neg, the graph outputs); and Shape -> Concat folds (so
    that the model has folded nodes too)."""
    f32 = np.float32
    n = [
        h.make_node("Relu", ["x"], ["r"]),
        h.make_node("Add", ["xi", "zi"], ["a"]),
        h.make_node("Add", ["r", "zn"], ["b"]),
        h.make_node("Sub", ["r", "zp"], ["c"]),
        h.make_node("Where", ["cond", "ninf", "pz1"], ["mask"]),
        h.make_node("Add", ["zb", "mask"], ["e"]),
        h.make_node("Cast", ["mask"], ["mh"], to=T.FLOAT16),
        h.make_node("Add", ["mh", "zh"], ["f"]),
        h.make_node("Add", ["r", "zp"], ["g"]),
        h.make_node("Sub", ["zp", "r"], ["hh"]),
        h.make_node("Where", ["cond", "nz1", "one"], ["mn"]),
        h.make_node("Add", ["zb", "mn"], ["i"]),
        h.make_node("Shape", ["x"], ["s1"]),
        h.make_node("Shape", ["xi"], ["s2"]),
        h.make_node("Concat", ["s1", "s2"], ["s"], axis=0),
        h.make_node("Add", ["k", "s"], ["j"]),
        h.make_node("Mul", ["one4", "r"], ["l"]),
        h.make_node("Div", ["r", "one4"], ["o"]),
    ]
    outs = [("a", T.INT64, [2, 3]), ("b", T.FLOAT, [2, 3, 4]), ("c", T.FLOAT, [2, 3, 4]),
            ("e", T.FLOAT, [2, 3, 4]), ("f", T.FLOAT16, [2, 3, 4]), ("g", T.FLOAT, [2, 3, 4]),
            ("hh", T.FLOAT, [2, 3, 4]), ("i", T.FLOAT, [2, 3, 4]), ("j", T.INT64, [5]),
            ("l", T.FLOAT, [2, 3, 4]), ("o", T.FLOAT, [2, 3, 4])]
    n += [h.make_node("Neg", [v], ["y" + v]) for v, _, _ in outs]
    return model("fold_zero_operands", n,
                 [h.make_tensor_value_info("x", T.FLOAT, [2, 3, 4]),
                  h.make_tensor_value_info("xi", T.INT64, [2, 3]),
                  h.make_tensor_value_info("cond", T.BOOL, [2, 3, 4]),
                  h.make_tensor_value_info("k", T.INT64, [5])],
                 [h.make_tensor_value_info("y" + v, t, d) for v, t, d in outs],
                 {"zi": np.zeros((1, 3), np.int64), "zn": np.full(4, -0.0, f32), "zp": np.zeros(4, f32),
                  "zb": np.zeros((3, 4), f32), "zh": np.zeros((3, 4), np.float16),
                  "ninf": np.array([-np.inf], f32), "pz1": np.zeros(1, f32), "nz1": np.array([-0.0], f32),
                  "one": np.ones(1, f32), "one4": np.ones(4, f32)})


def reductions(opset):
    """ReduceMax, ReduceMin (int64, int32, uint8, float: a mask of 0 and
    -inf, random values), ReduceSum (int64, int32) and ReduceMean (int32,
    negative sums: the mean truncates) of constants, each reduction added
    to a graph input so that the runtime computes something; opset 17
    (axes as attributes, ReduceSum's as an input) or 18 (axes as inputs,
    one absent, one empty with noop_with_empty_axes)."""
    rng = np.random.default_rng(opset)
    c64 = rng.integers(-1000, 1000, (2, 3, 4)).astype(np.int64)
    c32 = rng.integers(-1000, 1000, (2, 3, 4)).astype(np.int32)
    cu8 = rng.integers(0, 256, (3, 5)).astype(np.uint8)
    mask = np.where(rng.random((4, 6)) < 0.5, 0.0, -np.inf).astype(np.float32)
    mask[:, 0] = 0.0
    fr = rng.standard_normal((4, 6)).astype(np.float32)
    inits = {"c64": c64, "c32": c32, "cu8": cu8, "mask": mask, "fr": fr}
    n, outs = [], []

    def red(op, x, axes, keepdims, out_shape, dt, noop=None):
        y = "r%d" % len(outs)
        ins = [x]
        attrs = {"keepdims": keepdims}
        if noop is not None:
            attrs["noop_with_empty_axes"] = noop
        if axes is not None and (opset >= 18 or op == "ReduceSum"):
            inits["ax%d" % len(outs)] = np.array(axes, np.int64)
            ins.append("ax%d" % len(outs))
        elif axes is not None:
            attrs["axes"] = axes
        n.append(h.make_node(op, ins, [y], **attrs))
        # the reduction plus the graph input, cast to the reduction's type
        xi = "xi%d" % len(outs)
        n.append(h.make_node("Cast", ["x"], [xi], to=dt))
        n.append(h.make_node("Add", [y, xi], ["y%d" % len(outs)]))
        outs.append(h.make_tensor_value_info("y%d" % len(outs), dt, out_shape))

    red("ReduceMax", "c64", [1], 1, [2, 1, 4], T.INT64)
    red("ReduceMin", "c64", [0, 2], 0, [3], T.INT64)
    red("ReduceSum", "c64", [-1], 0, [2, 3], T.INT64)
    red("ReduceSum", "c32", [0, 1], 1, [1, 1, 4], T.INT32)
    red("ReduceMean", "c32", [1], 0, [2, 4], T.INT32)
    red("ReduceMax", "c32", None, 0, [], T.INT32)
    red("ReduceMin", "cu8", [1], 0, [3], T.UINT8)
    red("ReduceMax", "mask", [-1], 1, [4, 1], T.FLOAT)
    red("ReduceMin", "fr", [0], 0, [6], T.FLOAT)
    if opset >= 18:
        red("ReduceMax", "fr", None, 1, [1, 1], T.FLOAT)
        inits["empty"] = np.array([], np.int64)
        y = "r%d" % len(outs)
        n.append(h.make_node("ReduceSum", ["c64", "empty"], [y], noop_with_empty_axes=1))
        n.append(h.make_node("Cast", ["x"], ["xe"], to=T.INT64))
        n.append(h.make_node("Add", [y, "xe"], ["y%d" % len(outs)]))
        outs.append(h.make_tensor_value_info("y%d" % len(outs), T.INT64, [2, 3, 4]))
    return model("fold_reductions_%d" % opset, n, [h.make_tensor_value_info("x", T.FLOAT, [])],
                 outs, inits, opset=opset)


def bert_static(path):
    """The BERT-shaped model with its inputs fixed to [2, 16]."""
    m = onnx.load(path)
    for vi in m.graph.input:
        if vi.name in ("input_ids", "attention_mask"):
            dims = vi.type.tensor_type.shape.dim
            dims[0].Clear()
            dims[0].dim_value = 2
            dims[1].Clear()
            dims[1].dim_value = 16
    m.graph.name = "fold_bert_static"
    return m


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    ms = [reshape_chain(), int_arith(), movement(), weights(), weight_casts(), weight_transposes(),
          weight_transposes_nd(), weight_transposes_tall(), constant_nodes(), noop_inferred(), float_arith(),
          transpose_pairs(), reductions(17), reductions(18), concat_merges(),
          zero_operands()]
    if len(sys.argv) > 2:
        ms.append(bert_static(sys.argv[2]))
    for m in ms:
        if m.opset_import[0].version <= onnx.defs.onnx_opset_version():
            onnx.checker.check_model(m)  # (Debian's onnx 1.12 knows opsets up to 17)
        onnx.save(m, os.path.join(out, m.graph.name + ".onnx"))
        print(m.graph.name)


if __name__ == "__main__":
    main()
