#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Random valid graphs of shape and integer operators on constants, for the
runtime proof of constant folding (test step 33-fold-fuzz).

usage: fuzz_fold.py OUT_DIR COUNT SEED
Writes OUT_DIR/fuzz_NNN.onnx (opset 17). Each graph has one float input x
of static shape [2, 3, 4] and a pool of values that starts with a few
random integer initializers and Shape(x); each step applies a random
operator (Add, Sub, Mul, Div, Mod, Neg, Abs, Min, Max, Equal, Less,
Greater, Where, Not, And, Cast, Shape, Size, Gather, Concat, Slice,
Squeeze, Unsqueeze, Reshape, Flatten, Transpose, Expand, Range,
ConstantOfShape, Identity) to values of the pool, with inputs that make it
valid (the values are followed with numpy only to choose valid indices,
divisors and shapes; the runtime computes the reference). The last values
and x * x are the graph's outputs. Prints the number written.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

NP2ONNX = {np.dtype(np.int64): T.INT64, np.dtype(np.int32): T.INT32, np.dtype(np.bool_): T.BOOL,
           np.dtype(np.int8): T.INT8, np.dtype(np.uint8): T.UINT8, np.dtype(np.float32): T.FLOAT}


class Graph:
    def __init__(self, rng):
        self.rng = rng
        self.nodes, self.inits, self.pool = [], [], []
        self.n = 0

    def name(self, p):
        self.n += 1
        return "%s_%d" % (p, self.n)

    def const(self, v):
        nm = self.name("c")
        self.inits.append(nh.from_array(np.asarray(v), nm))
        self.pool.append((nm, np.asarray(v)))
        return nm

    def aux(self, v):
        """A constant input that is not put in the pool."""
        nm = self.name("k")
        self.inits.append(nh.from_array(np.asarray(v), nm))
        return nm

    def op(self, op, ins, v, **attrs):
        nm = self.name(op.lower())
        self.nodes.append(h.make_node(op, ins, [nm], **attrs))
        self.pool.append((nm, np.asarray(v)))
        return nm

    def pick(self, pred=lambda v: True):
        c = [p for p in self.pool if pred(p[1])]
        return c[self.rng.integers(len(c))] if c else None


def is_int(v):
    return v.dtype in (np.int64, np.int32)


def onnx_slice(d, st, en, sp):
    """The indices Slice takes along a dimension of size d, as onnxruntime
    computes them: onnx's clamping, except that an end of INT32_MAX or
    INT64_MAX with a negative step means "through the first element" (onnx's
    definition clamps it to the last one, an empty slice)."""
    if sp < 0 and en in (2**31 - 1, 2**63 - 1):
        en = -d - 1
    st = st + d if st < 0 else st
    en = en + d if en < 0 else en
    if sp > 0:
        st, en = min(max(st, 0), d), min(max(en, 0), d)
    else:
        st, en = min(max(st, 0), d - 1), min(max(en, -1), d - 1)
    return np.array([i for i in range(st, en, sp)] if d > 0 else [], np.int64)


def rand_int(rng, shape, dt=np.int64, lo=-9, hi=10):
    return rng.integers(lo, hi, size=shape).astype(dt)


def step(g, rng):
    r = rng.integers(26)
    if r <= 5:  # binary integer arithmetic or comparison, broadcasting
        a = g.pick(is_int)
        b = g.pick(lambda v: v.dtype == a[1].dtype and
                   (v.shape == a[1].shape or v.ndim == 0 or a[1].ndim == 0 or v.size == 1))
        if b is None:
            return
        x, y = a[1], b[1]
        op = ["Add", "Sub", "Mul", "Div", "Mod", "Min", "Max", "Equal", "Less", "Greater"][
            rng.integers(10)]
        if op in ("Div", "Mod"):
            if np.any(y == 0):
                y = np.where(y == 0, 3, y).astype(y.dtype)
                b = (g.const(y), y)
            with np.errstate(all="ignore"):
                v = (np.trunc(x / y) if op == "Div" else np.mod(x, y)).astype(x.dtype)
            fm = int(rng.integers(2)) if op == "Mod" else None
            if fm is not None:
                g.op(op, [a[0], b[0]], v, fmod=fm)
            else:
                g.op(op, [a[0], b[0]], v)
            return
        with np.errstate(all="ignore"):
            v = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "Min": np.minimum,
                 "Max": np.maximum, "Equal": np.equal, "Less": np.less,
                 "Greater": np.greater}[op](x, y)
        g.op(op, [a[0], b[0]], v)
    elif r == 6:
        a = g.pick(is_int)
        op = ["Neg", "Abs", "Identity"][rng.integers(3)]
        g.op(op, [a[0]], a[1])
    elif r == 7:  # Where
        c = g.pick(lambda v: v.dtype == np.bool_)
        if c is None:
            return
        a = g.pick(lambda v: v.shape == c[1].shape or v.ndim == 0)
        b = g.pick(lambda v: v.dtype == a[1].dtype and (v.shape == c[1].shape or v.ndim == 0))
        if b is None:
            return
        g.op("Where", [c[0], a[0], b[0]], np.where(c[1], a[1], b[1]))
    elif r == 8:  # bool logic
        a = g.pick(lambda v: v.dtype == np.bool_)
        if a is None:
            return
        if rng.integers(2):
            g.op("Not", [a[0]], ~a[1])
        else:
            b = g.pick(lambda v: v.dtype == np.bool_ and v.shape == a[1].shape)
            g.op(["And", "Or", "Xor"][rng.integers(3)], [a[0], b[0]], a[1] & b[1])
    elif r <= 10:  # Cast
        a = g.pick(lambda v: v.dtype != np.float32)
        to = [np.int64, np.int32, np.bool_, np.int8, np.uint8, np.float32][rng.integers(6)]
        g.op("Cast", [a[0]], a[1].astype(to), to=NP2ONNX[np.dtype(to)])
    elif r == 11:  # Shape, Size
        a = g.pick()
        if rng.integers(2):
            rank = a[1].ndim
            s, e = int(rng.integers(-rank - 1, rank + 2)), int(rng.integers(-rank - 1, rank + 2))
            # Python's slice of a tuple clamps as Shape's start and end do
            g.op("Shape", [a[0]], np.array(a[1].shape[s:e], np.int64), start=s, end=e)
        else:
            g.op("Size", [a[0]], np.array(a[1].size, np.int64))
    elif r <= 13:  # Gather
        a = g.pick(lambda v: v.ndim >= 1 and min(v.shape) > 0)
        if a is None:
            return
        ax = int(rng.integers(-a[1].ndim, a[1].ndim))
        d = a[1].shape[ax]
        idx = rng.integers(-d, d, size=tuple(rng.integers(0, 3, size=rng.integers(0, 2))))
        g.op("Gather", [a[0], g.aux(idx.astype(np.int64))], np.take(a[1], idx, axis=ax), axis=ax)
    elif r == 14:  # Concat
        a = g.pick(lambda v: v.ndim >= 1)
        if a is None:
            return
        ax = int(rng.integers(a[1].ndim))
        b = g.pick(lambda v: v.dtype == a[1].dtype and v.ndim == a[1].ndim and all(
            v.shape[k] == a[1].shape[k] for k in range(v.ndim) if k != ax))
        g.op("Concat", [a[0], b[0]], np.concatenate([a[1], b[1]], axis=ax), axis=ax)
    elif r <= 16:  # Slice, any starts/ends/steps
        a = g.pick(lambda v: v.ndim >= 1)
        if a is None:
            return
        ax = int(rng.integers(-a[1].ndim, a[1].ndim))
        d = a[1].shape[ax]
        # negative and out-of-range starts and ends, INT64 and INT32 extremes
        ext = [2**63 - 1, -2**63, 2**31 - 1, -2**31, -2**63 + 1]
        st = int([rng.integers(-d - 3, d + 3), rng.integers(-d - 3, d + 3),
                  ext[rng.integers(len(ext))]][rng.integers(3)])
        en = int([rng.integers(-d - 3, d + 3), rng.integers(-d - 3, d + 3),
                  ext[rng.integers(len(ext))]][rng.integers(3)])
        sp = int([1, 2, -1, -2, 3, -3, 2**63 - 1, -2**63 + 1][rng.integers(8)])
        if sp < 0 and d == 0:
            sp = 1
        v = np.take(a[1], onnx_slice(d, st, en, sp), axis=ax)
        g.op("Slice", [a[0], g.aux(np.array([st])), g.aux(np.array([en])),
                       g.aux(np.array([ax])), g.aux(np.array([sp]))], v)
    elif r == 17:  # Unsqueeze, Squeeze
        a = g.pick(lambda v: v.ndim < 4)
        ax = int(rng.integers(-a[1].ndim - 1, a[1].ndim + 1))
        u = np.expand_dims(a[1], ax)
        nm = g.op("Unsqueeze", [a[0], g.aux(np.array([ax]))], u)
        if rng.integers(2):
            g.op("Squeeze", [nm, g.aux(np.array([ax]))], a[1])
    elif r == 18:  # Reshape with 0 / -1
        a = g.pick(lambda v: v.ndim >= 1 and v.size > 0)
        if a is None:
            return
        shape = [0] + [-1] if a[1].ndim >= 1 else [-1]
        v = a[1].reshape(a[1].shape[0], -1)
        g.op("Reshape", [a[0], g.aux(np.array(shape, np.int64))], v)
    elif r == 19:  # Flatten
        a = g.pick()
        ax = int(rng.integers(0, a[1].ndim + 1))
        lead = int(np.prod(a[1].shape[:ax]))
        g.op("Flatten", [a[0]], a[1].reshape(lead, -1) if a[1].size else
             np.zeros((lead, int(np.prod(a[1].shape[ax:]))), a[1].dtype), axis=ax)
    elif r == 20:  # Transpose
        a = g.pick(lambda v: v.ndim >= 2)
        if a is None:
            return
        perm = rng.permutation(a[1].ndim)
        g.op("Transpose", [a[0]], np.transpose(a[1], perm), perm=[int(p) for p in perm])
    elif r == 21:  # Expand
        a = g.pick(lambda v: v.ndim <= 2)
        shape = [int(rng.integers(1, 4))] + [k if rng.integers(2) else 1 for k in a[1].shape]
        g.op("Expand", [a[0], g.aux(np.array(shape, np.int64))],
             np.broadcast_to(a[1], np.broadcast_shapes(a[1].shape, tuple(shape))).copy())
    elif r == 22:  # Range
        dt = [np.int64, np.int32][rng.integers(2)]
        s, lim, d = int(rng.integers(-10, 10)), int(rng.integers(-10, 10)), int(
            [1, 2, 3, -1, -2][rng.integers(5)])
        g.op("Range", [g.aux(np.array(s, dt)), g.aux(np.array(lim, dt)), g.aux(np.array(d, dt))],
             np.arange(s, lim, d, dtype=dt))
    elif r == 23:  # ConstantOfShape of a small shape value
        a = g.pick(lambda v: v.dtype == np.int64 and v.ndim == 1 and v.size <= 3 and
                   np.all(v >= 0) and np.all(v <= 4))
        if a is None:
            return
        val = np.array([int(rng.integers(-5, 5))], [np.int64, np.int32][rng.integers(2)])
        g.op("ConstantOfShape", [a[0]], np.full(tuple(a[1]), val[0], val.dtype),
             value=nh.from_array(val))
    else:  # a fresh constant
        shape = tuple(int(k) for k in rng.integers(1, 4, size=rng.integers(0, 3)))
        g.const(rand_int(rng, shape, [np.int64, np.int32][rng.integers(2)]))


def build(seed):
    rng = np.random.default_rng(seed)
    g = Graph(rng)
    x = np.zeros((2, 3, 4), np.float32)
    g.pool.append(("x", x))  # only Shape, Size and a few shape ops may read it
    for _ in range(3):
        shape = tuple(int(k) for k in rng.integers(1, 4, size=rng.integers(0, 3)))
        g.const(rand_int(rng, shape))
    g.op("Shape", ["x"], np.array(x.shape, np.int64))
    g.pool = [p for p in g.pool if p[0] != "x"]
    for _ in range(int(rng.integers(8, 25))):
        step(g, rng)
    outs = [h.make_tensor_value_info("y", T.FLOAT, [2, 3, 4])]
    g.nodes.append(h.make_node("Mul", ["x", "x"], ["y"]))
    produced = {n.output[0] for n in g.nodes}
    for nm, v in g.pool[-4:]:
        if nm in produced:
            outs.append(h.make_tensor_value_info(nm, NP2ONNX[v.dtype], list(v.shape)))
    graph = h.make_graph(g.nodes, "fuzz_%d" % seed,
                         [h.make_tensor_value_info("x", T.FLOAT, [2, 3, 4])], outs, g.inits)
    m = h.make_model(graph, opset_imports=[h.make_opsetid("", 17)], producer_name="fuzz_fold")
    m.ir_version = 8
    return m


def main():
    out, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    os.makedirs(out, exist_ok=True)
    n = 0
    for i in range(count):
        m = build(seed * 100003 + i)
        onnx.checker.check_model(m)
        onnx.save(m, os.path.join(out, "fuzz_%03d.onnx" % i))
        n += 1
    print(n)


if __name__ == "__main__":
    main()
