#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""libonnxslim diff of a float model against its quantized conversions:
each quantized weight is compared by its dequantized values. The expected
max abs diff is computed here, with numpy, from B's own codes, scales and
zero points (standard forms), or bounded by half of B's largest scale
(onnxruntime forms, symmetric), never from the raw codes.

usage: check_diff_dequant.py CLI TMPDIR    prints one line a check, then "N passed, N failed"
"""
import json
import subprocess
import sys

import numpy as np
import onnx
from onnx import numpy_helper

cli, tmp = sys.argv[1], sys.argv[2]
passed = failed = 0


def report(ok, what, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print("ok   " + what)
    else:
        failed += 1
        print("FAIL %s: %s" % (what, detail))


def codes(t):
    """The codes of an initializer as int64, 4-bit types unpacked."""
    if t.data_type in (21, 22):  # UINT4, INT4: two a byte, low nibble first
        b = np.frombuffer(t.raw_data, dtype=np.uint8)
        v = np.empty(b.size * 2, dtype=np.int64)
        v[0::2] = b & 15
        v[1::2] = b >> 4
        if t.data_type == 22:
            v = np.where(v >= 8, v - 16, v)
        return v[:int(np.prod(t.dims))].reshape(tuple(t.dims))
    return numpy_helper.to_array(t).astype(np.int64)


def dequantize(m, name, shape):
    """Standard forms: codes, then (q - zp) * scale, blocks along the rows
    of a table a Gather reads, along axis 0 of other weights."""
    inits = {t.name: t for t in m.graph.initializer}
    q = codes(inits[name])
    s = numpy_helper.to_array(inits[name + "_scale"])
    zp = codes(inits[name + "_zero_point"]).astype(np.float64) if name + "_zero_point" in inits else 0
    # a DequantizeLinear reading the codes says its axis; rows read by a
    # Gather are dequantized along the rows (axis 1)
    axis = 1
    for n in m.graph.node:
        if n.op_type == "DequantizeLinear" and n.input[0] == name:
            axis = next((at.i for at in n.attribute if at.name == "axis"), 1) % len(shape)
    if s.ndim == 2:
        rep = shape[axis] // s.shape[axis]
        s = np.repeat(s, rep, axis=axis)
        if not np.isscalar(zp):
            zp = np.repeat(zp, rep, axis=axis)
    # the product in FLOAT, as DequantizeLinear computes it with FLOAT scales
    return ((q - zp).astype(np.float32) * s.astype(np.float32)).astype(np.float64).reshape(shape)


def run_diff(a, b):
    r = subprocess.run([cli, "diff", "--json", a, b], capture_output=True)
    return r.returncode, json.loads(r.stdout) if r.stdout else None


def convert(src, dst, args):
    r = subprocess.run([cli, "-q", "convert", src, dst] + args, capture_output=True)
    return r.returncode == 0


# the tiny BERT at opset 17 (Cast and Mul tables, per-column DequantizeLinear)
# and at opset 21 (blocked DequantizeLinear, INT4 and UINT4 with zero points)
src17 = "data/bert-tiny.onnx"
m = onnx.load(src17)
m.opset_import[0].version = 21
m.ir_version = 10
src21 = tmp + "/bert21.onnx"
onnx.save(m, src21)
a = {t.name: numpy_helper.to_array(t).astype(np.float64) for t in onnx.load(src17).graph.initializer}

cases = [(src17, ["--to", "int8"]), (src17, ["--to", "int8", "--asymmetric"]),
         (src21, ["--to", "int4", "--block-size", "8", "--asymmetric"]),
         (src21, ["--to", "int8", "--block-size", "4"])]
for src, args in cases:
    out = tmp + "/q.onnx"
    if not convert(src, out, args):
        report(False, "convert %s" % " ".join(args))
        continue
    rc, doc = run_diff(src, out)
    mb = onnx.load(out)
    ents = [d for d in doc["differences"] if d["what"] == "dtype"] if doc else []
    bad = []
    for d in ents:
        w = a[d["name"]]
        want = float(np.max(np.abs(w - dequantize(mb, d["name"], w.shape))))
        got = d["max_abs_diff"]
        if got is None or abs(got - want) > 1e-6 * max(want, 1e-30) + 1e-12 or "dequantized" not in d["text"]:
            bad.append("%s: got %s, numpy %s" % (d["name"], got, want))
    report(rc == 1 and len(ents) >= 2 and not bad,
           "diff A vs convert %s: %d quantized weights, each max abs diff = numpy's of the dequantized values"
           % (" ".join(args), len(ents)), "; ".join(bad) or "exit %d, %d entries" % (rc, len(ents)))

# onnxruntime forms (GatherBlockQuantized, MatMulNBits), symmetric (absmax:
# INT4 weights in this form get float zero points by default): each value
# within half a scale, so the max abs diff is at most half of B's largest
# scale, and far below the codes' range
for bits in ("int8", "int4"):
    out = tmp + "/ort.onnx"
    if not convert(src17, out, ["--to", bits, "--format", "ort", "--scale-method", "absmax"]):
        report(False, "convert --to %s --format ort" % bits)
        continue
    rc, doc = run_diff(src17, out)
    inits = {t.name: t for t in onnx.load(out).graph.initializer}
    ents = [d for d in doc["differences"] if d["what"] == "dtype"] if doc else []
    bad = []
    for d in ents:
        s = numpy_helper.to_array(inits[d["name"] + "_scale"]).astype(np.float64)
        bound = float(np.max(np.abs(s))) / 2 * (1 + 1e-6)
        got = d["max_abs_diff"]
        if got is None or not 0 < got <= bound or "dequantized as" not in d["text"]:
            bad.append("%s: got %s, bound %s" % (d["name"], got, bound))
    report(rc == 1 and len(ents) >= 2 and not bad,
           "diff A vs convert --to %s --format ort --scale-method absmax: %d weights, max abs diff within half of B's largest scale"
           % (bits, len(ents)), "; ".join(bad) or "exit %d, %d entries" % (rc, len(ents)))

# MatMulNBits with float zero points (one a block, of the scales' type, as
# onnxruntime's HQQ writes them): B's symmetric weights given random float
# zero points here; the expected max abs diff is numpy's (q - zp) * scale
# from B's codes. Control: zero points of another float type than the
# scales' are not read as zero points (no dequantized comparison).
out = tmp + "/ort4.onnx"
if not convert(src17, out, ["--to", "int4", "--format", "ort", "--scale-method", "absmax"]):
    report(False, "convert --to int4 --format ort --scale-method absmax")
else:
    rng = np.random.default_rng(26)
    for zdt, good in ((None, True), (np.float16, False)):
        mb = onnx.load(out)
        inits = {t.name: t for t in mb.graph.initializer}
        want = {}
        for n in mb.graph.node:
            if n.op_type != "MatMulNBits":
                continue
            at = {x.name: x.i for x in n.attribute}
            K, N, bs = at["K"], at["N"], at["block_size"]
            nb = (K + bs - 1) // bs
            s = numpy_helper.to_array(inits[n.input[2]])
            zp = rng.uniform(0, 15, s.size).astype(zdt or s.dtype)
            zname = n.input[1] + "_fzp"
            mb.graph.initializer.append(numpy_helper.from_array(zp, zname))
            ins = list(n.input) + [""] * max(0, 4 - len(n.input))
            ins[3] = zname
            del n.input[:]
            n.input.extend(ins)
            b = np.frombuffer(inits[n.input[1]].raw_data, dtype=np.uint8).reshape(N, nb, -1)
            q = np.empty(b.shape[:2] + (b.shape[2] * 2,), dtype=np.float32)
            q[..., 0::2] = b & 15
            q[..., 1::2] = b >> 4
            deq = (q - zp.astype(np.float32).reshape(N, nb, 1)) * s.astype(np.float32).reshape(N, nb, 1)
            want[n.input[1]] = deq.reshape(N, nb * q.shape[2])[:, :K].T.astype(np.float64)
        fz = tmp + "/ort4fz.onnx"
        onnx.save(mb, fz)
        rc, doc = run_diff(src17, fz)
        ents = [d for d in doc["differences"] if d["what"] == "dtype" and d["name"] in want] if doc else []
        bad = []
        for d in ents:
            w = a[d["name"]]
            exp = float(np.max(np.abs(w - want[d["name"]])))
            got = d["max_abs_diff"]
            if good and (got is None or abs(got - exp) > 1e-5 * exp or "dequantized as" not in d["text"]):
                bad.append("%s: got %s, numpy %s" % (d["name"], got, exp))
            if not good and "dequantized" in d["text"]:
                bad.append("%s: read as dequantized: %s" % (d["name"], d["text"]))
        what = ("each max abs diff = numpy's (q - zp) * scale" if good else
                "FLOAT16 zero points beside FLOAT scales: not dequantized")
        report(rc == 1 and len(ents) >= 2 and len(ents) == len(want) and not bad,
               "diff A vs MatMulNBits with float zero points: %d weights, %s" % (len(ents), what),
               "; ".join(bad) or "exit %d, %d entries of %d" % (rc, len(ents), len(want)))

# libonnxslim's own float zero points (convert --zero-point float, and the
# default of --to int4 --format ort: FLOAT zero points [N, K/block] beside
# the scales): each max abs diff is numpy's (q - zp) * scale from B's
# codes, scales and zero points.
for extra in (["--zero-point", "float"], []):
    out = tmp + "/ort4fzp.onnx"
    how = " ".join(["--to", "int4", "--format", "ort"] + extra)
    if not convert(src17, out, ["--to", "int4", "--format", "ort", "--block-size", "16"] + extra):
        report(False, "convert " + how)
        continue
    mb = onnx.load(out)
    inits = {t.name: t for t in mb.graph.initializer}
    want = {}
    for n in mb.graph.node:
        if (n.op_type != "MatMulNBits" or len(n.input) < 4 or
                inits[n.input[3]].data_type != onnx.TensorProto.FLOAT):
            continue
        at = {x.name: x.i for x in n.attribute}
        K, N, bs = at["K"], at["N"], at["block_size"]
        nb = (K + bs - 1) // bs
        s = numpy_helper.to_array(inits[n.input[2]]).astype(np.float32).reshape(N, nb, 1)
        zp = numpy_helper.to_array(inits[n.input[3]]).astype(np.float32).reshape(N, nb, 1)
        b = np.frombuffer(inits[n.input[1]].raw_data, dtype=np.uint8).reshape(N, nb, -1)
        q = np.empty(b.shape[:2] + (b.shape[2] * 2,), dtype=np.float32)
        q[..., 0::2] = b & 15
        q[..., 1::2] = b >> 4
        want[n.input[1]] = ((q - zp) * s).reshape(N, -1)[:, :K].T.astype(np.float64)
    rc, doc = run_diff(src17, out)
    ents = [d for d in doc["differences"] if d["what"] == "dtype" and d["name"] in want] if doc else []
    bad = []
    for d in ents:
        exp = float(np.max(np.abs(a[d["name"]] - want[d["name"]])))
        got = d["max_abs_diff"]
        if got is None or abs(got - exp) > 1e-5 * exp or "dequantized as" not in d["text"]:
            bad.append("%s: got %s, numpy %s" % (d["name"], got, exp))
    report(rc == 1 and len(ents) >= 2 and len(ents) == len(want) and not bad,
           "diff A vs convert %s: %d weights, FLOAT zero points, each max abs "
           "diff = numpy's (q - zp) * scale" % (how, len(ents)),
           "; ".join(bad) or "exit %d, %d entries of %d" % (rc, len(ents), len(want)))

print("%d passed, %d failed" % (passed, failed))
