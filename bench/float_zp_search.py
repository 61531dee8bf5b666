# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""A measurement for the float zero points of MatMulNBits (issue 26,
point 3), not part of `make bench`: how close an alternating
least-squares search of each block's scale and float zero point reads
back bench/make_heavy.py's MatMul weights, beside integer zero points.
Runs with Debian's python3 and numpy only.

Per block of 32 along K (INT4, codes 0..15): start from the block's range
(scale (max - min) / 15, zero point -min / scale, the range including 0),
its zero point rounded to an integer (so that 0 is on the grid: the
float zero point -min / scale itself starts worse, .1071 against .0984
on these weights, and needs more rounds), then each round: codes q = clamp(rne(x / s + z), 0, 15); the
least-squares line x ~ a q + b over the block gives s = a, z = -b / a; the
round is kept only when the block's squared error goes down. "int" rounds
the zero point to 0..15 each time (the integer form DequantizeLinear and
GatherBlockQuantized need). Prints the mean over the weights' columns of
||W - deq(W)|| / ||W|| (bench/quant_errors.py's row error) per round
count, as bench section 47-qpeers reports ort-hqq's (.0932 there).

Usage: float_zp_search.py [ROUNDS...]   (default 0 1 2 4 8)
       float_zp_search.py --model M.onnx [ROUNDS...]
       float_zp_search.py --ort ROUNDS
the --model form (needs onnx) measures M's MatMul weights (initializers
of rank 2 read as input 1 of MatMuls, e.g. bench/make_reranker's) instead;
the second form (needs onnx and onnxruntime, e.g. the venv of
scripts/pypi-venv.sh) writes each weight with the searched scales and
float zero points as a com.microsoft.MatMulNBits (4 bits, block 32,
zero_points FLOAT [N * K / 32]), runs it in onnxruntime on random
activations and prints the largest |onnxruntime - numpy's A @ deq(W)|
beside the largest |A @ deq(W)|.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_heavy  # noqa: E402

QMAX, BS = 15, 32


def heavy_weights():
    """bench/make_heavy.py's three MatMul weights (its table left out)."""
    return [a for name, a in make_heavy.heavy_arrays() if name != "table"]


def search(x, rounds, integer, int_start):
    """x: blocks [n, BS] (float64). The scales, zero points and codes."""
    mn, mx = np.minimum(x.min(1), 0), np.maximum(x.max(1), 0)
    s = (mx - mn) / QMAX
    s[s == 0] = 1
    z = -mn / s

    def fit(s, z, integer):
        if integer:
            z = np.clip(np.rint(z), 0, QMAX)
        q = np.clip(np.rint(x / s[:, None] + z[:, None]), 0, QMAX)
        return z, q, (((q - z[:, None]) * s[:, None] - x) ** 2).sum(1)

    z, q, e = fit(s, z, integer or int_start)
    n = x.shape[1]
    for _ in range(rounds):
        su, sx, suu, sux = q.sum(1), x.sum(1), (q * q).sum(1), (q * x).sum(1)
        var = n * suu - su * su
        a = np.where(var > 0, (n * sux - su * sx) / np.where(var > 0, var, 1), 0)
        ok = a > 0
        ns = np.where(ok, a, s)
        nz = np.where(ok, -((sx - a * su) / n) / np.where(ok, a, 1), z)
        nz, nq, ne = fit(ns, nz, integer)
        keep = ne < e
        s, z, e = np.where(keep, ns, s), np.where(keep, nz, z), np.minimum(ne, e)
        q = np.where(keep[:, None], nq, q)
    return s, z, q


def mean_row_error(weights, rounds, integer, int_start=True):
    errs = []
    for w in weights:
        K, N = w.shape
        x = w.T.reshape(N * (K // BS), BS).astype(np.float64)
        starts = (True, False) if int_start is None else (int_start,)
        d = e = None
        for st in starts:  # None: both starts, the better per block
            s, z, q = search(x, rounds, integer, st)
            db = (q - z[:, None]) * s[:, None]
            eb = ((db - x) ** 2).sum(1)
            if d is None:
                d, e = db, eb
            else:
                k = eb < e
                d, e = np.where(k[:, None], db, d), np.minimum(eb, e)
        d = d.reshape(N, K).T
        wd = w.astype(np.float64)
        errs.append(np.sqrt(((wd - d) ** 2).sum(0)) / np.sqrt((wd ** 2).sum(0)))
    return float(np.concatenate(errs).mean())


def ort_check(weights, rounds):
    import onnx
    import onnxruntime as ort
    from onnx import TensorProto, helper, numpy_helper
    rng = np.random.default_rng(1)
    for i, w in enumerate(weights):
        K, N = w.shape
        nb = K // BS
        x = w.T.reshape(N * nb, BS).astype(np.float64)
        s, z, q = search(x, rounds, False, True)
        s, z = s.astype(np.float32), z.astype(np.float32)
        qb = q.astype(np.uint8).reshape(N, nb, BS)
        packed = qb[..., 0::2] | (qb[..., 1::2] << 4)
        deq = ((qb.astype(np.float32) - z.reshape(N, nb, 1)) * s.reshape(N, nb, 1)).reshape(N, K).T
        node = helper.make_node("MatMulNBits", ["A", "B", "S", "Z"], ["Y"], domain="com.microsoft",
                                K=K, N=N, bits=4, block_size=BS)
        g = helper.make_graph(
            [node], "fzp", [helper.make_tensor_value_info("A", TensorProto.FLOAT, [4, K])],
            [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [4, N])],
            [numpy_helper.from_array(packed, "B"), numpy_helper.from_array(s, "S"),
             numpy_helper.from_array(z, "Z")])
        m = helper.make_model(g, ir_version=10, opset_imports=[
            helper.make_opsetid("", 21), helper.make_opsetid("com.microsoft", 1)])
        a = rng.normal(size=(4, K)).astype(np.float32)
        y = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(
            None, {"A": a})[0]
        ref = a.astype(np.float64) @ deq.astype(np.float64)
        print("weight %d [%d, %d], onnxruntime %s: max |ort - numpy| %.3g, max |y| %.3g"
              % (i, K, N, ort.__version__, np.abs(y - ref).max(), np.abs(ref).max()))


def model_weights(path):
    import onnx
    from onnx import numpy_helper
    m = onnx.load(path)
    inits = {t.name: t for t in m.graph.initializer}
    names = []
    for n in m.graph.node:
        b = n.input[1] if n.op_type == "MatMul" and len(n.input) > 1 else None
        if b in inits and len(inits[b].dims) == 2 and inits[b].dims[0] % BS == 0 and b not in names:
            names.append(b)
    return [numpy_helper.to_array(inits[b]).astype(np.float32) for b in names]


def main():
    args = sys.argv[1:]
    if args[:1] == ["--ort"]:
        ort_check(heavy_weights(), int(args[1]))
        return 0
    if args[:1] == ["--model"]:
        weights = model_weights(args[1])
        print("%s: %d MatMul weights" % (args[1], len(weights)))
        args = args[2:]
    else:
        weights = heavy_weights()
    rounds = [int(a) for a in args] or [0, 1, 2, 4, 8]
    for r in rounds:
        print("rounds %2d: mean row error, float zero points: from the integer start %.4f, from "
              "the range's float zero point %.4f, the better of the two per block %.4f; integer "
              "zero points %.4f"
              % (r, mean_row_error(weights, r, False), mean_row_error(weights, r, False, False),
                 mean_row_error(weights, r, False, None), mean_row_error(weights, r, True)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
