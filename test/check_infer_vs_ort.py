#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Every shape onnxslim_infer_shapes() infers against the shape onnxruntime
produces: each model under the given directories (or files), its
value_info removed and its graph outputs' types cleared, is inferred
(dry run), then every value we type is made a graph output and the model
run on random inputs (int inputs all 0: valid indices), twice, with other
sizes for the symbolic dims of the inputs. A fixed dim must equal the
runtime size, a rank the runtime rank, and one symbol one size within a
run. Models whose inputs cannot be made (non-tensor, unknown dims) or that
onnxruntime refuses are counted as skipped.

usage: check_infer_vs_ort.py LIBONNXSLIM_SO PATH...
"""
import os
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import infer_ctypes  # noqa: E402

lib = infer_ctypes.load(sys.argv[1])
ort.set_default_logger_severity(4)


def models(p):
    if os.path.isfile(p):
        yield p
        return
    for root, _, files in os.walk(p):
        for f in sorted(files):
            if f.endswith(".onnx"):
                yield os.path.join(root, f)


def feeds(g, run):
    """Random inputs; the k-th symbol has size 2 + k in run 0, 5 + 2k in run 1
    (distinct symbols get distinct sizes, so a swap is seen)."""
    sizes = {}
    inits = {i.name for i in g.initializer}
    out = {}
    for vi in g.input:
        if vi.name in inits:
            continue
        if vi.type.WhichOneof("value") != "tensor_type":
            return None
        tt = vi.type.tensor_type
        shape = []
        for d in tt.shape.dim:
            w = d.WhichOneof("value")
            if w == "dim_value":
                shape.append(d.dim_value)
            elif w == "dim_param":
                k = sizes.setdefault(d.dim_param, len(sizes))
                shape.append(2 + k if run == 0 else 5 + 2 * k)
            else:
                return None
        try:
            dt = helper.tensor_dtype_to_np_dtype(tt.elem_type)
        except Exception:
            return None
        if dt == np.bool_:
            a = np.asarray(np.random.rand(*shape) > 0.5)
        elif np.issubdtype(dt, np.integer):
            a = np.zeros(shape, dtype=dt)
        elif np.issubdtype(dt, np.floating):
            a = np.asarray(np.random.rand(*shape)).astype(dt)
        else:
            return None
        out[vi.name] = a
    return out


np.random.seed(0)
checked = skipped = 0
bad = []
for path in (m for p in sys.argv[2:] for m in models(p)):
    model = onnx.load(path, load_external_data=False)
    g = model.graph
    del g.value_info[:]
    for vi in g.output:
        vi.ClearField("type")
    w, err = infer_ctypes.infer(lib, model.SerializeToString())
    if w is None:
        bad.append("%s: libonnxslim failed: %s" % (path, err))
        continue
    produced = [n for node in g.node for n in node.output if n and n in w]
    del g.output[:]
    for n in dict.fromkeys(produced):
        g.output.append(helper.make_value_info(n, onnx.TypeProto()))
    try:
        sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    except Exception:
        skipped += 1
        continue
    names = [o.name for o in g.output]
    for run in (0, 1):
        f = feeds(g, run)
        if f is None:
            skipped += 1
            break
        try:
            res = sess.run(None, f)
        except Exception:
            skipped += 1
            break
        label = os.path.basename(os.path.dirname(path)) or path
        for n, r in zip(names, res):
            if not isinstance(r, np.ndarray):
                continue
            dims = w[n][1]
            checked += 1
            if dims is None:
                continue
            sym = {}
            ok = len(dims) == r.ndim
            for a, b in zip(dims, r.shape if ok else ()):
                if isinstance(a, int) and a != b:
                    ok = False
                elif isinstance(a, str) and sym.setdefault(a, b) != b:
                    ok = False
            if not ok:
                bad.append("%s %s (run %d): inferred %s, onnxruntime %s" % (label, n, run, dims, r.shape))
print("onnxruntime %s: %d values checked (2 runs, other sizes of the symbolic dims), %d wrong; "
      "%d models skipped"
      % (ort.__version__, checked, len(bad), skipped))
for b in bad[:40]:
    print("FAIL " + b)
print("%d passed, %d failed" % (checked - len(bad), len(bad)))
sys.exit(1 if bad else 0)
