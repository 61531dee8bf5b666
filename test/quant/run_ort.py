#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""The Python onnxruntime twin of test/quant/run_ort.js (same arguments,
output file and exit status; ORT_OPT and ORT_QDQ_ACCURACY read the same way).

Runs a model with one input and writes its first output's values, raw
little-endian FLOAT (or FLOAT16 bits), to OUT.

Usage: run_ort.py MODEL INPUT DIMS IDS OUT [float32|float16]
  DIMS and IDS comma-separated (DIMS "-": a scalar); default int64 input.
Exit status: 0 ok, 1 the session failed (its message on stderr).
"""
import os
import sys

import numpy as np
import onnxruntime as ort

LEVELS = {"disabled": ort.GraphOptimizationLevel.ORT_DISABLE_ALL,
          "basic": ort.GraphOptimizationLevel.ORT_ENABLE_BASIC,
          "extended": ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED,
          "all": ort.GraphOptimizationLevel.ORT_ENABLE_ALL}


def main():
    a = sys.argv[1:]
    if len(a) < 5:
        print("usage: run_ort.py MODEL INPUT DIMS IDS OUT", file=sys.stderr)
        return 2
    model, inp, dims, ids, out = a[:5]
    typ = a[5] if len(a) > 5 else None
    so = ort.SessionOptions()
    so.log_severity_level = 3
    if os.environ.get("ORT_OPT"):
        so.graph_optimization_level = LEVELS[os.environ["ORT_OPT"]]
    # onnxruntime fuses DequantizeLinear -> MatMul into MatMulNBits with
    # accuracy_level 4 (A quantized to INT8) unless told otherwise
    if os.environ.get("ORT_QDQ_ACCURACY"):
        so.add_session_config_entry("session.qdq_matmulnbits_accuracy_level", os.environ["ORT_QDQ_ACCURACY"])
    shape = [] if dims == "-" else [int(d) for d in dims.split(",")]
    vals = ids.split(",")
    try:
        s = ort.InferenceSession(model, so, providers=["CPUExecutionProvider"])
        if typ == "float32":
            x = np.array([float(v) for v in vals], np.float32).reshape(shape)
        elif typ == "float16":
            x = np.array([int(v) for v in vals], np.uint16).view(np.float16).reshape(shape)
        else:
            x = np.array([int(v) for v in vals], np.int64).reshape(shape)
        y = s.run([s.get_outputs()[0].name], {inp: x})[0]
        if y.dtype not in (np.float32, np.float16):
            raise RuntimeError("output type %s" % y.dtype)
        np.ascontiguousarray(y).tofile(out)
    except Exception as e:  # noqa: BLE001 - the runtime's refusal is the result
        print("run_ort.py: " + str(e).split("\n")[0], file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
