#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""onnxslim_infer_shapes() against onnx.shape_inference.infer_shapes(
strict_mode=True, data_prop=True) on every model under the given
directories (or files).

Each model is read with onnx, its value_info removed, and the same proto
handed to both: onnx gets the ModelProto, libonnxslim its bytes (through
ctypes, ONNXSLIM_INFER_DRY_RUN, the report). Every value a node of the main
graph produces is compared where either side gives it a tensor type:

  agree      same element type, rank and dimensions
  we more    we give a type, rank or dimension onnx leaves unknown (or
             only an unk__ symbol), and nothing onnx gives is missing
  onnx more  onnx gives something we leave unknown
  disagree   another element type, rank, fixed size or named symbol

Coverage: of the values onnx types, the share we match or exceed (type
only, and shape: rank and every fixed dimension onnx gives). A disagreement
fails unless KNOWN (lines "MODEL_DIR VALUE reason") lists it.

usage: check_infer_vs_onnx.py LIBONNXSLIM_SO KNOWN PATH...
(SHOW_MORE=1 in the environment prints every "we more" value, SHOW_LESS=1
every "onnx more" one.)
"""
import os
import sys
import warnings

import onnx
import onnx.shape_inference

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import infer_ctypes  # noqa: E402

so, known_path, paths = sys.argv[1], sys.argv[2], sys.argv[3:]
lib = infer_ctypes.load(so)

known = set()
with open(known_path) as f:
    for line in f:
        line = line.strip()
        if line and not line.startswith("#"):
            known.add(tuple(line.split()[:2]))


def ours(data):
    return infer_ctypes.infer(lib, data)


def theirs(model):
    out = {}
    g = model.graph
    for vi in list(g.value_info) + list(g.output):
        t = vi.type
        if t.WhichOneof("value") != "tensor_type" or not t.tensor_type.elem_type:
            continue
        dims = None
        if t.tensor_type.HasField("shape"):
            dims = []
            for d in t.tensor_type.shape.dim:
                w = d.WhichOneof("value")
                dims.append(d.dim_value if w == "dim_value" else d.dim_param if w == "dim_param" else None)
        out[vi.name] = (t.tensor_type.elem_type, dims)
    return out


def unk(d):
    return d is None or (isinstance(d, str) and d.startswith("unk__"))


def compare(o, w):
    """-> (class, type covered, shape covered)"""
    if w is None:
        return "onnx more", False, False
    if o is None:
        return "we more", True, True
    if o[0] != w[0]:
        return "disagree", False, False
    od, wd = o[1], w[1]
    if od is None:
        return ("agree" if wd is None else "we more"), True, True
    if wd is None:
        return "onnx more", True, False
    if len(od) != len(wd):
        return "disagree", True, False
    more = less = False
    for a, b in zip(od, wd):
        if unk(a) and unk(b):
            continue
        if unk(a):
            more = True
        elif unk(b):
            less = True
        elif a != b:
            return "disagree", True, False
    if less:
        return "onnx more", True, False
    return ("we more" if more else "agree"), True, True


def models(p):
    if os.path.isfile(p):
        yield p
        return
    for root, _, files in os.walk(p):
        for f in sorted(files):
            if f.endswith(".onnx"):
                yield os.path.join(root, f)


counts = {"agree": 0, "we more": 0, "onnx more": 0, "disagree": 0}
onnx_typed = type_cov = shape_cov = onnx_shaped = 0
n_models = onnx_fail = our_fail = 0
bad = []
byop = {}
for path in (m for p in paths for m in models(p)):
    try:
        model = onnx.load(path, load_external_data=False)
    except Exception:
        continue
    del model.graph.value_info[:]
    if os.environ.get("KEEP_OUTPUT_TYPES") != "1":
        for vi in model.graph.output:  # both infer the outputs from scratch too
            vi.ClearField("type")
    data = model.SerializeToString()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            inferred = onnx.shape_inference.infer_shapes(model, strict_mode=True, data_prop=True)
        except Exception:
            onnx_fail += 1
            continue
    n_models += 1
    w, err = ours(data)
    if w is None:
        our_fail += 1
        bad.append("%s: libonnxslim failed: %s" % (path, err))
        continue
    o = theirs(inferred)
    label = os.path.basename(os.path.dirname(path))
    for node in model.graph.node:
        for name in node.output:
            if not name or (name not in o and name not in w):
                continue
            cls, tcov, scov = compare(o.get(name), w.get(name))
            if name in o:
                onnx_typed += 1
                type_cov += tcov
                if o[name][1] is not None:
                    onnx_shaped += 1
                    shape_cov += scov
                if not scov:
                    byop[node.op_type] = byop.get(node.op_type, 0) + 1
            if cls == "disagree" and (label, name) in known:
                cls = "agree"  # listed with its reason
            counts[cls] += 1
            if cls == "we more" and os.environ.get("SHOW_MORE"):
                print("MORE %s %s (%s): onnx %s, libonnxslim %s" % (label, name, node.op_type, o.get(name), w.get(name)))
            if cls == "onnx more" and os.environ.get("SHOW_LESS"):
                print("LESS %s %s (%s): onnx %s, libonnxslim %s" % (label, name, node.op_type, o.get(name), w.get(name)))
            if cls == "disagree":
                bad.append("%s %s (%s): onnx %s, libonnxslim %s" % (label, name, node.op_type, o.get(name), w.get(name)))

print("onnx %s, %d models compared (%d onnx's strict inference rejects)" % (onnx.__version__, n_models, onnx_fail))
print("%-10s %7s" % ("values", "count"))
for k in ("agree", "we more", "onnx more", "disagree"):
    print("%-10s %7d" % (k, counts[k]))
if onnx_typed:
    print("coverage: element types %d/%d (%.1f%%), shapes %d/%d (%.1f%%)" % (
        type_cov, onnx_typed, 100.0 * type_cov / onnx_typed, shape_cov, onnx_shaped,
        100.0 * shape_cov / max(onnx_shaped, 1)))
top = sorted(byop.items(), key=lambda kv: -kv[1])[:15]
print("onnx infers more, by op: " + ", ".join("%s %d" % kv for kv in top))
for b in bad[:40]:
    print("FAIL " + b)
if len(bad) > 40:
    print("... %d more" % (len(bad) - 40))
failed = len(bad)
print("%d passed, %d failed" % (n_models - failed if n_models > failed else 0, failed))
sys.exit(1 if failed else 0)
