#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""Every model `libonnxslim convert` writes at opset 21 gets the full schema
check, not the structural fallback.

A small model (a Gather table and a MatMul weight, ai.onnx opset 21) is
converted with each option that writes standard operators: BF16/FP16, INT8
and INT4 tables and weights, per row and in blocks (DequantizeLinear with
block_size), symmetric (INT8/INT4) and --asymmetric (UINT8/UINT4 with zero
points), and the nibbles form. For each output:
  - `libonnxslim check --json` passes with an empty note: the schemas of the
    tables were applied (a model above the tables' newest opset gets the
    note "schemas not checked ...": the same output re-imported at an opset
    past the tables is the control that the note is there when they are not);
  - onnx.checker.check_model(full_check=True) of the onnx running this
    script (the pinned one, 1.23.2 in step 37) accepts it (on a ModelProto:
    the file under test is never handed to onnx);
  - mutants that only a schema check finds are rejected by both checkers:
    an INT attribute given as FLOAT (attr_type) and, where there is a
    DequantizeLinear, a zero point of another type than the quantized
    tensor (type_constraint: T1 binds both).

usage: check_convert_opset21.py LIBONNXSLIM TMP_DIR
"""
import json
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, checker, helper, numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import finish, report  # noqa: E402

cli, tmp = sys.argv[1:3]
os.makedirs(tmp, exist_ok=True)
OPSET = 21

rng = np.random.default_rng(21)
table = numpy_helper.from_array(rng.standard_normal((64, 32)).astype(np.float32), "table")
w = numpy_helper.from_array(rng.standard_normal((32, 64)).astype(np.float32), "w")
graph = helper.make_graph(
    [helper.make_node("Gather", ["table", "ids"], ["e"]), helper.make_node("MatMul", ["e", "w"], ["y"])],
    "g", [helper.make_tensor_value_info("ids", TensorProto.INT64, [2, 3])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3, 64])], [table, w])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
src = os.path.join(tmp, "in.onnx")
with open(src, "wb") as f:
    f.write(model.SerializeToString())

MM = ["--select", "op:MatMul:1"]
VARIANTS = [
    ["--gather-to", "bf16"], ["--gather-to", "fp16"], ["--to", "fp16"], ["--to", "bf16"],
    ["--gather-to", "int8"], ["--gather-to", "int8", "--block-size", "16"],
    ["--gather-to", "int8", "--asymmetric", "--block-size", "16"],
    ["--gather-to", "int4"], ["--gather-to", "int4", "--block-size", "16"],
    ["--gather-to", "int4", "--asymmetric"], ["--gather-to", "int4", "--asymmetric", "--block-size", "16"],
    ["--gather-to", "int4", "--format", "nibbles"],
    ["--to", "int8"] + MM, ["--to", "int8", "--block-size", "16"] + MM,
    ["--to", "int4", "--block-size", "16"] + MM, ["--to", "int4", "--asymmetric", "--block-size", "16"] + MM,
]


def slim(path):
    """(exit status, the JSON report or None)."""
    r = subprocess.run([cli, "check", "--json", path], capture_output=True, text=True)
    try:
        return r.returncode, json.loads(r.stdout)
    except ValueError:
        return r.returncode, None


def onnx_ok(m):
    try:
        checker.check_model(m, full_check=True)
        return True, ""
    except Exception as e:  # ValidationError, InferenceError, ...
        return False, str(e).splitlines()[0][:160] if str(e) else type(e).__name__


def save(m, path):
    with open(path, "wb") as f:
        f.write(m.SerializeToString())
    return path


def codes(rep):
    return sorted({p["code_name"] for p in rep["problems"]}) if rep else []


def mutants(m):
    """(name, expected libonnxslim code, mutated model)."""
    out = []
    for k, n in enumerate(m.graph.node):
        for j, a in enumerate(n.attribute):
            if a.type == onnx.AttributeProto.INT:
                mm = onnx.ModelProto()
                mm.CopyFrom(m)
                aa = mm.graph.node[k].attribute[j]
                v = aa.i
                aa.ClearField("i")
                aa.f = float(v)
                aa.type = onnx.AttributeProto.FLOAT
                out.append(("%s.%s as FLOAT" % (n.op_type, a.name), "attr_type", mm))
                break
        if out:
            break
    inits = {t.name: t for t in m.graph.initializer}
    for k, n in enumerate(m.graph.node):
        if n.op_type != "DequantizeLinear" or n.input[0] not in inits or n.input[1] not in inits:
            continue
        x, scale = inits[n.input[0]], inits[n.input[1]]
        other = TensorProto.UINT8 if x.data_type == TensorProto.INT8 else TensorProto.INT8
        zp = helper.make_tensor("zz_zero_point", other, list(scale.dims),
                                np.zeros(int(np.prod(scale.dims)), np.int64).tolist())
        mm = onnx.ModelProto()
        mm.CopyFrom(m)
        mm.graph.initializer.append(zp)
        nn = mm.graph.node[k]
        if len(nn.input) > 2:
            nn.input[2] = "zz_zero_point"
        else:
            nn.input.append("zz_zero_point")
        out.append(("DequantizeLinear zero point %s beside x %s" % (
            TensorProto.DataType.Name(other), TensorProto.DataType.Name(x.data_type)), "type_constraint", mm))
        break
    return out


n_models = n_mutants = 0
for i, args in enumerate(VARIANTS):
    what = "convert " + " ".join(args)
    out = os.path.join(tmp, "out%d.onnx" % i)
    r = subprocess.run([cli, "convert", src, out] + args, capture_output=True, text=True)
    if not report(r.returncode == 0, what + ": converted", r.stderr.strip()):
        continue
    m = onnx.load(out)
    ops = sorted({n.op_type for n in m.graph.node})
    dts = sorted({TensorProto.DataType.Name(t.data_type) for t in m.graph.initializer})
    opset = [o.version for o in m.opset_import if o.domain in ("", "ai.onnx")]
    rc, rep = slim(out)
    report(opset == [OPSET] and rc == 0 and rep is not None and rep["ok"] and rep["note"] == "",
           "%s: opset %s (%s; %s): libonnxslim check ok with the full schema check (no note)"
           % (what, opset, ",".join(ops), ",".join(dts)),
           "exit %d, problems %s, note %r" % (rc, codes(rep), rep and rep["note"]))
    ok, msg = onnx_ok(m)
    report(ok, "%s: onnx %s check_model(full_check=True) accepts it" % (what, onnx.__version__), msg)
    n_models += 1
    for name, code, mm in mutants(m):
        p = save(mm, os.path.join(tmp, "out%d-mut.onnx" % i))
        rc, rep = slim(p)
        ok, _ = onnx_ok(mm)
        report(rc == 1 and code in codes(rep) and not ok,
               "%s, mutant %s: libonnxslim reports %s, onnx rejects it too" % (what, name, code),
               "libonnxslim exit %d %s; onnx %s" % (rc, codes(rep), "accepts" if ok else "rejects"))
        n_mutants += 1
    # the control: past the tables' newest opset, the note says the schemas were not applied
    mm = onnx.ModelProto()
    mm.CopyFrom(m)
    mm.opset_import[0].version = 99
    rc, rep = slim(save(mm, os.path.join(tmp, "out%d-99.onnx" % i)))
    report(rep is not None and "schemas not checked for domain 'ai.onnx' at opset 99" in rep["note"],
           "%s: re-imported at opset 99, the note says the schemas were not applied" % what,
           rep and rep["note"])
report(n_models == len(VARIANTS) and n_mutants >= len(VARIANTS),
       "%d converted models at opset %d, %d mutants" % (n_models, OPSET, n_mutants))
finish()
