# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Checks dtype conversions of models at old opsets (test/steps/58-convert-opset.sh).

  opset_check.py make DIR
      Writes DIR/gadd-N.onnx for N in 9 11 12 13 (a Gather table, a MatMul
      weight and a Constant, all FLOAT, valid at opset N) with inputs in
      DIR/gadd-N/test_data_set_0/input_*.pb.
  opset_check.py run WORKDIR LIST
      LIST lines: KEY ORIGINAL DATADIR CONVERTED DTYPE TOL
      For each line: onnx.checker (full_check) accepts CONVERTED; it holds a
      tensor of DTYPE (an ONNX data type number: initializer or Constant
      value); onnxruntime (test/convert/ort_run.js) runs ORIGINAL and
      CONVERTED on DATADIR's input_*.pb and every output of CONVERTED is
      within TOL * max(1, max |original|) of the original's (integer
      outputs within 1). Prints "ok   KEY ..." or "FAIL KEY ..." per line.
"""
import glob
import json
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto as T, helper as h, numpy_helper


def make(d):
    rng = np.random.default_rng(15)
    emb = numpy_helper.from_array(rng.standard_normal((10, 4)).astype(np.float32), "emb")
    w = numpy_helper.from_array(rng.standard_normal((4, 4)).astype(np.float32), "W")
    c = numpy_helper.from_array(np.array([0.5, -1.25, 2.0, 3.0], dtype=np.float32), "c_value")
    nodes = [
        h.make_node("Gather", ["emb", "ids"], ["e"], name="gather"),
        h.make_node("MatMul", ["x", "W"], ["hx"], name="matmul"),
        h.make_node("Add", ["e", "hx"], ["s"], name="add"),
        h.make_node("Constant", [], ["c"], name="const", value=c),
        h.make_node("Mul", ["s", "c"], ["y"], name="mul"),
    ]
    g = h.make_graph(nodes, "gadd",
                     [h.make_tensor_value_info("ids", T.INT64, [3]),
                      h.make_tensor_value_info("x", T.FLOAT, [3, 4])],
                     [h.make_tensor_value_info("y", T.FLOAT, [3, 4])], [emb, w])
    for opset in (9, 11, 12, 13):
        m = h.make_model(g, opset_imports=[h.make_opsetid("", opset)])
        m.ir_version = 7 if opset >= 12 else 6
        onnx.checker.check_model(m, full_check=True)
        onnx.save(m, os.path.join(d, "gadd-%d.onnx" % opset))
        data = os.path.join(d, "gadd-%d" % opset, "test_data_set_0")
        os.makedirs(data, exist_ok=True)
        ids = numpy_helper.from_array(np.array([1, 7, 3], dtype=np.int64), "ids")
        x = numpy_helper.from_array(rng.standard_normal((3, 4)).astype(np.float32), "x")
        for k, t in enumerate((ids, x)):
            with open(os.path.join(data, "input_%d.pb" % k), "wb") as f:
                f.write(t.SerializeToString())


ORT_TYPES = {np.float32: "float32", np.float64: "float64", np.int64: "int64", np.int32: "int32",
             np.uint8: "uint8", np.int8: "int8", np.bool_: "bool"}


def feeds(model, data_dir):
    m = onnx.load(model)
    inits = {t.name for t in m.graph.initializer}
    names = [i.name for i in m.graph.input if i.name not in inits]
    files = sorted(glob.glob(os.path.join(data_dir, "input_*.pb")),
                   key=lambda p: int(os.path.basename(p)[6:-3]))
    out = {}
    for k, p in enumerate(files):
        t = onnx.TensorProto()
        with open(p, "rb") as f:
            t.ParseFromString(f.read())
        a = numpy_helper.to_array(t)
        name = t.name if t.name in names else names[k]
        out[name] = {"type": ORT_TYPES[a.dtype.type], "dims": list(a.shape),
                     "data": a.ravel().tolist()}
    return out


def tensors(m):
    def walk(g):
        for t in g.initializer:
            yield t
        for n in g.node:
            for a in n.attribute:
                if a.type == onnx.AttributeProto.TENSOR:
                    yield a.t
                for sg in list(a.graphs) + ([a.g] if a.HasField("g") else []):
                    yield from walk(sg)
    return list(walk(m.graph))


def as_array(o):
    return np.array([float(v) if isinstance(v, str) else v for v in o["data"]], dtype=np.float64)


def run(work, lst):
    lines = [l.split() for l in open(lst) if l.strip()]
    jobs, results = [], []
    for i, (key, orig, data, conv, dtype, tol) in enumerate(lines):
        why = None
        try:
            onnx.checker.check_model(conv, full_check=True)
        except Exception as e:  # noqa: BLE001 - any checker failure is a test failure
            why = "onnx.checker: " + str(e).splitlines()[0][:200]
        if not why and not any(t.data_type == int(dtype) for t in tensors(onnx.load(conv))):
            why = "no tensor of data type %s in %s" % (dtype, conv)
        f = feeds(orig, data)
        for which, model in (("orig", orig), ("conv", conv)):
            jobs.append({"model": os.path.abspath(model), "feeds": f,
                         "out": os.path.abspath(os.path.join(work, "ort-%d-%s.json" % (i, which)))})
        results.append(why)
    with open(os.path.join(work, "ort-jobs.json"), "w") as f:
        json.dump(jobs, f)
    subprocess.run(["node", os.path.join(os.path.dirname(__file__), "ort_run.js"),
                    os.path.join(work, "ort-jobs.json")], check=True)
    failed = 0
    for i, (key, orig, data, conv, dtype, tol) in enumerate(lines):
        why = results[i]
        a = json.load(open(jobs[2 * i]["out"]))
        b = json.load(open(jobs[2 * i + 1]["out"]))
        worst = 0.0
        if not why and not a["ok"]:
            why = "the original does not run in onnxruntime: " + a["error"]
        if not why and not b["ok"]:
            why = "onnxruntime refuses the converted model: " + b["error"]
        if not why:
            for name, x in a["outputs"].items():
                y = b["outputs"].get(name)
                if y is None or y["dims"] != x["dims"] or y["type"] != x["type"]:
                    why = "output %s missing or of another type or shape" % name
                    break
                xa, ya = as_array(x), as_array(y)
                if not np.array_equal(np.isnan(xa), np.isnan(ya)):
                    why = "output %s: NaNs differ" % name
                    break
                ok = ~np.isnan(xa)
                d = float(np.max(np.abs(xa[ok] - ya[ok]), initial=0.0))
                lim = 1.0 if x["type"] not in ("float32", "float64", "float16") else \
                    float(tol) * max(1.0, float(np.max(np.abs(xa[ok]), initial=0.0)))
                worst = max(worst, d)
                if d > lim:
                    why = "output %s differs by %g (limit %g)" % (name, d, lim)
                    break
        if why:
            failed += 1
            print("FAIL %s: %s" % (key, why))
        else:
            print("ok   %s: checker ok, runs in onnxruntime, outputs within %g (max diff %.3g)"
                  % (key, float(tol), worst))
    return failed


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2])
    elif sys.argv[1] == "run":
        sys.exit(1 if run(sys.argv[2], sys.argv[3]) else 0)
    else:
        sys.exit("usage: opset_check.py make DIR | run WORKDIR LIST")
