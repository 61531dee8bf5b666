# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Percentile clipping of the quantization end to end (test/steps/49-quant-clip.sh).

`libonnxslim convert --gather-to int8|int4 --clip-percentile P` (and --to with
--select op:MatMul:1) on small models built here (python onnx, fixed seed),
checked against an independent numpy reference:
- the cap: the nearest-rank percentile of |x| over the whole tensor, rank
  ceil(P9 * n / 100), P9 being P rounded to 9 decimals, computed exactly
  with fractions.Fraction (at least 1), and the same as numpy's
  percentile(method="inverted_cdf") for the P and n used here;
- each block's scale: the smallest FP32 (or FP16) value s with
  min(amax, cap) <= qmax * s (the smallest positive scale when that range
  is 0 in a block that is not all zeros; 1 for a block of zeros);
- q = rint(x / s) (half to even) clamped to +-qmax; the saturated count is
  the number of clamped values (|rint(x / s)| > qmax);
- the stored bytes and scales bit for bit, the saturated count and the
  largest absolute error in the --json report, the count in --report's
  table;
- edge cases: P tiny (rank 1), P near 100 (rank n: the same bytes as
  without clipping), a table of zeros, ties, a table of the values 1..n
  (every rank visible in the scales), a FLOAT16 table with FLOAT16 scales;
  MatMul weights, standard and MatMulNBits; a Gemm weight (transB 1);
  asymmetric tables and MatMul weights (the range cut to [-cap, cap],
  values outside 0..Q clamped); the nibbles form;
- onnxruntime-node: the rows of a clipped table equal q * scale bit for bit;
- refusals: P of 0, 100, -1, nan, inf or not a number; P with a
  floating-point target; exit 2, nothing written.

Usage: check_clip.py LIBONNXSLIM_CLI WORKDIR [ORT_RUNNER]
"""
import json
import os
import subprocess
import sys
from fractions import Fraction

import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from checks import report, finish  # noqa: E402

cli, work = sys.argv[1], sys.argv[2]
ort_runner = sys.argv[3] if len(sys.argv) > 3 else None
# the runner: run_ort.js in onnxruntime-node, or its twin run_ort.py in the
# Python wheel (the venv's python in $ORT_PY, test/ort-setup.sh)
ORT_CMD = ([os.environ.get("ORT_PY", sys.executable), ort_runner] if ort_runner and ort_runner.endswith(".py")
           else ["node", ort_runner])
os.makedirs(work, exist_ok=True)
rng = np.random.default_rng(59)
INT4 = 22
F32_MIN = np.float32(np.finfo(np.float32).smallest_subnormal)
F16_MIN = np.float16(np.finfo(np.float16).smallest_subnormal)


def make_table_model(path, tab, opset, name="emb.weight"):
    ids = helper.make_tensor_value_info("ids", TensorProto.INT64, ["b"])
    elem = TensorProto.FLOAT if tab.dtype == np.float32 else TensorProto.FLOAT16
    y = helper.make_tensor_value_info("rows", elem, ["b", tab.shape[1]])
    g = helper.make_graph([helper.make_node("Gather", [name, "ids"], ["rows"], name="emb")],
                          "g", [ids], [y], [numpy_helper.from_array(tab, name)])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 10 if opset >= 21 else 8
    onnx.save(m, path)


def make_mm_model(path, w, opset):
    k, n = w.shape
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["b", k])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["b", n])
    g = helper.make_graph([helper.make_node("MatMul", ["x", "fc.weight"], ["y"], name="fc")],
                          "mm", [x], [y], [numpy_helper.from_array(w, "fc.weight")])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 10 if opset >= 21 else 8
    onnx.save(m, path)


def run_cli(*args):
    p = subprocess.run([cli, "convert", *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def ref_cap(x, p):
    """The nearest-rank percentile of |x|: rank ceil(p9 n / 100), p9 being p
    rounded half to even to 9 decimals, exact (Fraction)."""
    a = np.sort(np.abs(x.astype(np.float32)).ravel())
    n = a.size
    r = Fraction(round(Fraction(p) * 10 ** 9), 10 ** 9) * n / 100
    k = max(1, min(n, -((-r.numerator) // r.denominator)))
    return a[k - 1]


def np_cap(x, p):
    return np.percentile(np.abs(x.astype(np.float32)).ravel(), p, method="inverted_cdf")


def smallest_scale(rng_, qmax, scale_type):
    """The smallest value s of scale_type with rng_ <= qmax * s (exact in float64)."""
    if scale_type == np.float32:
        s = np.float32(rng_ / np.float32(qmax))
        s = max(s, F32_MIN)
        while float(rng_) > qmax * float(s):
            s = np.nextafter(s, np.float32(np.inf))
        while s > F32_MIN and float(rng_) <= qmax * float(np.nextafter(s, np.float32(0))):
            s = np.nextafter(s, np.float32(0))
        return s
    h = np.float16(smallest_scale(rng_, qmax, np.float32))
    h = max(h, F16_MIN)
    while float(rng_) > qmax * float(h):
        h = np.nextafter(h, np.float16(np.inf))
    return h


def ref_quant(x, bits, bs, cap=None, scale_type=np.float32):
    """q [rows, k] (int64, clamped), scales [rows, k/bs], saturated count."""
    qmax = 127 if bits == 8 else 7
    rows, k = x.shape
    xb = x.astype(np.float32).reshape(rows, k // bs, bs)
    amax = np.abs(xb).max(axis=2)
    s = np.empty(amax.shape, dtype=scale_type)
    for idx in np.ndindex(*amax.shape):
        a = amax[idx]
        if a == 0:
            s[idx] = 1
        elif cap is not None and a > cap:
            s[idx] = smallest_scale(cap, qmax, scale_type) if cap > 0 else (
                F32_MIN if scale_type == np.float32 else F16_MIN)
        else:
            s[idx] = smallest_scale(a, qmax, scale_type)
    q = np.rint(xb.astype(np.float64) / s.astype(np.float64)[:, :, None])
    sat = int(np.count_nonzero(np.abs(q) > qmax))
    q = np.clip(q, -qmax, qmax)
    return q.reshape(rows, k).astype(np.int64), s, sat


def inits(m):
    return {t.name: t for t in m.graph.initializer}


def unpack_nibbles(raw, signed):
    b = np.frombuffer(raw, dtype=np.uint8).astype(np.int64)
    out = np.empty(b.size * 2, dtype=np.int64)
    out[0::2] = b % 16
    out[1::2] = b // 16
    return np.where(out >= 8, out - 16, out) if signed else out


def stored_q(t, shape, bits, ort):
    if ort:
        raw = np.frombuffer(t.raw_data, np.uint8).astype(np.int64)
        got = raw - 128 if bits == 8 else unpack_nibbles(t.raw_data, False) - 8
    elif t.data_type == INT4:
        got = unpack_nibbles(t.raw_data, True)
    else:
        got = numpy_helper.to_array(t).astype(np.int64)
    return got.reshape(shape)


def json_entry(stdout, name):
    try:
        doc = json.loads(stdout)
    except ValueError:
        return None
    for e in doc.get("conversion", {}).get("tensors", []):
        if e.get("name") == name:
            return e
    return None


DBL_MIN = float(np.finfo(np.float64).tiny)  # the smallest normal double


def dec(p):
    """p in decimal form, as --clip-percentile takes it (no exponent): the
    shortest digits that read back as p."""
    return np.format_float_positional(p, unique=True, trim="-")


def check_table(label, tab, opset, bits, bs, p, fmt="standard", scales=None, extra=()):
    """Converts a table with --clip-percentile p and checks it against the
    reference; returns (q, s, sat) of the reference, or None."""
    src = os.path.join(work, label + "-in.onnx")
    out = os.path.join(work, label + ".onnx")
    make_table_model(src, tab, opset)
    args = [src, out, "--gather-to", "int%d" % bits, "--format", fmt, "--json",
            "--clip-percentile", dec(p)] + list(extra)
    if bs:
        args += ["--block-size", str(bs)]
    if scales:
        args += ["--scales", scales]
    rc, so, se = run_cli(*args)
    if not report(rc == 0, label + ": converted", se.strip()):
        return None
    st = np.float16 if scales == "fp16" or (tab.dtype == np.float16 and not scales) else np.float32
    cap = ref_cap(tab, p)
    q_ref, s_ref, sat = ref_quant(tab, bits, bs or tab.shape[1], cap, st)
    m = onnx.load(out)
    it = inits(m)
    got_s = numpy_helper.to_array(it["emb.weight_scale"])
    view = np.uint32 if st == np.float32 else np.uint16
    report(got_s.dtype == st and np.array_equal(got_s.reshape(s_ref.shape).view(view),
                                                s_ref.view(view)),
           label + ": scales equal the reference bit for bit")
    got_q = stored_q(it["emb.weight"], tab.shape, bits, fmt == "ort")
    report(np.array_equal(got_q, q_ref), label + ": stored values equal the reference",
           "%d differ" % np.count_nonzero(got_q != q_ref))
    e = json_entry(so, "emb.weight")
    qj = (e or {}).get("quantization") or {}
    report(qj.get("saturated") == sat and (e or {}).get("saturated") == sat,
           label + ": the report's saturated count is the reference's (%d)" % sat,
           "quantization %s, stats %s" % (qj.get("saturated"), (e or {}).get("saturated")))
    deq = (q_ref.astype(np.float32).reshape(tab.shape[0], -1, bs or tab.shape[1]) *
           s_ref.astype(np.float32)[:, :, None]).reshape(tab.shape)
    if st == np.float32:
        err = float(np.abs(deq.astype(np.float64) - tab.astype(np.float32)).max())
        report(qj.get("max_abs_error") == err,
               label + ": the report's max_abs_error includes the clipped values' (%g)" % err,
               qj.get("max_abs_error"))
    return q_ref, s_ref, sat, deq, out


# ---- the cap's rank, exactly --------------------------------------------------
# a table of the values 1..1000 (shuffled, signs mixed): the row holding the
# largest value has its scale from the cap, which is the rank itself
N1 = 1000
vals = np.arange(1, N1 + 1, dtype=np.float32) * np.where(rng.random(N1) < 0.5, -1, 1)
ranks = rng.permutation(vals).astype(np.float32).reshape(10, 100)
for p in [0.1, 12.5, 33.3, 50.0, 66.7, 99.9, 99.95, 99.99999999999999, 1e-300, DBL_MIN,
          np.nextafter(0.1, 1.0), np.nextafter(50.0, 0.0)]:
    cap = ref_cap(ranks, p)
    k = int(cap)
    # numpy computes the rank as ceil(n * (p / 100)) in double precision: the
    # same, but where the decimal rank is an integer that double rounding
    # pushes past (99.9% of 1000 is 999.0000000000001 in double)
    exact = Fraction(round(Fraction(p) * 10 ** 9), 10 ** 9) * N1 / 100
    dbl = N1 * (p / 100)
    artifact = exact.denominator == 1 and abs(dbl - float(exact)) <= 1e-12 * float(exact)
    if np_cap(ranks, p) == cap:
        report(True, "rank p=%r: numpy's inverted_cdf gives the same cap (%d)" % (p, k))
    else:
        report(artifact, "rank p=%r: numpy's cap (%g) differs from %d only by its double "
               "rounding of the integer rank %s (%r)" % (p, np_cap(ranks, p), k, exact, dbl))
    res = check_table("ranks-%r" % p, ranks, 17, 8, 0, p)
    if res and k < N1:
        # the row holding 1000 has its scale from the cap, i.e. the rank
        row = int(np.nonzero(np.abs(ranks) == N1)[0][0])
        report(res[1][row, 0] == smallest_scale(np.float32(k), 127, np.float32),
               "rank p=%r: the scale of the row of 1000 comes from rank %d" % (p, k))

# ---- tables of realistic values ------------------------------------------------
V, K = 200, 64
tab = rng.standard_normal((V, K)).astype(np.float32)
tab *= np.exp(rng.uniform(-3, 1, size=(V, 1))).astype(np.float32)
tab[5, 7] = 80.0  # outliers
tab[9, 3] = -120.0
tab[11, :] = 0  # a row of zeros
results = {}
for label, opset, bits, bs, p, fmt, scales, extra in [
    ("int8-row-17", 17, 8, 0, 99.9, "standard", None, []),
    ("int8-b16-21", 21, 8, 16, 99.0, "standard", None, []),
    ("int4-b16-21", 21, 4, 16, 99.5, "standard", None, []),
    ("int4-row-17-unpacked", 17, 4, 0, 97.0, "standard", None, ["--allow-unpacked"]),
    ("int8-b16-ort", 21, 8, 16, 99.0, "ort", None, []),
    ("int4-b32-ort", 17, 4, 32, 99.9, "ort", None, []),
    ("int8-b16-21-fp16scales", 21, 8, 16, 99.0, "standard", "fp16", []),
]:
    res = check_table(label, tab, opset, bits, bs, p, fmt, scales, extra)
    if res:
        results[label] = res
        report(res[2] > 0, label + ": some values saturate (%d)" % res[2])
# the clipped blocks have smaller scales than without clipping
if "int8-b16-21" in results:
    _, s_plain, _ = ref_quant(tab, 8, 16)
    s_clip = results["int8-b16-21"][1]
    report(np.all(s_clip <= s_plain) and np.any(s_clip < s_plain),
           "int8-b16-21: clipping lowers the scales of the blocks over the cap only")

# the nibbles form (INT4 as UINT8 pairs, unpacked with standard ops): its
# rows in onnxruntime below
src = os.path.join(work, "nibbles-in.onnx")
make_table_model(src, tab, 17)
out = os.path.join(work, "int4-b32-nibbles.onnx")
rc, so, se = run_cli(src, out, "--gather-to", "int4", "--format", "nibbles", "--block-size",
                     "32", "--json", "--clip-percentile", "99.5")
if report(rc == 0, "int4-b32-nibbles: converted", se.strip()):
    q_ref, s_ref, sat = ref_quant(tab, 4, 32, ref_cap(tab, 99.5))
    e = json_entry(so, "emb.weight") or {}
    report((e.get("quantization") or {}).get("saturated") == sat and sat > 0,
           "int4-b32-nibbles: the report's saturated count is the reference's (%d)" % sat)
    deq = (q_ref.astype(np.float32).reshape(V, -1, 32) * s_ref[:, :, None]).reshape(V, K)
    results["int4-b32-nibbles"] = (q_ref, s_ref, sat, deq, out)

# onnxruntime: the rows of a clipped table are q * scale, bit for bit, and
# both forms agree
if ort_runner:
    ids = list(range(V)) + [9, 5, 0]
    rows = {}
    for label in ("int8-b16-21", "int8-b16-ort", "int8-row-17", "int4-b32-nibbles"):
        if label not in results:
            continue
        out = results[label][4]
        f = os.path.join(work, "rows.bin")
        pr = subprocess.run(ORT_CMD + [out, "ids", str(len(ids)),
                             ",".join(map(str, ids)), f], capture_output=True, text=True)
        if not report(pr.returncode == 0, label + ": onnxruntime runs it", pr.stderr.strip()):
            continue
        y = np.fromfile(f, dtype=np.float32).reshape(len(ids), K)
        deq = results[label][3]
        report(np.array_equal(y.view(np.uint32), deq[ids].view(np.uint32)),
               label + ": onnxruntime rows equal the clipped q * scale bit for bit")
        rows[label] = y
    if "int8-b16-21" in rows and "int8-b16-ort" in rows:
        report(np.array_equal(rows["int8-b16-21"].view(np.uint32),
                              rows["int8-b16-ort"].view(np.uint32)),
               "onnxruntime: the clipped standard and GatherBlockQuantized forms agree bit for bit")

# ---- edge cases -----------------------------------------------------------------
# p tiny: rank 1, the smallest magnitude; with a zero in the table the cap is
# 0 and every block not all zeros gets the smallest positive scale
check_table("tiny-with-zero", tab, 17, 8, 0, 1e-6)
nz = tab.copy()
nz[nz == 0] = 0.25
res = check_table("tiny", nz, 17, 8, 0, 1e-6)
if res:
    report(res[2] > 0, "tiny: nearly every value saturates (%d)" % res[2])
# p near 100: rank n, the largest magnitude: the same bytes as without clipping
src = os.path.join(work, "near100-in.onnx")
make_table_model(src, tab, 21)
outs = []
for label, more in [("near100", ["--clip-percentile", "99.99999"]), ("noclip", [])]:
    out = os.path.join(work, label + ".onnx")
    rc, so, se = run_cli(src, out, "--gather-to", "int8", "--block-size", "16", "--json", *more)
    report(rc == 0, label + ": converted", se.strip())
    e = json_entry(so, "emb.weight") or {}
    report((e.get("quantization") or {}).get("saturated") == 0, label + ": nothing saturates")
    outs.append(out)
if all(os.path.exists(o) for o in outs):
    a, b = (inits(onnx.load(o)) for o in outs)
    report(all(a[n].raw_data == b[n].raw_data for n in ("emb.weight", "emb.weight_scale")),
           "p near 100 (rank n): the same table and scales as without clipping")
# a table of zeros
res = check_table("zeros", np.zeros((8, 32), dtype=np.float32), 21, 8, 16, 50.0)
if res:
    report(res[2] == 0 and np.all(res[1] == 1), "zeros: scales 1, nothing saturates")
# ties: few distinct magnitudes, the cap on a run of equal values
ties = rng.choice(np.array([-3, -2, -1, 0, 1, 2, 3], dtype=np.float32), size=(50, 32))
for p in (10.0, 60.0, 90.0, 95.0):
    check_table("ties-%g" % p, ties, 21, 8, 16, p)
# a FLOAT16 table (its magnitudes histogrammed as FLOAT16) with FLOAT16 scales
t16 = tab.astype(np.float16)
res = check_table("fp16-table", t16, 17, 8, 0, 99.0)
check_table("fp16-table-fp32scales", t16, 21, 4, 16, 99.0, scales="fp32")
# a cap of 0 with FLOAT16 scales: the smallest FLOAT16 subnormal
res = check_table("fp16-tiny-with-zero", t16, 17, 8, 0, 1e-6)
if res:
    nonzero = np.abs(t16.astype(np.float32)).max(axis=1) > 0
    report(np.all(res[1][nonzero].view(np.uint16) == 1),
           "fp16-tiny-with-zero: blocks not all zeros get the smallest FLOAT16 scale")

# ---- MatMul weights ----------------------------------------------------------------
KM, NM = 64, 48
w = (rng.standard_normal((KM, NM)) * 0.05).astype(np.float32)
w[3, 5] = 4.0
w[40, 7] = -3.0
for label, opset, bits, bs, fmt, p in [("mm-int8-b16-21", 21, 8, 16, "standard", 99.0),
                                       ("mm-int4-b16-ort", 21, 4, 16, "ort", 98.0),
                                       ("mm-int8-col-17", 17, 8, 0, "standard", 99.5)]:
    src = os.path.join(work, label + "-in.onnx")
    out = os.path.join(work, label + ".onnx")
    make_mm_model(src, w, opset)
    args = [src, out, "--to", "int%d" % bits, "--select", "op:MatMul:1", "--format", fmt,
            "--json", "--clip-percentile", dec(p)] + (["--block-size", str(bs)] if bs else [])
    rc, so, se = run_cli(*args)
    if not report(rc == 0, label + ": converted", se.strip()):
        continue
    bsz = bs or KM
    qT, sT, sat = ref_quant(w.T.copy(), bits, bsz, ref_cap(w, p))  # [N, K], [N, K/bs]
    it = inits(onnx.load(out))
    s_got = numpy_helper.to_array(it["fc.weight_scale"])
    if fmt == "ort":
        got = stored_q(it["fc.weight"], (NM, KM), bits, True)
        want_q, want_s = qT, sT
    else:
        got = stored_q(it["fc.weight"], (KM, NM), bits, False)
        want_q, want_s = qT.T, (sT.T if bs else sT.reshape(NM))
    report(np.array_equal(got, want_q), label + ": stored values equal the reference")
    report(np.array_equal(s_got.reshape(want_s.shape).view(np.uint32),
                          np.ascontiguousarray(want_s).view(np.uint32)),
           label + ": scales equal the reference")
    e = json_entry(so, "fc.weight") or {}
    report((e.get("quantization") or {}).get("saturated") == sat and sat > 0,
           label + ": saturated count %d" % sat, e.get("quantization"))

# ---- asymmetric (--asymmetric): the range within [-cap, cap] ---------------------


def ref_quant_asym_clip(x, bits, bs, cap):
    """q (0..Q, clamped), zero points, FP32 scales and the saturated count:
    a block's range [min(mn, 0), max(mx, 0)] cut to [-c, c] (c = cap, or the
    smallest float for a cap of 0), the smallest scale s with
    rint(mx / s) + rint(-mn / s) <= Q (bisection on the bit patterns),
    zp = rint(-mn / s), q = rint(x / s) + zp clamped to 0..Q."""
    Q = 255 if bits == 8 else 15
    rows, k = x.shape
    xb = x.astype(np.float64).reshape(rows, k // bs, bs)
    c = float(cap) if cap > 0 else float(F32_MIN)
    q = np.zeros(xb.shape, dtype=np.int64)
    zps = np.zeros(xb.shape[:2], dtype=np.int64)
    s = np.ones(xb.shape[:2], dtype=np.float32)
    sat = 0
    for r in range(rows):
        for b in range(k // bs):
            mx = min(max(xb[r, b].max(), 0.0), c)
            nmn = min(-min(xb[r, b].min(), 0.0), c)
            if mx == 0 and nmn == 0:
                sv, zp = 1.0, 0
            else:
                lo, hi = 0, 0x7f7fffff
                while hi - lo > 1:
                    mid = (lo + hi) // 2
                    m = float(np.array(mid, dtype=np.uint32).view(np.float32))
                    if np.rint(mx / m) + np.rint(nmn / m) <= Q:
                        hi = mid
                    else:
                        lo = mid
                sv = float(np.array(hi, dtype=np.uint32).view(np.float32))
                zp = int(np.rint(nmn / sv))
            s[r, b], zps[r, b] = sv, zp
            with np.errstate(over="ignore"):
                v = np.rint(np.clip(xb[r, b] / sv, -Q - 1, Q + 1)).astype(np.int64) + zp
            sat += int(np.count_nonzero((v < 0) | (v > Q)))
            q[r, b] = np.clip(v, 0, Q)
    return q.reshape(rows, k), zps, s, sat


atab = tab.copy()
atab[3] = np.abs(atab[3]) + 0.25  # all positive
atab[4] = -np.abs(atab[4]) - 0.25  # all negative
atab[6, 2] = 50.0  # an outlier in an off-centre row
atab[6] += 0.5
for label, opset, bits, bs, p, extra in [("asym-int8-b16-21", 21, 8, 16, 99.0, []),
                                         ("asym-int8-row-17", 17, 8, 0, 98.0, []),
                                         ("asym-int4-row-17-unpacked", 17, 4, 0, 99.5,
                                          ["--allow-unpacked"]),
                                         ("asym-int8-tiny", 17, 8, 0, 1e-6, [])]:
    src = os.path.join(work, label + "-in.onnx")
    out = os.path.join(work, label + ".onnx")
    make_table_model(src, atab, opset)
    args = [src, out, "--gather-to", "int%d" % bits, "--asymmetric", "--json",
            "--clip-percentile", dec(p)] + extra + (["--block-size", str(bs)] if bs else [])
    rc, so, se = run_cli(*args)
    if not report(rc == 0, label + ": converted", se.strip()):
        continue
    bsz = bs or K
    q_ref, zp_ref, s_ref, sat = ref_quant_asym_clip(atab, bits, bsz, ref_cap(atab, p))
    it = inits(onnx.load(out))
    got_q = numpy_helper.to_array(it["emb.weight"]).astype(np.int64)
    got_zp = numpy_helper.to_array(it["emb.weight_zero_point"]).astype(np.int64)
    got_s = numpy_helper.to_array(it["emb.weight_scale"])
    report(np.array_equal(got_s.reshape(s_ref.shape).view(np.uint32), s_ref.view(np.uint32)),
           label + ": scales equal the reference bit for bit")
    report(np.array_equal(got_zp.reshape(zp_ref.shape), zp_ref),
           label + ": zero points equal the reference")
    report(np.array_equal(got_q, q_ref), label + ": stored values equal the reference",
           "%d differ" % np.count_nonzero(got_q != q_ref))
    e = json_entry(so, "emb.weight") or {}
    report((e.get("quantization") or {}).get("saturated") == sat and sat > 0,
           label + ": the report's saturated count is the reference's (%d)" % sat,
           e.get("quantization"))
    if ort_runner and label == "asym-int8-b16-21":
        ids = list(range(V))
        f = os.path.join(work, "rows.bin")
        pr = subprocess.run(ORT_CMD + [out, "ids", str(len(ids)),
                             ",".join(map(str, ids)), f], capture_output=True, text=True)
        if report(pr.returncode == 0, label + ": onnxruntime runs it", pr.stderr.strip()):
            y = np.fromfile(f, dtype=np.float32).reshape(V, K)
            deq = ((q_ref - np.repeat(zp_ref, bsz, axis=1)).astype(np.float32) *
                   np.repeat(s_ref, bsz, axis=1))
            report(np.array_equal(y.view(np.uint32), deq.view(np.uint32)),
                   label + ": onnxruntime rows equal (q - zp) * scale bit for bit")

# ---- asymmetric MatMul weights: blocks along K per column -----------------------
src = os.path.join(work, "mm-a-in.onnx")
make_mm_model(src, w, 21)
for label, fmt in [("mm-a-int8-b16-21", "standard"), ("mm-a-int8-b16-ort", "ort")]:
    out = os.path.join(work, label + ".onnx")
    rc, so, se = run_cli(src, out, "--to", "int8", "--select", "op:MatMul:1", "--format", fmt,
                         "--asymmetric", "--block-size", "16", "--json", "--clip-percentile",
                         "99.0")
    if not report(rc == 0, label + ": converted", se.strip()):
        continue
    qT, zT, sT, sat = ref_quant_asym_clip(w.T.copy(), 8, 16, ref_cap(w, 99.0))
    it = inits(onnx.load(out))
    raw = np.frombuffer(it["fc.weight"].raw_data, np.uint8).astype(np.int64)
    zp = np.frombuffer(it["fc.weight_zero_point"].raw_data, np.uint8).astype(np.int64)
    sc = numpy_helper.to_array(it["fc.weight_scale"])
    if fmt == "ort":  # [N, K/bs, bs], zero points and scales [N, K/bs]
        ok = (np.array_equal(raw.reshape(NM, KM), qT) and np.array_equal(zp.reshape(zT.shape), zT)
              and np.array_equal(sc.reshape(sT.shape).view(np.uint32), sT.view(np.uint32)))
    else:  # [K, N], zero points and scales [K/bs, N]
        ok = (np.array_equal(raw.reshape(KM, NM), qT.T) and
              np.array_equal(zp.reshape(zT.T.shape), zT.T) and
              np.array_equal(sc.reshape(sT.T.shape).view(np.uint32),
                             np.ascontiguousarray(sT.T).view(np.uint32)))
    report(ok, label + ": values, zero points and scales equal the reference")
    e = json_entry(so, "fc.weight") or {}
    report((e.get("quantization") or {}).get("saturated") == sat and sat > 0,
           label + ": saturated count %d" % sat, e.get("quantization"))

# ---- a Gemm weight stored [N, K] (transB 1): blocks along its rows ----------------
wg = (rng.standard_normal((NM, KM)) * 0.05).astype(np.float32)
wg[2, 9] = 3.0
src = os.path.join(work, "gemm-in.onnx")
out = os.path.join(work, "gemm-int8-b16-21.onnx")
x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["b", KM])
y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["b", NM])
g = helper.make_graph([helper.make_node("Gemm", ["x", "fc.weight"], ["y"], name="fc", transB=1)],
                      "gemm", [x], [y], [numpy_helper.from_array(wg, "fc.weight")])
gm = helper.make_model(g, opset_imports=[helper.make_opsetid("", 21)])
gm.ir_version = 10
onnx.save(gm, src)
rc, so, se = run_cli(src, out, "--to", "int8", "--select", "op:Gemm:1", "--block-size", "16",
                     "--json", "--clip-percentile", "99.0")
if report(rc == 0, "gemm-int8-b16-21: converted", se.strip()):
    q_ref, s_ref, sat = ref_quant(wg, 8, 16, ref_cap(wg, 99.0))
    it = inits(onnx.load(out))
    got = numpy_helper.to_array(it["fc.weight"]).astype(np.int64)
    s_got = numpy_helper.to_array(it["fc.weight_scale"])
    report(np.array_equal(got, q_ref), "gemm-int8-b16-21: stored values [N, K] equal the reference")
    report(np.array_equal(s_got.reshape(s_ref.shape).view(np.uint32), s_ref.view(np.uint32)),
           "gemm-int8-b16-21: scales equal the reference")
    e = json_entry(so, "fc.weight") or {}
    report((e.get("quantization") or {}).get("saturated") == sat and sat > 0,
           "gemm-int8-b16-21: saturated count %d" % sat, e.get("quantization"))

# ---- the text report shows the count ------------------------------------------------
src = os.path.join(work, "text-in.onnx")
make_table_model(src, tab, 17)
out = os.path.join(work, "text.onnx")
rc, so, se = run_cli(src, out, "--gather-to", "int8", "--clip-percentile", "99", "--report")
_, _, sat = ref_quant(tab, 8, K, ref_cap(tab, 99.0))
row = [ln.split() for ln in so.splitlines() if ln.split()[:1] == ["emb.weight"]]
# tensor, FLOAT, ->, INT8, elements, before, ->, after, to_inf, saturated, ...
report(rc == 0 and row and row[0][9] == str(sat),
       "--report: the saturated column shows %d" % sat, so)

# ---- refusals --------------------------------------------------------------------------
for label, args in [("0", ["--gather-to", "int8", "--clip-percentile", "0"]),
                    ("100", ["--gather-to", "int8", "--clip-percentile", "100"]),
                    ("-1", ["--gather-to", "int8", "--clip-percentile", "-1"]),
                    ("nan", ["--gather-to", "int8", "--clip-percentile", "nan"]),
                    ("inf", ["--gather-to", "int8", "--clip-percentile", "inf"]),
                    ("text", ["--gather-to", "int8", "--clip-percentile", "9x"]),
                    # decimal form only (strtod took these), no subnormal
                    ("hex", ["--gather-to", "int8", "--clip-percentile", "0x10"]),
                    ("exponent", ["--gather-to", "int8", "--clip-percentile", "5e-324"]),
                    ("exponent 1e1", ["--gather-to", "int8", "--clip-percentile", "1e1"]),
                    ("sign", ["--gather-to", "int8", "--clip-percentile", "+50"]),
                    ("space", ["--gather-to", "int8", "--clip-percentile", " 50"]),
                    ("two dots", ["--gather-to", "int8", "--clip-percentile", "5.0.1"]),
                    ("dot", ["--gather-to", "int8", "--clip-percentile", "."]),
                    ("subnormal", ["--gather-to", "int8", "--clip-percentile", dec(5e-324)]),
                    ("subnormal 1e-310", ["--gather-to", "int8", "--clip-percentile",
                                          dec(1e-310)]),
                    ("bf16", ["--gather-to", "bf16", "--clip-percentile", "99"]),
                    ("fp16 --to", ["--to", "fp16", "--clip-percentile", "99"])]:
    out = os.path.join(work, "refused.onnx")
    if os.path.exists(out):
        os.unlink(out)
    rc, so, se = run_cli(src, out, *args)
    report(rc == 2 and "--clip-percentile" in se and not os.path.exists(out),
           "refused: --clip-percentile with %s" % label, "rc %d: %s" % (rc, se.strip()))

finish()
