# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""A model whose weights have the distributions trained models have, for
bench section 47-qpeers (runs in the venv of scripts/pypi-venv.sh: onnx,
numpy). Deterministic (numpy's default_rng(26)).

Usage: make_heavy.py OUT.onnx

Graph (opset 21): input_ids [B, S] -> Gather(table [8192, 768]) ->
MatMul(w_outliers [768, 3072]) -> MatMul(w_t4 [3072, 768]) ->
MatMul(w_t3 [768, 768]) -> logits. The weights:
  table       normal (sigma 0.02), 1% of its columns (channels) 10-50x
  w_outliers  normal (sigma 0.02), 1% of its input channels (rows: the
              direction the blocks run along) 10-50x
  w_t4        Student-t, 4 degrees of freedom, times 0.02
  w_t3        Student-t, 3 degrees of freedom, times 0.02
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def outlier_channels(rng, shape, axis):
    w = rng.normal(0, 0.02, shape)
    n = shape[axis]
    pick = rng.choice(n, max(1, n // 100), replace=False)
    f = rng.uniform(10, 50, pick.size)
    if axis == 0:
        w[pick, :] *= f[:, None]
    else:
        w[:, pick] *= f[None, :]
    return w.astype(np.float32)


def heavy_arrays():
    """The model's initializers, (name, array) in the order of their draws
    (seed 26): the table, then the three MatMul weights."""
    rng = np.random.default_rng(26)
    return [("table", outlier_channels(rng, (8192, 768), 1)),
            ("w_outliers", outlier_channels(rng, (768, 3072), 0)),
            ("w_t4", (rng.standard_t(4, (3072, 768)) * 0.02).astype(np.float32)),
            ("w_t3", (rng.standard_t(3, (768, 768)) * 0.02).astype(np.float32))]


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    inits = [numpy_helper.from_array(a, name) for name, a in heavy_arrays()]
    nodes = [
        helper.make_node("Gather", ["table", "input_ids"], ["h0"], name="embed"),
        helper.make_node("MatMul", ["h0", "w_outliers"], ["h1"], name="mm_outliers"),
        helper.make_node("MatMul", ["h1", "w_t4"], ["h2"], name="mm_t4"),
        helper.make_node("MatMul", ["h2", "w_t3"], ["logits"], name="mm_t3"),
    ]
    g = helper.make_graph(
        nodes, "heavy",
        [helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["B", "S"])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["B", "S", 768])],
        inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 21)], ir_version=10,
                          producer_name="bench/make_heavy.py")
    onnx.checker.check_model(m)
    onnx.save(m, sys.argv[1])
    return 0


if __name__ == "__main__":
    sys.exit(main())
