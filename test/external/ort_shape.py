#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""The Python onnxruntime twin of test/external/ort_shape.js (same arguments,
output and exit status): loads and runs the models of
test/external/make_shape_models.py (x = -7.5..7.5, cond = true) and requires
every model's output y to be bitwise identical to the first model's.

Usage: ort_shape.py ORIGINAL.onnx OTHER.onnx [...]
Prints "ran M: dims [..]", "same A B", "differ A B: why" or "error M: message".
Exit status: 0 all identical, 1 otherwise.
"""
import sys

import numpy as np
import onnxruntime as ort


def run(model):
    s = ort.InferenceSession(model, providers=["CPUExecutionProvider"])
    feeds = {"x": (np.arange(16, dtype=np.float32) - np.float32(7.5))}
    if "cond" in [i.name for i in s.get_inputs()]:
        feeds["cond"] = np.array(True)
    return s.run(["y"], feeds)[0]


def main():
    models = sys.argv[1:]
    status, ref = 0, None
    for m in models:
        try:
            y = run(m)
        except Exception as e:  # noqa: BLE001 - the runtime's refusal is the result
            print("error %s: %s" % (m, str(e).split("\n")[0][:300]))
            status = 1
            continue
        if ref is None:
            ref = y
            print("ran %s: dims [%s]" % (m, ",".join(map(str, y.shape))))
            continue
        same = y.shape == ref.shape and y.dtype == ref.dtype and y.tobytes() == ref.tobytes()
        print("same %s %s" % (models[0], m) if same else
              "differ %s %s: dims [%s]" % (models[0], m, ",".join(map(str, y.shape))))
        if not same:
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
