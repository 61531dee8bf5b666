#!/usr/bin/python3
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Checks models converted by test/convert/convert_model.c against the original,
with python onnx and numpy only (independent of libonnxslim). For
test/steps/55-convert-ort.sh.

Usage: check_models.py ORIGINAL.onnx MODE=CONVERTED.onnx:REPORT.txt ...
  MODE: gather-bf16, gather-bf16-trunc, all-fp16, all-bf16 (see convert_model.c)

For each converted model, prints one line per check:
  PASS|FAIL <mode> <check>: <details>
Checks:
  checker   onnx.checker.check_model(full_check=True) (strict shape inference)
  tensors   which tensors were converted, their data type, and their bytes
            equal to numpy's conversion of the original values (round to
            nearest even; for -trunc the top 16 bits of each FLOAT); every
            other initializer byte-identical to the original
  graph     gather-*: every Gather reading a table writes <out>_bf16, read only
            by a Cast(to=FLOAT) that writes <out>; all-*: each converted
            tensor is read only by one Cast(to=FLOAT) whose output is read by
            exactly the tensor's original consumers; no other node changed
  report    the library's report names the converted tensors, with element
            counts, byte sizes, and max relative errors within the format's
            rounding bound (2^-8 BF16 nearest, 2^-7 BF16 truncation,
            2^-11 FP16)
"""

import sys

import numpy as np
import onnx
from onnx import TensorProto, numpy_helper

FLOAT, FLOAT16, BFLOAT16 = TensorProto.FLOAT, TensorProto.FLOAT16, TensorProto.BFLOAT16
results = []


def say(ok, mode, check, details):
    results.append(ok)
    print("%s %s %s: %s" % ("PASS" if ok else "FAIL", mode, check, details))
    sys.stdout.flush()


def raw_bytes(t):
    """The tensor's data in raw little-endian layout."""
    if t.HasField("raw_data"):
        return t.raw_data
    if t.data_type in (FLOAT16, BFLOAT16):
        return np.array(t.int32_data, dtype=np.uint16).tobytes()
    return numpy_helper.to_array(t).tobytes()


def bf16_of(f32, trunc):
    u = np.frombuffer(np.ascontiguousarray(f32, dtype=np.float32).tobytes(), dtype=np.uint32)
    u = u.astype(np.uint64)
    if trunc:
        return (u >> 16).astype(np.uint16).tobytes()
    nan = (u & 0x7FFFFFFF) > 0x7F800000
    r = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    r[nan] = ((u[nan] >> 16) | 0x40).astype(np.uint16)  # quiet NaN (none expected)
    return r.tobytes()


def converted_bytes(f32, mode):
    if mode == "all-fp16":
        with np.errstate(over="ignore"):
            return np.asarray(f32, dtype=np.float32).astype(np.float16).tobytes()
    return bf16_of(f32, mode.endswith("-trunc"))


def float_tensors(graph):
    """name -> (TensorProto, kind) for float initializers and Constant values."""
    out = {}
    for t in graph.initializer:
        if t.data_type == FLOAT:
            out[t.name] = (t, "initializer")
    for n in graph.node:
        if n.op_type == "Constant" and n.domain in ("", "ai.onnx"):
            for a in n.attribute:
                if a.name == "value" and a.t.data_type == FLOAT:
                    out[n.output[0]] = (a.t, "constant")
    return out


def consumers(graph, name):
    return [n for n in graph.node if name in n.input]


def cast_to(node):
    for a in node.attribute:
        if a.name == "to":
            return a.i
    return None


def read_report(path):
    rep = {}
    total = None
    for line in open(path):
        f = line.split()
        if f and f[0] == "REPORT":
            rep[f[1]] = dict(frm=int(f[2]), to=int(f[3]), before=int(f[4]), after=int(f[5]),
                             count=int(f[6]), nan=int(f[7]), inf=int(f[8]), sat=int(f[9]),
                             flushed=int(f[10]), abs=float(f[11]), rel=float(f[12]))
        elif f and f[0] == "TOTAL":
            total = int(f[1])
    return rep, total


def check(orig, mode, path, report_path):
    try:
        onnx.checker.check_model(onnx.load(path), full_check=True)
        say(True, mode, "checker", "full_check ok")
    except Exception as e:  # noqa: BLE001 - any checker failure is a failed check
        say(False, mode, "checker", "%s: %s" % (type(e).__name__, " ".join(str(e).split())[:300]))
    m = onnx.load(path)
    og, g = orig.graph, m.graph
    to = {"gather-bf16": BFLOAT16, "gather-bf16-trunc": BFLOAT16,
          "all-fp16": FLOAT16, "all-bf16": BFLOAT16}[mode]
    ofl = float_tensors(og)
    if mode.startswith("gather"):
        want = {n.input[0] for n in og.node if n.op_type == "Gather" and n.input[0] in ofl}
    else:
        want = set(ofl)

    # ---- tensors -------------------------------------------------------------
    problems = []
    conv = {}
    for t in g.initializer:
        conv[t.name] = t
    for n in g.node:
        if n.op_type == "Constant":
            for a in n.attribute:
                if a.name == "value":
                    conv[("const", n.name)] = a.t
    const_by_out = {n.output[0]: n.name for n in og.node if n.op_type == "Constant"}
    for name in sorted(want):
        t0, kind = ofl[name]
        t1 = conv.get(name) if kind == "initializer" else conv.get(("const", const_by_out[name]))
        if t1 is None:
            problems.append("%s missing" % name)
            continue
        if t1.data_type != to or list(t1.dims) != list(t0.dims):
            problems.append("%s: type %d dims %s" % (name, t1.data_type, list(t1.dims)))
            continue
        ref = converted_bytes(numpy_helper.to_array(t0), mode)
        if raw_bytes(t1) != ref:
            problems.append("%s: bytes differ from numpy's conversion" % name)
    n_same = 0
    for t0 in og.initializer:
        if t0.name in want:
            continue
        t1 = conv.get(t0.name)
        if t1 is None or t1.data_type != t0.data_type or raw_bytes(t1) != raw_bytes(t0):
            problems.append("%s changed" % t0.name)
        else:
            n_same += 1
    n_elems = sum(int(np.prod(ofl[n][0].dims)) for n in want)
    say(not problems, mode, "tensors",
        "; ".join(problems[:5]) if problems else
        "%d tensors (%d values) converted to %s exactly as numpy does, %d others unchanged" %
        (len(want), n_elems, TensorProto.DataType.Name(to), n_same))

    # ---- graph ---------------------------------------------------------------
    problems = []
    onodes = {n.name: n for n in og.node}
    nnodes = {n.name: n for n in g.node}
    added = [n for n in g.node if n.name not in onodes]
    if any(n.op_type != "Cast" for n in added):
        problems.append("added nodes other than Cast")
    if mode.startswith("gather"):
        n_gathers = 0
        for gn in og.node:
            if gn.op_type != "Gather" or gn.input[0] not in want:
                continue
            n_gathers += 1
            cn = nnodes.get(gn.name)
            out = gn.output[0]
            if cn is None or cn.output[0] != out + "_bf16" or list(cn.input) != list(gn.input):
                problems.append("Gather %s: output %s" % (gn.name, cn.output[0] if cn else None))
                continue
            cs = consumers(g, cn.output[0])
            if len(cs) != 1 or cs[0].op_type != "Cast" or cast_to(cs[0]) != FLOAT or \
                    list(cs[0].output) != [out]:
                problems.append("Gather %s: not followed by one Cast(to=FLOAT) -> %s" % (gn.name, out))
            vi = [v for v in g.value_info if v.name == out + "_bf16"]
            had = any(v.name == out for v in og.value_info)
            if had and (len(vi) != 1 or vi[0].type.tensor_type.elem_type != BFLOAT16):
                problems.append("Gather %s: no BFLOAT16 value_info for its new output" % gn.name)
        if len(added) != n_gathers:
            problems.append("%d Casts added for %d Gathers" % (len(added), n_gathers))
        changed_ok = set()
        for gn in og.node:
            if gn.op_type == "Gather" and gn.input[0] in want:
                changed_ok.add(gn.name)
        for name, n0 in onodes.items():
            if name not in changed_ok and nnodes.get(name) != n0:
                problems.append("node %s changed" % name)
        detail = "%d Gathers each followed by Cast(to=FLOAT) taking over the output name" % n_gathers
    else:
        rewired = set()
        for name in sorted(want):
            cs = consumers(g, name)
            t0, kind = ofl[name]
            src = name
            if kind == "constant":
                # the Constant writes a fresh name, the Cast takes over `name`
                k = nnodes.get(const_by_out[name])
                src = k.output[0] if k else None
                cs = consumers(g, src) if src else []
            if len(cs) != 1 or cs[0].op_type != "Cast" or cast_to(cs[0]) != FLOAT:
                problems.append("%s: read by %s" % (name, [c.op_type for c in cs]))
                continue
            cout = cs[0].output[0]
            want_readers = sorted(c.name for c in consumers(og, name))
            got_readers = sorted(c.name for c in consumers(g, cout))
            if want_readers != got_readers:
                problems.append("%s: Cast feeds %s, not %s" % (name, got_readers, want_readers))
            if kind == "constant" and cout != name:
                problems.append("%s: Constant's Cast writes %s" % (name, cout))
            for c in consumers(og, name):
                rewired.add(c.name)
        if len(added) != len(want):
            problems.append("%d Casts added for %d tensors" % (len(added), len(want)))
        for name, n0 in onodes.items():
            n1 = nnodes.get(name)
            if n1 is None:
                problems.append("node %s lost" % name)
            elif name not in rewired and n0.op_type != "Constant" and n1 != n0:
                problems.append("node %s changed" % name)
        detail = "%d Casts to FLOAT, one per converted tensor, feeding its original consumers" % len(added)
    say(not problems, mode, "graph", "; ".join(problems[:5]) if problems else detail)

    # ---- report --------------------------------------------------------------
    problems = []
    rep, total = read_report(report_path)
    if set(rep) != want or total != len(want):
        problems.append("report names %d tensors (%s...), expected %d" %
                        (len(rep), sorted(set(rep) ^ want)[:3], len(want)))
    u = {"gather-bf16": 2.0 ** -8, "gather-bf16-trunc": 2.0 ** -7,
         "all-fp16": 2.0 ** -11, "all-bf16": 2.0 ** -8}[mode]
    worst = 0.0
    for name, e in rep.items():
        if name not in ofl:
            continue
        t0 = ofl[name][0]
        n = int(np.prod(t0.dims))
        if e["frm"] != FLOAT or e["to"] != to or e["count"] != n or e["before"] != 4 * n or \
                e["after"] != 2 * n or e["nan"] or e["inf"] or e["sat"]:
            problems.append("%s: %s" % (name, e))
        x = np.abs(numpy_helper.to_array(t0).astype(np.float64)).ravel()
        y = np.abs(np.frombuffer(converted_bytes(numpy_helper.to_array(t0), mode),
                                 dtype=np.float16).astype(np.float64)) if mode == "all-fp16" else None
        flushed = int(np.sum((x != 0) & (y == 0))) if y is not None else 0
        if e["flushed"] != flushed:
            problems.append("%s: %d flushed, numpy says %d" % (name, e["flushed"], flushed))
        # abs: at most u relative to the largest value (and half the smallest
        # FP16 subnormal, 2^-25, below FP16's normal range); rel: at most u
        # unless values fall below FP16's normal range (2^-14), where the
        # spacing is fixed and the relative error grows
        if e["abs"] > max(u * x.max(), 2.0 ** -25 if y is not None else 0.0):
            problems.append("%s: max abs error %g > %g" % (name, e["abs"], u * x.max()))
        subnormal = y is not None and bool(np.any((x != 0) & (x < 2.0 ** -14)))
        if e["rel"] > u and not subnormal:
            problems.append("%s: max relative error %g > %g" % (name, e["rel"], u))
        if not subnormal:
            worst = max(worst, e["rel"])
    say(not problems, mode, "report", "; ".join(problems[:5]) if problems else
        "%d entries, max relative error %.6g (bound %.6g; FP16: of the tensors with no values "
        "below 2^-14)" % (len(rep), worst, u))


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    orig = onnx.load(sys.argv[1])
    for arg in sys.argv[2:]:
        mode, rest = arg.split("=", 1)
        path, report = rest.rsplit(":", 1)
        check(orig, mode, path, report)
    print("%d passed, %d failed" % (sum(results), len(results) - sum(results)))
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
