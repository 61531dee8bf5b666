#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Build a small BERT / XLM-R shaped ONNX model for libonnxslim tests.

The graph mimics what a PyTorch export of an XLM-RoBERTa sequence classifier
looks like (embeddings + LayerNorm, N encoder layers with split Q/K/V
projections, an Erf-based GELU feed-forward block, and a tanh pooler-style
classifier head on token 0), but with tiny random weights so the file stays
around one megabyte.

Usage:
    make_bert.py OUT.onnx [--vocab N] [--hidden H] [--layers L] [--heads A]
                 [--ffn F] [--seq S] [--seed K] [--classes C] [--reranker]

--seq is the maximum sequence length (rows of the position-embedding table);
the model inputs themselves use the symbolic dims "batch" and "seq".

Needs Debian's python3-onnx and python3-numpy (run with /usr/bin/python3).
"""

import argparse
import math
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 17
IR_VERSION = 8
WORD_EMB = "roberta.embeddings.word_embeddings.weight"
WORD_GATHER_OUT = "/embeddings/word_embeddings/Gather_output_0"


class GraphBuilder:
    """Small helper that keeps node / initializer lists and unique names."""

    def __init__(self, rng):
        self.rng = rng
        self.nodes = []
        self.inits = []
        self.value_info = []
        self.n_params = 0

    def weight(self, name, shape, kind="normal"):
        if kind == "normal":
            arr = (self.rng.standard_normal(shape) * 0.02).astype(np.float32)
        elif kind == "ones":
            arr = np.ones(shape, dtype=np.float32)
        elif kind == "zeros":
            arr = np.zeros(shape, dtype=np.float32)
        else:
            raise ValueError(kind)
        self.inits.append(numpy_helper.from_array(arr, name))
        self.n_params += arr.size
        return name

    def const_init(self, name, value, dtype):
        """Small non-trainable initializer (shape tensors, scalars, axes)."""
        arr = np.array(value, dtype=dtype)
        self.inits.append(numpy_helper.from_array(arr, name))
        return name

    def const_node(self, scope, value, dtype):
        """A Constant node, the way the PyTorch exporter emits scalars."""
        out = scope + "/Constant_output_0"
        arr = np.array(value, dtype=dtype)
        self.nodes.append(helper.make_node(
            "Constant", [], [out], name=scope + "/Constant",
            value=numpy_helper.from_array(arr, out)))
        return out

    def op(self, op_type, inputs, scope, n_out=1, **attrs):
        if n_out == 1:
            outs = [scope + "_output_0"]
        else:
            outs = ["%s_output_%d" % (scope, i) for i in range(n_out)]
        self.nodes.append(helper.make_node(
            op_type, inputs, outs, name=scope, **attrs))
        return outs[0] if n_out == 1 else outs

    def vi(self, name, elem_type, dims):
        self.value_info.append(
            helper.make_tensor_value_info(name, elem_type, dims))


def linear(g, x, prefix, scope, d_in, d_out):
    """MatMul + Add with weight [d_in, d_out] and bias [d_out]."""
    w = g.weight(prefix + ".weight", [d_in, d_out])
    b = g.weight(prefix + ".bias", [d_out])
    y = g.op("MatMul", [x, w], scope + "/MatMul")
    return g.op("Add", [b, y], scope + "/Add")


def layer_norm(g, x, prefix, scope, hidden):
    gamma = g.weight(prefix + ".weight", [hidden], "ones")
    beta = g.weight(prefix + ".bias", [hidden], "zeros")
    return g.op("LayerNormalization", [x, gamma, beta],
                scope + "/LayerNormalization", axis=-1, epsilon=1e-5)


def encoder_layer(g, x, mask_bias, i, a):
    H, A, F = a.hidden, a.heads, a.ffn
    D = H // A
    p = "roberta.encoder.layer.%d" % i
    s = "/roberta/encoder/layer.%d" % i

    # Reshape targets: small int64 initializers, one per use (as exporters
    # tend to emit them, duplicated).
    heads_shape = lambda n: g.const_init(
        "%s.attention.self.%s_heads_shape" % (p, n), [0, 0, A, D], np.int64)

    q = linear(g, x, p + ".attention.self.query", s + "/attention/self/query", H, H)
    k = linear(g, x, p + ".attention.self.key", s + "/attention/self/key", H, H)
    v = linear(g, x, p + ".attention.self.value", s + "/attention/self/value", H, H)

    sa = s + "/attention/self"
    q = g.op("Reshape", [q, heads_shape("query")], sa + "/Reshape")
    k = g.op("Reshape", [k, heads_shape("key")], sa + "/Reshape_1")
    v = g.op("Reshape", [v, heads_shape("value")], sa + "/Reshape_2")
    q = g.op("Transpose", [q], sa + "/Transpose", perm=[0, 2, 1, 3])
    k = g.op("Transpose", [k], sa + "/Transpose_1", perm=[0, 2, 3, 1])
    v = g.op("Transpose", [v], sa + "/Transpose_2", perm=[0, 2, 1, 3])

    scores = g.op("MatMul", [q, k], sa + "/MatMul")
    scale = g.const_node(sa + "/scale", 1.0 / math.sqrt(D), np.float32)
    scores = g.op("Mul", [scores, scale], sa + "/Mul")
    scores = g.op("Add", [scores, mask_bias], sa + "/Add")
    probs = g.op("Softmax", [scores], sa + "/Softmax", axis=-1)
    ctx = g.op("MatMul", [probs, v], sa + "/MatMul_1")
    ctx = g.op("Transpose", [ctx], sa + "/Transpose_3", perm=[0, 2, 1, 3])
    merge_shape = g.const_init(p + ".attention.self.merge_shape", [0, 0, H], np.int64)
    ctx = g.op("Reshape", [ctx, merge_shape], sa + "/Reshape_3")
    g.vi(ctx, TensorProto.FLOAT, ["batch", "seq", H])

    attn = linear(g, ctx, p + ".attention.output.dense",
                  s + "/attention/output/dense", H, H)
    attn = g.op("Add", [attn, x], s + "/attention/output/Add")
    attn = layer_norm(g, attn, p + ".attention.output.LayerNorm",
                      s + "/attention/output/LayerNorm", H)

    # Feed-forward with exact (Erf) GELU: 0.5 * x * (1 + erf(x / sqrt(2)))
    h = linear(g, attn, p + ".intermediate.dense", s + "/intermediate/dense", H, F)
    ia = s + "/intermediate/intermediate_act_fn"
    sqrt2 = g.const_node(ia + "/sqrt2", math.sqrt(2.0), np.float32)
    one = g.const_node(ia + "/one", 1.0, np.float32)
    half = g.const_node(ia + "/half", 0.5, np.float32)
    t = g.op("Div", [h, sqrt2], ia + "/Div")
    t = g.op("Erf", [t], ia + "/Erf")
    t = g.op("Add", [t, one], ia + "/Add")
    t = g.op("Mul", [h, t], ia + "/Mul")
    h = g.op("Mul", [t, half], ia + "/Mul_1")

    out = linear(g, h, p + ".output.dense", s + "/output/dense", F, H)
    out = g.op("Add", [out, attn], s + "/output/Add")
    out = layer_norm(g, out, p + ".output.LayerNorm", s + "/output/LayerNorm", H)
    g.vi(out, TensorProto.FLOAT, ["batch", "seq", H])
    return out


def build(a):
    if a.hidden % a.heads:
        sys.exit("make_bert.py: --hidden must be divisible by --heads")
    for name in ("vocab", "hidden", "layers", "heads", "ffn", "seq", "classes"):
        if getattr(a, name) < 1:
            sys.exit("make_bert.py: --%s must be >= 1" % name)

    rng = np.random.default_rng(a.seed)
    g = GraphBuilder(rng)
    H = a.hidden

    inputs = [
        helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "seq"]),
        helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "seq"]),
    ]

    # ---- embeddings ------------------------------------------------------
    g.weight(WORD_EMB, [a.vocab, H])
    g.nodes.append(helper.make_node(
        "Gather", [WORD_EMB, "input_ids"], [WORD_GATHER_OUT],
        name="/embeddings/word_embeddings/Gather"))
    g.vi(WORD_GATHER_OUT, TensorProto.FLOAT, ["batch", "seq", H])

    pe = "/embeddings/position_embeddings"
    if a.reranker:
        # XLM-R's position ids: positions counted over the tokens that are
        # not padding, offset by the padding index (1); padding gets 1
        pad = g.const_init("/embeddings/padding_idx", 1, np.int64)
        keep = g.op("Equal", ["input_ids", pad], "/embeddings/Equal")
        keep = g.op("Not", [keep], "/embeddings/Not")
        keep = g.op("Cast", [keep], "/embeddings/Cast", to=TensorProto.INT32)
        axis = g.const_init("/embeddings/cumsum_axis", 1, np.int64)
        pos_ids = g.op("CumSum", [keep, axis], "/embeddings/CumSum")
        pos_ids = g.op("Mul", [pos_ids, keep], "/embeddings/Mul")
        pos_ids = g.op("Cast", [pos_ids], "/embeddings/Cast_1", to=TensorProto.INT64)
        pos_ids = g.op("Add", [pos_ids, pad], "/embeddings/Add_2")
        pos_tab = g.weight("roberta.embeddings.position_embeddings.weight", [a.seq + 2, H])
        pos = g.op("Gather", [pos_tab, pos_ids], pe + "/Gather")
        g.vi(pos, TensorProto.FLOAT, ["batch", "seq", H])
        tok_type = g.weight("roberta.embeddings.token_type_embeddings.weight", [1, H])
        # token types: zeros shaped like input_ids, gathered from the table
        ids_shape = g.op("Shape", ["input_ids"], "/embeddings/Shape_1")
        zeros = g.op("ConstantOfShape", [ids_shape], "/embeddings/ConstantOfShape",
                     value=numpy_helper.from_array(np.array([0], np.int64)))
        tok = g.op("Gather", [tok_type, zeros], "/embeddings/token_type_embeddings/Gather")
        emb = g.op("Add", [WORD_GATHER_OUT, tok], "/embeddings/Add")
    else:
        # position ids = Range(0, seq_len, 1), gathered from the position table
        seq_len = g.op("Shape", ["input_ids"], "/embeddings/Shape", start=1, end=2)
        seq_len = g.op("Squeeze", [seq_len], "/embeddings/Squeeze")
        r_start = g.const_init("/embeddings/range_start", 0, np.int64)
        r_delta = g.const_init("/embeddings/range_delta", 1, np.int64)
        pos_ids = g.op("Range", [r_start, seq_len, r_delta], "/embeddings/Range")
        pos_tab = g.weight("roberta.embeddings.position_embeddings.weight", [a.seq, H])
        pos = g.op("Gather", [pos_tab, pos_ids], pe + "/Gather")
        g.vi(pos, TensorProto.FLOAT, ["seq", H])
        tok_type = g.weight("roberta.embeddings.token_type_embeddings.weight", [1, H])
        emb = g.op("Add", [WORD_GATHER_OUT, tok_type], "/embeddings/Add")
    emb = g.op("Add", [emb, pos], "/embeddings/Add_1")
    x = layer_norm(g, emb, "roberta.embeddings.LayerNorm",
                   "/embeddings/LayerNorm", H)
    g.vi(x, TensorProto.FLOAT, ["batch", "seq", H])

    # ---- extended attention mask: (1 - mask) * -10000, [batch,1,1,seq] ----
    m = g.op("Cast", ["attention_mask"], "/roberta/Cast", to=TensorProto.FLOAT)
    one = g.const_node("/roberta/one", 1.0, np.float32)
    m = g.op("Sub", [one, m], "/roberta/Sub")
    neg = g.const_node("/roberta/neg", -10000.0, np.float32)
    m = g.op("Mul", [m, neg], "/roberta/Mul")
    axes = g.const_init("/roberta/unsqueeze_axes", [1, 2], np.int64)
    mask_bias = g.op("Unsqueeze", [m, axes], "/roberta/Unsqueeze")
    g.vi(mask_bias, TensorProto.FLOAT, ["batch", 1, 1, "seq"])

    # ---- encoder ---------------------------------------------------------
    for i in range(a.layers):
        x = encoder_layer(g, x, mask_bias, i, a)

    # ---- classifier head on token 0 --------------------------------------
    idx0 = g.const_init("/classifier/token0_index", 0, np.int64)
    cls = g.op("Gather", [x, idx0], "/classifier/Gather", axis=1)
    g.vi(cls, TensorProto.FLOAT, ["batch", H])
    h = linear(g, cls, "classifier.dense", "/classifier/dense", H, H)
    h = g.op("Tanh", [h], "/classifier/Tanh")
    w = g.weight("classifier.out_proj.weight", [H, a.classes])
    b = g.weight("classifier.out_proj.bias", [a.classes])
    y = g.op("MatMul", [h, w], "/classifier/out_proj/MatMul")
    g.nodes.append(helper.make_node("Add", [y, b], ["logits"],
                                    name="/classifier/out_proj/Add"))

    outputs = [helper.make_tensor_value_info(
        "logits", TensorProto.FLOAT, ["batch", a.classes])]

    graph = helper.make_graph(g.nodes, "tiny_xlmr", inputs, outputs,
                              initializer=g.inits, value_info=g.value_info,
                              doc_string="tiny XLM-R shaped encoder + classifier")
    model = helper.make_model(
        graph, producer_name="libonnxslim-test", producer_version="1.0",
        opset_imports=[helper.make_opsetid("", OPSET)],
        doc_string=("Tiny BERT/XLM-R shaped test model (random weights, "
                    "seed %d) generated by test/gen/make_bert.py" % a.seed))
    model.ir_version = IR_VERSION
    model.model_version = 1
    helper.set_model_props(model, {
        "generator": "test/gen/make_bert.py",
        "config": "vocab=%d hidden=%d layers=%d heads=%d ffn=%d seq=%d "
                  "classes=%d seed=%d" % (a.vocab, a.hidden, a.layers, a.heads,
                                           a.ffn, a.seq, a.classes, a.seed),
    })
    return model, g.n_params


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", metavar="OUT.onnx")
    ap.add_argument("--vocab", type=int, default=1000)
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--ffn", type=int, default=128)
    ap.add_argument("--seq", type=int, default=128,
                    help="max sequence length (position table rows)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--classes", type=int, default=1)
    ap.add_argument("--reranker", action="store_true",
                    help="XLM-R reranker embeddings: position ids from the non-padding "
                    "tokens offset by the padding index, token types from zeros "
                    "shaped like input_ids")
    a = ap.parse_args(argv)

    model, n_params = build(a)
    data = model.SerializeToString()
    if len(data) >= 2 ** 31:
        sys.exit("make_bert.py: model would exceed 2 GiB; use smaller sizes")
    with open(a.out, "wb") as f:
        f.write(data)

    # Re-read from disk and run the full checker (includes strict shape
    # inference against the value_info we declared).
    onnx.checker.check_model(onnx.load(a.out), full_check=True)
    print("%s: %d bytes, %d params, %d nodes, %d initializers, opset %d" % (
        a.out, os.path.getsize(a.out), n_params, len(model.graph.node),
        len(model.graph.initializer), OPSET))


if __name__ == "__main__":
    main()
