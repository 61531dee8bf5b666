#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""The Python onnxruntime twin of test/simplify/ort_simplified.js: same
arguments, output lines and exit status (the venv of test/ort-setup.sh).

usage: ort_simplified.py MANIFEST
For each pair of the manifest (test/simplify/prep_inputs.py) runs the
original and the simplified model on each set of inputs and compares every
output's type, dims and bytes. Prints per pair "same NAME", "differ NAME:
why", "error NAME: why" (the simplified model fails where the original
ran) or "skip NAME: why" (the original itself does not load or run here).
Exit status: 0 nothing differs, 1 something differs or fails.
"""
import json
import sys

import numpy as np
import onnxruntime as ort

NP = {"float32": np.float32, "uint8": np.uint8, "int8": np.int8, "uint16": np.uint16,
      "int16": np.int16, "int32": np.int32, "int64": np.int64, "bool": np.bool_,
      "float16": np.float16, "float64": np.float64, "uint32": np.uint32, "uint64": np.uint64}


def session(path):
    so = ort.SessionOptions()
    so.log_severity_level = 3
    return ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])


def outputs(s, run):
    feeds = {}
    for i in run:
        with open(i["file"], "rb") as f:
            feeds[i["name"]] = np.frombuffer(f.read(), NP[i["type"]]).reshape(i["dims"])
    names = [o.name for o in s.get_outputs()]
    return names, s.run(names, feeds)


def key(v):
    if isinstance(v, np.ndarray):
        return (str(v.dtype), list(v.shape), v.tobytes() if v.dtype != object else repr(v.tolist()))
    return ("value", [], repr(v).encode())


def main():
    entries = json.load(open(sys.argv[1]))
    status = 0
    for e in entries:
        name = e["name"]
        if "skip" in e:
            print("skip %s: %s" % (name, e["skip"]))
            continue
        try:
            so = session(e["original"])
        except Exception as x:  # noqa: BLE001 - the original does not load here
            print("skip %s: the original does not load: %s" % (name, str(x).split("\n")[0][:120]))
            continue
        # what loads must still load simplified, whether or not the inputs
        # made for it run (onnxruntime checks more of a graph at load when
        # a fold made an If's condition constant)
        try:
            ss = session(e["simplified"])
        except Exception as x:  # noqa: BLE001
            print("error %s: the simplified model does not load: %s" % (name, str(x).split("\n")[0][:200]))
            status = 1
            continue
        try:
            ref = [outputs(so, r) for r in e["runs"]]
        except Exception as x:  # noqa: BLE001 - the original does not run here
            print("skip %s: the original does not run: %s" % (name, str(x).split("\n")[0][:120]))
            continue
        try:
            got = [outputs(ss, r) for r in e["runs"]]
        except Exception as x:  # noqa: BLE001
            print("error %s: %s" % (name, str(x).split("\n")[0][:200]))
            status = 1
            continue
        why = ""
        for k, ((rn, rv), (gn, gv)) in enumerate(zip(ref, got)):
            if rn != gn:
                why = "outputs %s, want %s" % (gn, rn)
            else:
                for n, a, b in zip(rn, rv, gv):
                    if key(a) != key(b):
                        why = "input set %d, output %s differs" % (k, n)
                        break
            if why:
                break
        if why:
            print("differ %s: %s" % (name, why))
            status = 1
        else:
            print("same %s" % name)
    return status


if __name__ == "__main__":
    sys.exit(main())
